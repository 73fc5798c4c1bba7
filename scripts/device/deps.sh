#!/usr/bin/env bash
# Run HERE (a Debian 12 machine with network to Debian's mirrors), once: downloads what the lent
# GPU machine lacks into two git-ignored folders that the device run carries (carry: [".gl",
# ".gpudeps"]); scripts/gpu-check unpacks them there.
#   .gl/       the glvnd loaders (EGL, GL, GLES, Vulkan), unpacked into / on the machine
#   .gpudeps/  libpcap, the GL and GLEW headers, GLFW, Dear ImGui, stb and their libraries,
#              unpacked into a prefix (/opt/swl-deps)
# The GPU machine is Ubuntu 24.04 with CUDA, spdlog, fmt, gtest, benchmark, CLI11 and
# nlohmann-json, and no network (docs/decisions/0031-gpu-machine-recipe.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .git/info
for d in /.gpudeps/ /.gl/; do
  grep -qx "$d" .git/info/exclude 2>/dev/null || echo "$d" >> .git/info/exclude
done
mkdir -p .gpudeps/debs .gl /tmp/amd64/partial
o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
# shellcheck disable=SC2086  # $o is several options
apt-get $o update -qq
pkgs=(
  libpcap0.8 libpcap0.8-dev libpcap-dev libdbus-1-3
  libglew2.2 libglew-dev libglm-dev libegl-dev libgl-dev libglx-dev libopengl-dev libgles-dev
  libegl1 libgl1 libglx0 libopengl0 libgles2 libglvnd0
  libglfw3 libglfw3-dev libimgui-dev libstb-dev libstb0
  libx11-6 libx11-data libxcb1 libxau6 libxdmcp6 libbsd0 libmd0
)
# shellcheck disable=SC2086
(cd .gpudeps/debs && apt-get $o download "${pkgs[@]}")
# shellcheck disable=SC2086
(cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
du -sh .gpudeps .gl
