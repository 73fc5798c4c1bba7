# -Werror applies to project code only; third-party sources (ImGui backends) are compiled
# without it in their own target.
function(sweepline_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra -Werror=all-warnings>)
endfunction()

# sweepline_glob(OUT ROOT d1 d2 ...): every .cpp of the folders ROOT/d1, ROOT/d2 ...
# (non-recursive). One file per algorithm or stage keeps modules and tests growing without edits
# to shared build files.
function(sweepline_glob out root)
  set(_files)
  foreach(d ${ARGN})
    file(GLOB _f CONFIGURE_DEPENDS ${root}/${d}/*.cpp)
    list(APPEND _files ${_f})
  endforeach()
  set(${out} ${_files} PARENT_SCOPE)
endfunction()

# sweepline_module(NAME DIRS d1 d2 ... DEPS t1 t2 ...): a static library from every .cpp in the
# listed folders. Include paths are rooted at the repository ("app/common/image.hpp").
function(sweepline_module name)
  cmake_parse_arguments(M "" "" "DIRS;DEPS" ${ARGN})
  sweepline_glob(_srcs ${PROJECT_SOURCE_DIR} ${M_DIRS})
  if(NOT _srcs)  # a module whose folders hold only headers so far
    set(_srcs ${PROJECT_BINARY_DIR}/generated/empty_${name}.cpp)
    file(WRITE ${_srcs} "// ${name} has no sources yet\n")
  endif()
  add_library(${name} STATIC ${_srcs})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/generated)
  target_link_libraries(${name} PUBLIC ${M_DEPS})
  sweepline_warnings(${name})
endfunction()
