#!/usr/bin/env bash
# The pipeline's GPU-machine check in one go: build test_gpu and bench_gpu, run the pipeline
# tests, the benchmark and compute-sanitizer memcheck, logs and JSON into $OUT (or ./gpu-out).
set -u
OUT=${OUT:-$PWD/gpu-out}
B=${B:-/tmp/build-pipe-gpu}
mkdir -p "$OUT"
t0=$(date +%s)
step() { echo "[$(( $(date +%s) - t0 ))s] $*" | tee -a "$OUT/summary.log"; }
. "$(dirname "$0")/gpu_env.sh"  # the carried packages (sets $deps)
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv > "$OUT/nvidia-smi.log" 2>&1
step "configure"
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSWEEPLINE_GUI=OFF \
  -DSWEEPLINE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CXX_FLAGS="-isystem $deps/usr/include" \
  > "$OUT/configure.log" 2>&1 || { step "configure FAILED"; tail -20 "$OUT/configure.log"; }
step "build"
ninja -C "$B" -k 0 -j"$(nproc)" test_gpu bench_gpu > "$OUT/build.log" 2>&1 ||
  { step "build FAILED"; grep -E "error|FAILED" "$OUT/build.log" | head -30; }
if [ -x "$B/tests/test_gpu" ]; then
  step "tests"
  timeout 200 "$B/tests/test_gpu" --gtest_filter='GpuPipeline*' > "$OUT/test_gpu_pipeline.log" 2>&1
  step "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/test_gpu_pipeline.log" | tr '\n' ' ')"
fi
if [ -x "$B/bench/bench_pipeline" ]; then
  step "bench"
  timeout "${BENCH_S:-240}" "$B/bench/bench_pipeline" --reps "${REPS:-100}" --json "$OUT/bench_pipeline.json" > "$OUT/bench_pipeline.log" 2>&1
  step "bench rc=$?"
fi
if [ -x "$B/tests/test_gpu" ]; then
  CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  step "memcheck ($CS)"
  timeout "${MEMCHECK_S:-200}" "$CS" --tool memcheck --leak-check full --error-exitcode 3 \
    "$B/tests/test_gpu" --gtest_filter="${MEMCHECK_FILTER:-GpuPipeline*}" > "$OUT/memcheck.log" 2>&1
  step "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1)"
fi
if [ -x "$B/tests/test_gpu" ] && [ -n "${RACECHECK_FILTER:-}" ]; then
  step "racecheck"
  timeout "${RACECHECK_S:-120}" "$CS" --tool racecheck --error-exitcode 3 \
    "$B/tests/test_gpu" --gtest_filter="$RACECHECK_FILTER" > "$OUT/racecheck.log" 2>&1
  step "racecheck rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/racecheck.log" | tail -1)"
fi
step "done"
