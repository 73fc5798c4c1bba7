#!/usr/bin/env bash
# The labelling's GPU-machine check in one go (carry: [".gpudeps"]): builds test_gpu and
# bench_ccl only, runs the labelling tests, compute-sanitizer memcheck + racecheck on the small
# cases, and `bench_ccl --quick --fast-only` for the default and each variant named in VARIANTS
# (environment assignments, ';'-separated), logs and JSON into $OUT (or ./gpu-out).
#   FULL=1 also runs the whole bench_ccl (every algorithm, --json $OUT/bench_ccl.json).
set -u
DEST=${OUT:-$PWD/gpu-out}
B=${B:-/tmp/build-ccl-gpu}
# Everything is written to a work folder and packed into $DEST/ccl-check.tgz (the device tool
# brings back at most 8 files); summary.log and tests.log are also copied as they are.
OUT=/tmp/ccl-check
rm -rf "$OUT"
mkdir -p "$OUT" "$DEST"
finish() {
  tar -C "$OUT" -czf "$DEST/ccl-check.tgz" .
  for f in summary.log tests.log; do [ -f "$OUT/$f" ] && cp "$OUT/$f" "$DEST/"; done
  return 0
}
trap finish EXIT
t0=$(date +%s)
step() { echo "[$(($(date +%s) - t0))s] $*" | tee -a "$OUT/summary.log"; }
. "$(dirname "$0")/gpu_env.sh"  # the carried packages (sets $deps)
{
  date -u +"date %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvcc --version | tail -1
} > "$OUT/device.txt" 2>&1
step "configure"
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWEEPLINE_GUI=OFF \
  -DSWEEPLINE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CXX_FLAGS="-isystem $deps/usr/include" \
  -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath-link,$deps/lib/x86_64-linux-gnu:$deps/usr/lib/x86_64-linux-gnu" \
  > "$OUT/configure.log" 2>&1 || { step "configure FAILED"; tail -20 "$OUT/configure.log"; }
step "build"
ninja -C "$B" -k 0 -j"$(nproc)" test_gpu bench_ccl > "$OUT/build.log" 2>&1 ||
  { step "build FAILED"; grep -E "error|FAILED" "$OUT/build.log" | head -30; }
T=$B/tests/test_gpu
BC=$B/bench/bench_ccl
if [ -x "$T" ]; then
  step "tests"
  (cd "$B/tests" && timeout 240 ./test_gpu --gtest_filter='GpuCcl*') > "$OUT/tests.log" 2>&1
  step "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/tests.log" | tr '\n' ' ')"
  grep -E "^\[  FAILED|Failure|first at|component [0-9]+:" "$OUT/tests.log" | head -20
fi
if [ -x "$BC" ]; then
  IFS=';' read -ra vars <<< "${VARIANTS:-}"
  for v in "" "${vars[@]}"; do
    name=${v:-default}
    name=${name//[^A-Za-z0-9_]/_}
    step "bench $name"
    env $v timeout 150 "$BC" --quick --fast-only --budget-ms "${BUDGET_MS:-150}" \
      --json "$OUT/fast_$name.json" > "$OUT/bench_$name.log" 2>&1
    step "bench $name rc=$?"
  done
  if [ "${FULL:-0}" = 1 ]; then
    step "bench full"
    timeout 240 "$BC" --json "$OUT/bench_ccl.json" > "$OUT/bench_full.log" 2>&1
    step "bench full rc=$?"
  fi
fi
if [ -x "$T" ] && [ "${SANITIZE:-1}" = 1 ]; then
  CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  F=${SANITIZE_FILTER:-GpuCclSmall.*}
  step "memcheck"
  timeout 150 "$CS" --tool memcheck --error-exitcode 3 "$T" --gtest_filter="$F" \
    > "$OUT/memcheck.log" 2>&1
  step "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1)"
  RF=${RACECHECK_FILTER:-GpuCclSmall.FastAcrossTileBorders:GpuCclSmall.FastManyComponentsPerTile}
  for v in "" ${RACECHECK_VARIANTS:-}; do
    step "racecheck ${v:-default}"
    env $v timeout 120 "$CS" --tool racecheck --error-exitcode 3 "$T" --gtest_filter="$RF" \
      > "$OUT/racecheck_${v//[^A-Za-z0-9_]/_}.log" 2>&1
    step "racecheck ${v:-default} rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' \
      "$OUT/racecheck_${v//[^A-Za-z0-9_]/_}.log" | tail -1)"
  done
fi
step "done"
