#!/usr/bin/env bash
# The labelling's GPU-machine check in one go (carry: [".gpudeps"]): builds test_gpu and
# bench_ccl only, runs the labelling tests, compute-sanitizer memcheck + racecheck on the small
# cases, and `bench_ccl --quick --fast-only` for the default and each variant named in VARIANTS
# (environment assignments, ';'-separated), logs and JSON into $OUT (or ./gpu-out).
#   CHECK_VARIANTS (';'-separated) repeats the tests and sanitizers under other variants; NCU
#   profiles single kernels (see below).
#   FULL=1 also runs the whole bench_ccl (every algorithm, --json $OUT/bench_ccl.json).
#   PEERS=1: the default bench saves its images and scripts/bench-peers.py times cupyx on them
#   (no cv2 timing; peers.json, peers.log), ratios with and without statistics.
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
RF_DEFAULT=GpuCclSmall.FastAcrossTileBorders:GpuCclSmall.FastManyComponentsPerTile
RF_DEFAULT+=:GpuCclSmall.FastWithoutStatistics:GpuCclSmall.FastSparseFramesAfterDenseOnes
. "$(dirname "$0")/gpu_env.sh"  # the carried packages ($deps), step, swl_build
swl_begin
swl_device_txt "$OUT/device.txt"
swl_build Release "$OUT/build.log" test_gpu bench_ccl
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
    save=()
    [ "${PEERS:-0}" = 1 ] && [ -z "$v" ] && save=(--save-images /tmp/ccl-images)
    env $v timeout 150 "$BC" --quick --fast-only --budget-ms "${BUDGET_MS:-150}" "${save[@]}" \
      --json "$OUT/fast_$name.json" > "$OUT/bench_$name.log" 2>&1
    step "bench $name rc=$?"
    if [ ${#save[@]} -gt 0 ]; then
      step "peers"
      timeout "${PEERS_S:-150}" python3 scripts/bench-peers.py /tmp/ccl-images \
        "$OUT/fast_$name.json" --no-cv2-timing --reps "${PEER_REPS:-30}" --json "$OUT/peers.json" \
        > "$OUT/peers.log" 2>&1
      step "peers rc=$?"
    fi
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
  RF=${RACECHECK_FILTER:-$RF_DEFAULT}
  for v in "" ${RACECHECK_VARIANTS:-}; do
    step "racecheck ${v:-default}"
    env $v timeout 120 "$CS" --tool racecheck --error-exitcode 3 "$T" --gtest_filter="$RF" \
      > "$OUT/racecheck_${v//[^A-Za-z0-9_]/_}.log" 2>&1
    step "racecheck ${v:-default} rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' \
      "$OUT/racecheck_${v//[^A-Za-z0-9_]/_}.log" | tail -1)"
  done
fi
# CHECK_VARIANTS="ENV...;ENV...": the labelling tests, memcheck on the small `fast` cases and
# racecheck on RACECHECK_FILTER again under each variant's environment.
if [ -x "$T" ] && [ -n "${CHECK_VARIANTS:-}" ]; then
  CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  RF=${RACECHECK_FILTER:-$RF_DEFAULT}
  IFS=';' read -ra cvars <<< "$CHECK_VARIANTS"
  for v in "${cvars[@]}"; do
    n=${v//[^A-Za-z0-9_]/_}
    (cd "$B/tests" && env $v timeout 120 ./test_gpu --gtest_filter='GpuCcl*') > "$OUT/tests_$n.log" 2>&1
    step "tests [$v] rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/tests_$n.log" | tr '\n' ' ')"
    grep -E "^\[  FAILED|Failure" "$OUT/tests_$n.log" | head -10
    env $v timeout 90 "$CS" --tool memcheck --error-exitcode 3 "$T" --gtest_filter='GpuCclSmall.Fast*' \
      > "$OUT/memcheck_$n.log" 2>&1
    step "memcheck [$v] rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck_$n.log" | tail -1)"
    env $v timeout 120 "$CS" --tool racecheck --error-exitcode 3 "$T" --gtest_filter="$RF" \
      > "$OUT/racecheck_v_$n.log" 2>&1
    step "racecheck [$v] rc=$? $(grep -E 'RACECHECK SUMMARY' "$OUT/racecheck_v_$n.log" | tail -1)"
  done
fi
# NCU="REGEX@SPEC@CONN ...": one Nsight Compute report per entry (the first launch of the kernels
# matching REGEX while bench_ccl runs image SPEC at connectivity CONN), its details page and its
# warp-state samples by phase (scripts/ncu-phases.py on the SASS source page; the CUDA-source page
# exports no metrics). The report itself comes back in the tgz.
if [ -x "$BC" ] && [ -n "${NCU:-}" ]; then
  NCUB=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  for e in $NCU; do
    IFS=@ read -r kr spec conn <<< "$e"
    n=ncu_${kr//[^A-Za-z0-9_]/_}_${spec//[^A-Za-z0-9_]/_}_$conn
    step "ncu $kr $spec $conn"
    timeout 120 "$NCUB" --clock-control none --kernel-name "regex:$kr" --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
      --section MemoryWorkloadAnalysis --section SourceCounters --import-source yes -f -o "$OUT/$n" \
      "$BC" --quick --fast-only --only "$spec" --conn "$conn" --max-reps 3 --budget-ms 5 \
      > "$OUT/$n.log" 2>&1
    step "ncu rc=$?"
    "$NCUB" -i "$OUT/$n.ncu-rep" --page details > "$OUT/${n}_details.txt" 2>&1
    # Warp-state samples per SASS instruction, grouped into the kernel's barrier-separated phases.
    "$NCUB" -i "$OUT/$n.ncu-rep" --page source --csv --print-source sass > "$OUT/${n}_sass.csv" 2>&1
    python3 scripts/ncu-phases.py "$OUT/${n}_sass.csv" 5 > "$OUT/${n}_phases.txt" 2>&1
  done
fi
step "done"
