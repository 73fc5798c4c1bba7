#!/usr/bin/env bash
# Every area in one short device call (carry [".gpudeps"]), for sessions with little device time
# left: builds test_gpu, bench_ccl and bench_pipeline only (Release, sm_90, no GUI), runs every gpu
# test, `fast` labelling (bench_ccl --quick --fast-only, images saved) with the peers on the same
# images (cupyx timed; OpenCV and SciPy checked but not timed), the pipeline benchmark without the
# CPU rows, and last compute-sanitizer on the small cases. scripts/gpu-check is the complete run
# (GL tests, every benchmark, the console, RESULTS.md); this one does not write RESULTS.md.
#   OUT=$OUT bash bench/gpu/all_gpu_check.sh
#   SANITIZE=0 skips the sanitizers; MEMCHECK_FILTER / RACECHECK_FILTER / SANITIZE_S narrow them;
#   VARIANTS (';'-separated environment assignments) adds bench_ccl runs under each.
# Output: $OUT/all-check.tgz (logs, JSON), and summary.log / tests.log as they are.
set -u
DEST=${OUT:-$PWD/gpu-out}
B=${B:-/tmp/build-all-gpu}
OUT=/tmp/all-check
rm -rf "$OUT"
mkdir -p "$OUT" "$DEST"
pack() {
  tar -C "$OUT" -czf "$DEST/all-check.tgz" --exclude=./images . 2>/dev/null
  for f in summary.log tests.log; do [ -f "$OUT/$f" ] && cp "$OUT/$f" "$DEST/"; done
  return 0
}
trap pack EXIT
. "$(dirname "$0")/gpu_env.sh" # the carried packages ($deps), step, swl_build
swl_begin
swl_device_txt "$OUT/device.txt"
swl_build Release "$OUT/build.log" test_gpu bench_ccl bench_pipeline
T=$B/tests/test_gpu
if [ -x "$T" ]; then
  step "tests"
  timeout "${TESTS_S:-240}" "$T" > "$OUT/tests.log" 2>&1
  step "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/tests.log" | tr '\n' ' ')"
  grep -E "^\[  FAILED" "$OUT/tests.log" | head -20 | tee -a "$OUT/summary.log"
  pack
fi
BC=$B/bench/bench_ccl
if [ -x "$BC" ]; then
  step "bench_ccl (fast)"
  timeout 150 "$BC" --quick --fast-only --save-images "$OUT/images" --json "$OUT/bench_ccl.json" \
    > "$OUT/bench_ccl.log" 2>&1
  step "bench_ccl rc=$?"
  step "peers"
  timeout "${PEERS_S:-150}" python3 scripts/bench-peers.py "$OUT/images" "$OUT/bench_ccl.json" \
    --no-cv2-timing --reps "${PEER_REPS:-30}" --json "$OUT/peers.json" > "$OUT/peers.log" 2>&1
  step "peers rc=$?"
  rm -rf "$OUT/images"
  IFS=';' read -ra variants <<< "${VARIANTS:-}"
  for v in "${variants[@]}"; do
    [ -n "$v" ] || continue
    step "bench_ccl under $v"
    tag=$(echo "$v" | tr -c 'A-Za-z0-9_=\n' '_')
    env $v timeout 120 "$BC" --quick --fast-only --json "$OUT/bench_ccl_$tag.json" \
      > "$OUT/bench_ccl_$tag.log" 2>&1
    step "rc=$?"
  done
  pack
fi
if [ -x "$B/bench/bench_pipeline" ]; then
  step "bench_pipeline (no CPU rows)"
  timeout 150 "$B/bench/bench_pipeline" --reps "${REPS:-50}" --no-cpu \
    --json "$OUT/bench_pipeline.json" > "$OUT/bench_pipeline.log" 2>&1
  step "bench_pipeline rc=$?"
  pack
fi
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ -x "$T" ] && [ "${SANITIZE:-1}" = 1 ]; then
  step "memcheck"
  timeout "${SANITIZE_S:-120}" "$CS" --tool memcheck --error-exitcode 3 "$T" \
    --gtest_filter="${MEMCHECK_FILTER:-GpuCclSmall.*:GpuScan.EveryPath*:GpuScan.TableFollows*:GpuFilters.SmallCases*}" \
    > "$OUT/memcheck.log" 2>&1
  step "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1)"
  pack
  step "racecheck"
  timeout "${SANITIZE_S:-120}" "$CS" --tool racecheck --error-exitcode 3 "$T" \
    --gtest_filter="${RACECHECK_FILTER:-GpuCclSmall.Fast*:GpuScan.Surface*:GpuScan.TableFollows*:GpuFilters.SmallCases*}" \
    > "$OUT/racecheck.log" 2>&1
  step "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/racecheck.log" | tail -1)"
fi
step "done"
