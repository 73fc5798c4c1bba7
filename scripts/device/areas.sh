# shellcheck shell=bash
# What the device check runs: the whole check, and the per-area checks (sourced by
# scripts/device/check.sh after lib.sh; the option variables are check.sh's).

# ---------------------------------------------------------------- per area
# The gtest filter of an area's tests.
area_tests() {
  case $1 in
    ccl) echo 'GpuCcl*:GpuDevice.Compressible*' ;;
    scan) echo 'GpuScan*:GpuPipeline.ScanConversion*:GpuPipeline.MaxHold*:GpuPipeline.Cfar*:GpuPipeline.Writes*:GpuPipeline.FullSize*' ;;
    filters) echo 'GpuFilters*:GpuPipeline.Denois*:GpuPipeline.Gaussian*:GpuPipeline.Fft*:GpuPipeline.Writes*:GpuPipeline.FullSize*' ;;
    pipeline) echo 'GpuPipeline*:GpuVideo*:HostCopy*' ;;
  esac
}
# The small cases each sanitizer runs on: racecheck takes minutes on a full-size case, so both
# tools get the cases built for them (docs/decisions/0036-sanitizers-in-the-device-check.md).
area_memcheck() {
  case $1 in
    ccl) echo 'GpuCclSmall.*' ;;
    scan) echo 'GpuScan.EveryPath*:GpuScan.TableFollows*:GpuScan.Surface*:GpuScan.TextureFollows*' ;;
    filters) echo 'GpuFilters.SmallCases*' ;;
    pipeline) echo 'GpuPipeline*-GpuPipeline.FullSize*' ;;
  esac
}
area_racecheck() {
  case $1 in
    ccl) echo 'GpuCclSmall.FastAcrossTileBorders:GpuCclSmall.FastManyComponentsPerTile:GpuCclSmall.FastWithoutStatistics:GpuCclSmall.FastSparseFramesAfterDenseOnes' ;;
    scan) echo 'GpuScan.Surface*:GpuScan.TableFollows*' ;;
    filters) echo 'GpuFilters.SmallCases*' ;;
    pipeline) echo 'GpuPipeline.Gaussian*:GpuPipeline.Cfar*' ;;
  esac
}
area_bench() { [ "$1" = ccl ] && echo bench_ccl || echo bench_pipeline; }
bench_defaults() {
  case $1 in
    bench_ccl) echo "--quick --fast-only" ;;
    bench_pipeline) echo "--reps $reps --no-cpu" ;;
  esac
}
ncu_defaults() {
  case $1 in
    bench_ccl) echo "--quick --fast-only --max-reps 3 --budget-ms 5" ;;
    bench_pipeline) echo "--reps 5 --no-cpu" ;;
  esac
}

# bench_once NAME EXE ARGS...: one benchmark run into NAME.json / NAME.log.
bench_once() {
  local name=$1 exe=$2
  shift 2
  step "$name: ${*}"
  timeout "${BENCH_S:-300}" "$exe" "$@" --json "$work/$name.json" > "$work/$name.log" 2>&1
  local rc=$?
  step "$name rc=$rc"
  grep -E '<=[0-9]|MISSED' "$work/$name.log" | head -20
  return $rc
}

