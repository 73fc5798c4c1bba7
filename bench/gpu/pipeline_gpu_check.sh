#!/usr/bin/env bash
# The pipeline's GPU-machine check in one go: build test_gpu and bench_gpu, run the pipeline
# tests, the benchmark and compute-sanitizer memcheck, logs and JSON into $OUT (or ./gpu-out).
set -u
OUT=${OUT:-$PWD/gpu-out}
B=${B:-/tmp/build-pipe-gpu}
. "$(dirname "$0")/gpu_env.sh"  # the carried packages ($deps), step, swl_build
swl_begin
swl_device_txt "$OUT/device.txt"
swl_build RelWithDebInfo "$OUT/build.log" test_gpu bench_gpu
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
