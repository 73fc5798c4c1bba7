#pragma once
#include <string_view>

#include "render/gl_resource.hpp"

namespace sweepline::render {

// Compiles and links a program from two embedded shaders (names under shaders/). Throws with the
// driver's info log on failure.
Program build_program(std::string_view vertex_name, std::string_view fragment_name);
Program build_program_from_source(std::string_view vertex_src, std::string_view fragment_src);

}  // namespace sweepline::render
