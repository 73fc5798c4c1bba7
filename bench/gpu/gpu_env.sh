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
