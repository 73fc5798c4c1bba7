#!/usr/bin/env bash
# The denoising filters on the GPU machine in one device call (carry [".gpudeps"]): builds only
# test_gpu and bench_pipeline (Release, sm_90), runs the filter tests, the pipeline benchmark
# (--json), then compute-sanitizer memcheck and racecheck on the small filter cases. Logs, JSON
# and a summary into $OUT (or ./gpu-out), at most 8 files (what the device tool brings back).
#   bash bench/gpu/filters_gpu_check.sh   # REPS=100, BENCH_ARGS="" (e.g. --no-cpu), SANITIZE=1,
#                                         # NCU=1 (Nsight Compute sections of the filter kernels)
set -u
OUT=${OUT:-$PWD/gpu-out}
B=${B:-/tmp/build-filters-gpu}
. "$(dirname "$0")/gpu_env.sh"  # the carried packages ($deps), step, swl_build
swl_begin
swl_device_txt "$OUT/device.txt"
cat "$OUT/device.txt"
swl_build Release "$OUT/build.log" test_gpu bench_pipeline
T="$B/tests/test_gpu"
if [ -x "$T" ]; then
  step "tests"
  timeout "${TESTS_S:-150}" "$T" --gtest_filter='GpuFilters*:GpuPipeline.Denois*:GpuPipeline.Gaussian*:GpuPipeline.Fft*:GpuPipeline.Writes*:GpuPipeline.FullSize*' \
    > "$OUT/tests.log" 2>&1
  step "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/tests.log" | tr '\n' ' ')"
  grep -E "^\[  FAILED|Failure|Expected|Which is|actual|max_diff|count_diff" "$OUT/tests.log" | head -40
fi
if [ -x "$B/bench/bench_pipeline" ]; then
  # BENCH_RUNS runs (the second without the CPU rows): run-to-run noise on the lent machine
  # has been up to 50 % on single rows; both land in the log, the first in the JSON.
  for r in $(seq 1 "${BENCH_RUNS:-1}"); do
    step "bench run $r"
    extra=""
    [ "$r" -gt 1 ] && extra="--no-cpu"
    json="$OUT/bench_pipeline.json"
    [ "$r" -gt 1 ] && json="/tmp/bench_pipeline_$r.json"
    timeout "${BENCH_S:-150}" "$B/bench/bench_pipeline" --reps "${REPS:-100}" ${BENCH_ARGS:-} $extra \
      --json "$json" >> "$OUT/bench_pipeline.log" 2>&1
    step "bench rc=$?"
  done
  grep -E "^(stage|d2d|gaussian|bilateral|fft|frame: (denoise|total))|paper" "$OUT/bench_pipeline.log"
fi
if [ -x "$B/bench/bench_pipeline" ] && [ "${NCU:-0}" = 1 ]; then
  # Hardware counters of the filter kernels (one launch each), as text.
  NCU_BIN=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  for k in 'fused_kernel<.int.3, .bool.0>' 'fused_kernel<.int.6, .bool.0>' \
    'fused_kernel<.int.15, .bool.0>' 'fused_kernel<.int.4, .bool.1>' 'fft_warp_kernel' \
    'fused_kernel<.int.10, .bool.1>' 'pair_bilateral_kernel<.int.4>' 'pair_bilateral_kernel<.int.10>' \
    'gauss_mma_kernel<.int.6, .int.64>' 'gauss_mma_kernel<.int.15, .int.64>'; do
    step "ncu $k"
    timeout 120 "$NCU_BIN" --clock-control none --kernel-name-base demangled -k "regex:$k" -c 1 \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
      --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
      --section InstructionStats "$B/bench/bench_pipeline" --reps 5 --no-cpu >> "$OUT/ncu.log" 2>&1
  done
fi
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ -x "$T" ] && [ "${SANITIZE:-1}" = 1 ]; then
  step "memcheck"
  timeout "${MEMCHECK_S:-120}" "$CS" --tool memcheck --error-exitcode 3 "$T" \
    --gtest_filter="${MEMCHECK_FILTER:-GpuFilters.SmallCases*}" > "$OUT/sanitizer.log" 2>&1
  step "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/sanitizer.log" | tail -1)"
  step "racecheck"
  timeout "${RACECHECK_S:-90}" "$CS" --tool racecheck --error-exitcode 3 "$T" \
    --gtest_filter="${RACECHECK_FILTER:-GpuFilters.SmallCases*}" \
    >> "$OUT/sanitizer.log" 2>&1
  step "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' "$OUT/sanitizer.log" | tail -1)"
fi
step "done"
