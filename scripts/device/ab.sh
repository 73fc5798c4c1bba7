#!/usr/bin/env bash
# Same-call A/B on the GPU machine: another source tree (BEFORE, default .baseline: e.g.
# `git archive REV | tar -x -C .baseline`, carried) against this one, bench_pipeline and bench_ccl
# (spirals; BENCH_CCL_ONLY picks other images) interleaved three rounds, into $OUT/ab/.
#   bash scripts/device/ab.sh [BEFORE]
set -uo pipefail
work=$OUT/ab; mkdir -p $work
source scripts/device/lib.sh
unpack_carried
for side in old new; do
  src=$([ $side = old ] && echo "${1:-.baseline}" || echo .)
  cmake -S $src -B /tmp/b$side -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWEEPLINE_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DSWEEPLINE_GUI=OFF -DSWEEPLINE_TESTS=OFF \
    -DCMAKE_CXX_FLAGS="-isystem $deps/usr/include" > $work/cfg_$side.log 2>&1 || { echo cfg $side failed; tail $work/cfg_$side.log; }
  (ninja -C /tmp/b$side bench_pipeline bench_ccl > $work/build_$side.log 2>&1 && echo built $side) || { echo build $side failed; grep -m5 error $work/build_$side.log; }
done
for r in 1 2 3; do
  for side in old new; do
    /tmp/b$side/bench/bench_pipeline --no-cpu --json $work/pipe_${side}_$r.json > $work/pipe_${side}_$r.log 2>&1
    /tmp/b$side/bench/bench_ccl --fast-only --only "${BENCH_CCL_ONLY:-spirals}" --json $work/ccl_${side}_$r.json > $work/ccl_${side}_$r.log 2>&1
    echo "round $r $side done"
  done
done
# One archive: the device tool brings back at most 8 files.
tar -C "$OUT" -czf "$OUT/ab.tgz" ab && rm -rf "$work"
