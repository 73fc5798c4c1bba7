#!/usr/bin/env bash
# Scan conversion on the GPU machine in one device call (carry [".gpudeps"]): builds only
# test_gpu and bench_pipeline (Release, sm_90), runs the scan tests, the pipeline benchmark
# (--json), then compute-sanitizer memcheck and racecheck on the small scan tests. Logs, JSON and
# a summary into $OUT (or ./gpu-out).
#   bash bench/gpu/scan_gpu_check.sh        # REPS=100, BENCH_ARGS="" (e.g. --no-cpu)
#   SANITIZE=0 skips compute-sanitizer; MEMCHECK_FILTER=gtest-filter narrows memcheck
#   PROFILE=1 [PROFILE_K=regex] [PROFILE_C=n]  # + Nsight Compute on the full-size test's first n
#     kernels matching regex (default maxhold_gather|scan_staged, 4): details, per-SASS
#     counters (ncu_source.csv: executed instructions, stall samples) and the SASS, in
#     profile.tgz
set -u
OUT=${OUT:-$PWD/gpu-out}
B=${B:-/tmp/build-scan-gpu}
. "$(dirname "$0")/gpu_env.sh"  # the carried packages ($deps), step, swl_build
swl_begin
swl_device_txt "$OUT/device.txt"
cat "$OUT/device.txt"
swl_build Release "$OUT/build.log" test_gpu bench_pipeline
T="$B/tests/test_gpu"
if [ -x "$T" ]; then
  # The full-size case alone first (a device fault poisons the rest of a process).
  step "tests"
  timeout 60 "$T" --gtest_filter='GpuScan.FullSize*' > "$OUT/tests.log" 2>&1
  step "full-size rc=$?"
  timeout 150 "$T" --gtest_filter='GpuScan*:GpuPipeline.ScanConversion*:GpuPipeline.MaxHold*:GpuPipeline.Cfar*:GpuPipeline.Writes*:GpuPipeline.FullSize*-GpuScan.FullSize*' \
    >> "$OUT/tests.log" 2>&1
  step "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/tests.log" | tr '\n' ' ')"
  grep -E "^\[  FAILED|Failure|Expected|Which is|actual|exception" "$OUT/tests.log" | head -40
fi
if [ -x "$B/bench/bench_pipeline" ]; then
  step "bench"
  timeout "${BENCH_S:-120}" "$B/bench/bench_pipeline" --reps "${REPS:-100}" ${BENCH_ARGS:-} \
    --json "$OUT/bench_pipeline.json" > "$OUT/bench_pipeline.log" 2>&1
  rc=$?
  step "bench rc=$rc"
  grep -E "^(stage|d2d|scan|max-hold|frame|cfar)" "$OUT/bench_pipeline.log"
  if [ $rc != 0 ]; then
    # Which launch failed (the launch checks then see the fault), and the scan kernels' own
    # durations from the profiler as a fallback.
    CUDA_LAUNCH_BLOCKING=1 timeout 60 "$B/bench/bench_pipeline" --reps 5 --no-cpu \
      > "$OUT/bench_blocking.log" 2>&1
    tail -3 "$OUT/bench_blocking.log"
    timeout 90 ncu --cache-control none --clock-control none --metrics gpu__time_duration.sum \
      -k regex:'maxhold|scan_|az_block' "$T" --gtest_filter='GpuScan.FullSize*' > "$OUT/ncu.log" 2>&1
    grep -E "maxhold|scan_|az_block|gpu__time_duration" "$OUT/ncu.log" | head -40
  fi
fi
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
SMALL=${MEMCHECK_FILTER:-'GpuScan.EveryPath*:GpuScan.TableFollows*:GpuScan.Surface*'}
if [ -x "$T" ] && [ "${SANITIZE:-1}" = 1 ]; then
  step "memcheck"
  timeout "${MEMCHECK_S:-100}" "$CS" --tool memcheck --error-exitcode 3 "$T" \
    --gtest_filter="$SMALL" > "$OUT/memcheck.log" 2>&1
  step "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1)"
  step "racecheck"
  timeout "${RACECHECK_S:-60}" "$CS" --tool racecheck --error-exitcode 3 "$T" \
    --gtest_filter='GpuScan.Surface*:GpuScan.TableFollows*' > "$OUT/racecheck.log" 2>&1
  step "racecheck rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/racecheck.log" | tail -1)"
fi
if [ "${PROFILE:-0}" = 1 ] && [ -x "$T" ]; then
  # Nsight Compute on the full-size case's gather and staged kernels, and their SASS.
  step "ncu"
  timeout 150 ncu --cache-control none --clock-control none --set full --import-source no \
    -k regex:"${PROFILE_K:-maxhold_gather|scan_staged}" -c "${PROFILE_C:-4}" \
    -o /tmp/scan_prof -f "$T" --gtest_filter='GpuScan.FullSize*' > "$OUT/ncu_run.log" 2>&1
  step "ncu rc=$?"
  ncu -i /tmp/scan_prof.ncu-rep --page details > "$OUT/ncu_full.log" 2>&1
  # Per-SASS-instruction counters (executed instructions, stall samples) of the profiled kernels.
  ncu -i /tmp/scan_prof.ncu-rep --page source --print-source sass --csv > "$OUT/ncu_source.csv" 2>&1
  step "ncu source rc=$?"
  for o in scan_maxhold scan_kernels; do
    cuobjdump -sass "$B/gpu/CMakeFiles/sweepline_cuda.dir/cuda/$o.cu.o" > "$OUT/$o.sass" 2>&1
  done
  tar -C "$OUT" -czf "$OUT/profile.tgz" ncu_run.log ncu_full.log ncu_source.csv scan_maxhold.sass \
    scan_kernels.sass
  rm -f "$OUT"/ncu_*.log "$OUT"/ncu_source.csv "$OUT"/*.sass
fi
step "done"
