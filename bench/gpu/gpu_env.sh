# Sourced by the bench/gpu/*_gpu_check.sh scripts on the GPU machine: unpacks the carried
# .gpudeps packages (libpcap and friends, which that machine lacks) into $deps and points CMake,
# pkg-config and the loader at them, as scripts/gpu-check does.
deps=${SWL_DEPS:-/opt/swl-deps}
if [ -d .gpudeps/debs ]; then
  mkdir -p "$deps"
  for f in .gpudeps/debs/*.deb; do dpkg -x "$f" "$deps"; done
fi
export CMAKE_PREFIX_PATH=$deps/usr:$deps/usr/lib/x86_64-linux-gnu/cmake
export PKG_CONFIG_LIBDIR=$deps/usr/lib/x86_64-linux-gnu/pkgconfig:$deps/usr/share/pkgconfig
export PKG_CONFIG_SYSROOT_DIR=$deps
export LD_LIBRARY_PATH=$deps/usr/lib/x86_64-linux-gnu:$deps/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}

# The shared preamble of the check scripts. They set OUT (the log folder) and call swl_begin
# first; swl_build BUILD_TYPE LOG TARGET... configures $B (sm_90, no GUI, against $deps) and
# builds only the named targets, reporting failures through step.
swl_begin() {
  mkdir -p "$OUT"
  t0=$(date +%s)
}
step() { echo "[$(($(date +%s) - t0))s] $*" | tee -a "$OUT/summary.log"; }
swl_device_txt() {
  {
    date -u +"date %Y-%m-%dT%H:%M:%SZ"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.memory,memory.total \
      --format=csv,noheader
    nvcc --version | tail -1
  } > "$1" 2>&1
}
swl_build() {
  local type=$1 log=$2
  shift 2
  step "configure"
  cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE="$type" -DSWEEPLINE_GUI=OFF -DSWEEPLINE_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CXX_FLAGS="-isystem $deps/usr/include" \
    -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath-link,$deps/lib/x86_64-linux-gnu:$deps/usr/lib/x86_64-linux-gnu" \
    > "$log" 2>&1 || { step "configure FAILED"; tail -20 "$log"; }
  step "build"
  ninja -C "$B" -k 0 -j"$(nproc)" "$@" >> "$log" 2>&1 ||
    { step "build FAILED"; grep -E "error|FAILED" "$log" | head -30; }
}
