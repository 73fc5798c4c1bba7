#!/usr/bin/env bash
# Nsight Compute on chosen kernels of one program, in one device call (carry [".gpudeps"]):
# builds TARGET (Release, sm_90, no GUI), runs it under ncu --set full on the kernels whose
# function name matches KERNEL (the first COUNT after SKIP of them) and packs into
# $OUT/ncu.tgz the details page, the raw metrics, the per-SASS-instruction counters (executed
# instructions, stall samples) and the SASS of the CUDA objects named in OBJS.
#   TARGET=bench_pipeline ARGS="--reps 5 --no-cpu" KERNEL='pair_bilateral_kernel<10>' \
#     OBJS="filter_fused" OUT=$OUT bash bench/gpu/ncu_kernel.sh
set -u
DEST=${OUT:-$PWD/gpu-out}
B=${B:-/tmp/build-ncu}
OUT=/tmp/ncu-out
rm -rf "$OUT"
mkdir -p "$OUT" "$DEST"
trap 'tar -C "$OUT" -czf "$DEST/ncu.tgz" . 2>/dev/null; cp "$OUT/summary.log" "$DEST/" 2>/dev/null' EXIT
. "$(dirname "$0")/gpu_env.sh"
swl_begin
swl_device_txt "$OUT/device.txt"
swl_build Release "$OUT/build.log" "${TARGET:?}"
exe=$(find "$B" -type f -name "$TARGET" -perm -u+x | head -1)
[ -x "$exe" ] || { step "no $TARGET"; exit 1; }
step "ncu $KERNEL"
timeout "${NCU_S:-300}" ncu --cache-control none --clock-control none --set full --kernel-name-base demangled \
  --import-source no -k "regex:${KERNEL:?}" -s "${SKIP:-0}" -c "${COUNT:-1}" \
  -o "$OUT/prof" -f "$exe" ${ARGS:-} > "$OUT/ncu_run.log" 2>&1
step "ncu rc=$?"
ncu -i "$OUT/prof.ncu-rep" --page details > "$OUT/details.log" 2>&1
ncu -i "$OUT/prof.ncu-rep" --page source --print-source sass --csv > "$OUT/source.csv" 2>&1
# Every raw metric (the stall reasons are smsp__pcsamp_warps_issue_stalled_*), one row a kernel.
ncu -i "$OUT/prof.ncu-rep" --page raw --csv > "$OUT/raw.csv" 2>&1
for o in ${OBJS:-}; do
  f=$(find "$B" -name "$o.cu.o" | head -1)
  [ -n "$f" ] && cuobjdump -sass "$f" > "$OUT/$o.sass" 2>&1
done
rm -f "$OUT/prof.ncu-rep"
grep -E "Duration|Issue Slots Busy|Executed Ipc Active|No Eligible|Achieved Occupancy|Registers Per|Warp Cycles Per Issued|Stall" "$OUT/details.log" | head -40
step "done"
