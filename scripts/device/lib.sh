# shellcheck shell=bash
# Shared steps of the device check (sourced by scripts/device/check.sh on the lent GPU machine).
# The caller sets `work` (the folder every log goes to) before calling any of these.

# The carried packages: .gl/ holds the glvnd loaders, unpacked into / because the NVIDIA EGL
# vendor library is found only there; .gpudeps/ holds what the machine lacks to build (libpcap,
# GL headers, GLFW, ImGui), unpacked into a prefix so that nothing of the system is replaced.
# docs/decisions/0031-gpu-machine-recipe.md says why.
deps=${SWL_DEPS:-/opt/swl-deps}
unpack_carried() {
  if [ -d .gl ]; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
  fi
  if [ -d .gpudeps/debs ]; then
    mkdir -p "$deps"
    for f in .gpudeps/debs/*.deb; do dpkg -x "$f" "$deps"; done
  fi
  export CMAKE_PREFIX_PATH=$deps/usr:$deps/usr/lib/x86_64-linux-gnu/cmake
  export PKG_CONFIG_LIBDIR=$deps/usr/lib/x86_64-linux-gnu/pkgconfig:$deps/usr/share/pkgconfig
  export PKG_CONFIG_SYSROOT_DIR=$deps
  export LD_LIBRARY_PATH=$deps/usr/lib/x86_64-linux-gnu:$deps/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
  export __EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES:-/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json}
  [ -f "$__EGL_VENDOR_LIBRARY_FILENAMES" ] || unset __EGL_VENDOR_LIBRARY_FILENAMES
}

t0=$(date +%s)
# A progress line, also kept in summary.log.
step() { echo "[gpu-check $(($(date +%s) - t0))s] $*" | tee -a "$work/summary.log"; }

device_txt() {
  {
    date -u +"date %Y-%m-%dT%H:%M:%SZ"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
    nvcc --version | tail -1
  } 2>&1 | tee "$work/device.txt"
}

# One build folder for every kind of check, configured the same way each time, so that a second
# call on a still-warm machine rebuilds only what changed.
build_dir=${SWL_BUILD_DIR:-build-gpu}
configure_and_build() {
  local arch gui=ON
  arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '.')
  arch=${arch:-90}
  [ -d "$deps/usr/include/GL" ] || gui=OFF
  step "configure (sm_$arch, GUI $gui)"
  cmake -S . -B $build_dir -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWEEPLINE_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" -DSWEEPLINE_GUI=$gui \
    -DIMGUI_BACKENDS_DIR="$deps/usr/share/doc/libimgui-dev/examples/backends" \
    -DCMAKE_CXX_FLAGS="-isystem $deps/usr/include" \
    -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath-link,$deps/lib/x86_64-linux-gnu:$deps/usr/lib/x86_64-linux-gnu" \
    > "$work/configure.log" 2>&1 || { step "configure failed"; tail -40 "$work/configure.log"; return 1; }
  local targets=() t
  for t in "$@"; do
    [ "$t" = test_render ] && [ $gui = OFF ] && continue
    targets+=("$t")
  done
  step "build ${targets[*]}"
  ninja -C $build_dir -k 0 "${targets[@]}" > "$work/build.log" 2>&1 ||
    { step "build had failures (continuing with what built)"; grep -E "error|FAILED" "$work/build.log" | head -40; }
  return 0
}

# run_tests LOG [FILTER]: test_gpu (and test_render without a filter) into LOG; 1 on a failure.
run_tests() {
  local log=$1 filter=${2:-} t rc=0
  local bins="test_gpu test_render"
  [ -n "$filter" ] && bins=test_gpu
  for t in $bins; do
    if [ ! -x $build_dir/tests/$t ]; then
      # Without the carried GL headers the GL suite is not configured; that is said, not failed.
      echo "$t was not built" >> "$work/$log"
      step "$t was not built"
      [ $t = test_render ] && [ ! -d "$deps/usr/include/GL" ] || rc=1
      continue
    fi
    local from
    touch "$work/$log"
    from=$(($(wc -l < "$work/$log") + 1))
    (cd $build_dir/tests && timeout "${TESTS_S:-600}" ./$t ${filter:+--gtest_filter="$filter"}) \
      >> "$work/$log" 2>&1 || rc=1
    step "$t${filter:+ ($filter)}: $(tail -n +"$from" "$work/$log" | grep -E '^\[  (PASSED|FAILED) ' | tr '\n' ' ')"
    tail -n +"$from" "$work/$log" | grep -E "^\[  FAILED  \]" | head -20
  done
  return $rc
}

# sanitize TOOL FILTER LOG [EXTRA...]: compute-sanitizer on test_gpu's cases matching FILTER.
sanitize() {
  local tool=$1 filter=$2 log=$3
  shift 3
  [ -x $build_dir/tests/test_gpu ] || { step "$tool: test_gpu was not built"; return 1; }
  local cs
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  timeout "${SANITIZE_S:-300}" "$cs" --tool "$tool" "$@" --error-exitcode 3 \
    $build_dir/tests/test_gpu --gtest_filter="$filter" > "$work/$log" 2>&1
  local rc=$?
  step "$tool ($filter): rc=$rc $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$work/$log" | tail -1)"
  return $rc
}

# profile NAME EXE ARGS...: Nsight Compute on the first $ncu_count launches of the kernels whose
# demangled name matches $ncu_regex (template arguments read `<(int)10>`: escape the parentheses).
# Leaves NAME_details.txt, NAME_raw.csv (every metric; stall reasons are
# smsp__pcsamp_warps_issue_stalled_*), NAME_sass.csv (samples per SASS instruction) and
# NAME_phases.txt (those samples by barrier-separated phase, scripts/device/ncu-phases.py).
profile() {
  local name=$1 exe=$2
  shift 2
  [ -x "$exe" ] || { step "ncu: $exe was not built"; return 1; }
  local ncu
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  step "ncu $ncu_regex on $name"
  timeout "${NCU_S:-300}" "$ncu" --clock-control none --set full --import-source no \
    --kernel-name-base demangled -k "regex:$ncu_regex" -c "${ncu_count:-1}" \
    -o "/tmp/$name" -f "$exe" "$@" > "$work/${name}_run.log" 2>&1
  local rc=$?
  step "ncu rc=$rc"
  "$ncu" -i "/tmp/$name.ncu-rep" --page details > "$work/${name}_details.txt" 2>&1
  "$ncu" -i "/tmp/$name.ncu-rep" --page raw --csv > "$work/${name}_raw.csv" 2>&1
  "$ncu" -i "/tmp/$name.ncu-rep" --page source --csv --print-source sass > "$work/${name}_sass.csv" 2>&1
  python3 scripts/device/ncu-phases.py "$work/${name}_sass.csv" 5 > "$work/${name}_phases.txt" 2>&1
  grep -E "Duration|Issue Slots Busy|Executed Ipc Active|Achieved Occupancy|Registers Per" \
    "$work/${name}_details.txt" | head -20
  return $rc
}