# run_area_bench BENCH [VARIANTS]: the runs, the variants when asked (they are arguments of the
# first area's benchmark) and, for bench_ccl, cupyx on the first run's images.
run_area_bench() {
  local with_variants=${2:-0} b=$1 exe=$build_dir/bench/$1 args i n r=0 save=()
  [ -x "$exe" ] || { step "$b was not built"; return 1; }
  args=$(bench_defaults "$b")
  [ $bench_args_set = 1 ] && args=$bench_args
  [ "$b" = bench_ccl ] && [ $peers = 1 ] && save=(--save-images "$work/images")
  for i in $(seq 1 "$runs"); do
    n=$b
    [ "$runs" -gt 1 ] && n=${b}_run$i
    # shellcheck disable=SC2086  # the arguments are words on purpose
    bench_once "$n" "$exe" $args "${save[@]}" || r=1
    if [ ${#save[@]} -gt 0 ]; then
      step "peers: cupyx on the same images"
      timeout "${PEERS_S:-300}" python3 scripts/bench-peers.py "$work/images" "$work/$n.json" \
        --no-cv2-timing --json "$work/peers.json" > "$work/peers.log" 2>&1 || r=1
      tail -25 "$work/peers.log"
      save=()
    fi
  done
  [ "$with_variants" = 1 ] || return $r
  for i in "${!variants[@]}"; do
    # shellcheck disable=SC2086
    bench_once "${b}_variant$((i + 1))" "$exe" $args ${variants[$i]} || r=1
  done
  return $r
}

area_check() {
  local a b benches="" r=0
  [ $quick = 1 ] || benches=$(for a in "$@"; do area_bench "$a"; done | sort -u | tr '\n' ' ')
  # shellcheck disable=SC2086
  configure_and_build test_gpu $benches || return 1
  if [ $tests = 1 ]; then
    for a in "$@"; do
      step "tests: $a"
      run_tests tests.log "$(area_tests "$a")" || r=1
    done
    finish
  fi
  for b in $benches; do
    run_area_bench "$b" "$([ "$b" = "$(area_bench "$1")" ] && echo 1)" || r=1
    finish
  done
  if [ -n "$ncu_regex" ]; then
    b=$(area_bench "$1")
    local args
    args=$(ncu_defaults "$b")
    [ $ncu_args_set = 1 ] && args=$ncu_args
    # shellcheck disable=SC2086
    profile "ncu_$b" "$build_dir/bench/$b" $args || r=1
    finish
  fi
  if [ $sanitize = 1 ]; then
    for a in "$@"; do
      local extra=()
      [ "$a" = pipeline ] && extra=(--leak-check full)
      sanitize memcheck "${SANITIZE_FILTER:-$(area_memcheck "$a")}" "memcheck_$a.log" "${extra[@]}" || r=1
      sanitize racecheck "${RACECHECK_FILTER:-$(area_racecheck "$a")}" "racecheck_$a.log" || r=1
    done
  fi
  return $r
}

# ---------------------------------------------------------------- the whole check
# Issue 7's frame budget as the console itself reports it: headless, CUDA backend with interop,
# 4096^2 display, the default pipeline with labelling, on the simulator's 4096 x 4096 frames.
# Twice: a frame per rotation (the whole 16 MiB polar frame uploaded each time), and a window's
# cadence (60 frames/s of a 24 rpm radar: 27 of 4096 radials a frame).
console_frames() {
  local cadence suffix extra r=0
  step "console at 4096^2"
  for cadence in rotation live; do
    suffix=$([ $cadence = rotation ] || echo _live)
    extra=$([ $cadence = rotation ] && echo "--frames 6" || echo "--frames 160 --frame-radials 27")
    # shellcheck disable=SC2086
    $build_dir/sweepline view --headless --backend cuda --size 4096 --width 1024 --height 1024 \
      --source 'sim://harbour?seed=1&radials=4096&cells=4096&rotations=7' $extra \
      --config /tmp/gpu-check-none.json --no-save --hide-panels \
      --report "$work/view_4096$suffix.json" --snapshot "$work/view_4096$suffix.png" \
      > "$work/view$suffix.log" 2>&1 || { r=1; tail -5 "$work/view$suffix.log"; }
  done
  return $r
}

whole_check() {
  local targets="test_gpu test_render sweepline" r=0
  [ $quick = 1 ] || targets="$targets bench_gpu"
  # shellcheck disable=SC2086
  configure_and_build $targets || return 1
  if [ $tests = 1 ]; then
    step "gpu and gl tests"
    run_tests tests.log || r=1
    finish
  fi
  if { [ $quick = 0 ] && [ -z "$only" ]; } || [ $viewer = 1 ]; then
    console_frames || r=1
  fi
  if [ $quick = 0 ]; then
    # `sweepline bench` runs every benchmark built beside it, the peers on the images our
    # labelling benchmark saved, and the report (RESULTS.md, results.json, charts) into $work.
    step "benchmarks, peers, report"
    $build_dir/sweepline bench --out "$work" ${only:+--only "$only"} 2>&1 | tee "$work/bench.log" |
      grep -E '^== |^bench:'
    [ "${PIPESTATUS[0]}" = 0 ] || r=1
    finish
  fi
  if [ $sanitize = 1 ]; then
    # Last, so that a call cut short by the device's time limit still has tests and benchmarks.
    local small='*Small*:*Sanitize*'
    sanitize memcheck "${SANITIZE_FILTER:-$small}" sanitizer-memcheck.log || r=1
    sanitize racecheck "${RACECHECK_FILTER:-${SANITIZE_FILTER:-$small}}" sanitizer-racecheck.log || r=1
  fi
  return $r
}
