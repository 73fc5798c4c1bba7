#!/usr/bin/env bash
# The device check: the one entry point for everything Sweepline runs on the lent GPU machine
# (scripts/gpu-check calls it; docs/gpu-machine.md is the guide).
#
# On the GPU machine, in a device run that carries .gl and .gpudeps:
#   scripts/gpu-check [OUTDIR] [options]     OUTDIR defaults to $OUT, else docs/perf/runs/<time>
#     (no --area)   the whole check: builds test_gpu, test_render, sweepline and every benchmark,
#                   runs the gpu and gl tests, the console's 4096^2 frame times, `sweepline bench`
#                   (every benchmark, the peers, RESULTS.md + results.json + charts)
#     --area A[,B]  one area or several: ccl | scan | filters | pipeline. Builds test_gpu and the
#                   area's benchmark only, runs the area's tests and its benchmark (ccl: bench_ccl
#                   --quick --fast-only with cupyx on the same images; the others: bench_pipeline
#                   --no-cpu); no RESULTS.md
#     --quick       tests only                --bench-only   benchmarks only (reuses build-gpu/)
#     --sanitize    compute-sanitizer memcheck and racecheck on the small cases, last
#     --only NAME   whole check: only this benchmark executable (e.g. bench_maxhold_probe)
#     --viewer      whole check: the console's frame times also with --only
#     --reps N      bench_pipeline's repetitions (area check; default 100)
#     --runs N      the area's benchmark N times in the call (call-to-call noise; default 1)
#     --bench-args 'ARGS'   the area benchmark's arguments instead of the defaults
#     --variant 'ARGS'      one more run of the first area's benchmark with these arguments
#                           added (repeatable), for an A/B in one binary and one call
#     --no-peers    area ccl: no cupyx timing
#     --ncu REGEX   Nsight Compute on the kernels matching REGEX, inside the first area's
#                   benchmark (--ncu-count N launches, --ncu-args 'ARGS' its arguments there)
#   Environment: TESTS_S, SANITIZE_S (seconds a test binary / a sanitizer tool may take),
#   SANITIZE_FILTER and RACECHECK_FILTER (gtest filters replacing the small cases).
#   Everything lands in OUTDIR/gpu-check.tgz (the device tool returns at most 8 files), with
#   summary.log, tests.log, build.log and RESULTS.md beside it as they are.
#
# Here (the development machine):
#   scripts/gpu-check deps                 once: the packages the GPU machine lacks (scripts/device/deps.sh)
#   scripts/gpu-check publish RUN          RUN's RESULTS.md, results.json and charts into docs/perf/,
#                                          the raw files into docs/perf/runs/ (git-ignored)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
case ${1:-} in
  deps) shift; exec bash scripts/device/deps.sh "$@" ;;
  publish) shift; exec bash scripts/device/publish.sh "$@" ;;
esac

out=${OUT:-docs/perf/runs/$(date -u +%Y%m%d-%H%M%S)}
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then out=$1; shift; fi
areas="" quick=0 tests=1 sanitize=0 only="" viewer=0 peers=1 reps=100 runs=1
bench_args="" bench_args_set=0 ncu_regex="" ncu_count=1 ncu_args="" ncu_args_set=0
variants=()
while [ $# -gt 0 ]; do
  case $1 in
    --area) areas=${2//,/ }; shift ;;
    --quick) quick=1 ;;
    --bench-only) tests=0 ;;
    --sanitize) sanitize=1 ;;
    --only) only=$2; shift ;;
    --viewer) viewer=1 ;;
    --reps) reps=$2; shift ;;
    --runs) runs=$2; shift ;;
    --bench-args) bench_args=$2; bench_args_set=1; shift ;;
    --variant) variants+=("$2"); shift ;;
    --no-peers) peers=0 ;;
    --ncu) ncu_regex=$2; shift ;;
    --ncu-count) ncu_count=$2; shift ;;
    --ncu-args) ncu_args=$2; ncu_args_set=1; shift ;;
    *) echo "gpu-check: unknown argument $1 (see scripts/device/check.sh)" >&2; exit 2 ;;
  esac
  shift
done
for a in $areas; do
  case $a in ccl | scan | filters | pipeline) ;; *) echo "gpu-check: unknown area $a" >&2; exit 2 ;; esac
done

mkdir -p "$out"
work=/tmp/gpu-check
rm -rf "$work"
mkdir -p "$work"
finish() {
  rm -rf "$work/images"
  tar -C "$work" -czf "$out/gpu-check.tgz" . 2>/dev/null
  for f in summary.log tests.log build.log RESULTS.md; do [ -f "$work/$f" ] && cp "$work/$f" "$out/"; done
  return 0
}
trap finish EXIT
# shellcheck source=scripts/device/lib.sh
. scripts/device/lib.sh
# shellcheck source=scripts/device/areas.sh
. scripts/device/areas.sh

unpack_carried
device_txt
rc=0
if [ -z "$areas" ]; then
  whole_check || rc=1
else
  # shellcheck disable=SC2086  # one argument an area
  area_check $areas || rc=1
fi
step "done (rc=$rc); archive $out/gpu-check.tgz"
exit $rc
