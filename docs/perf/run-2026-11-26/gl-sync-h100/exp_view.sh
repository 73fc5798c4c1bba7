set -u
bash scripts/gpu-check $OUT --bench-only --quick --viewer > $OUT/gc.out 2>&1
tail -3 $OUT/gc.out
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$__EGL_VENDOR_LIBRARY_FILENAMES" ] || unset __EGL_VENDOR_LIBRARY_FILENAMES
export LD_LIBRARY_PATH=/opt/swl-deps/usr/lib/x86_64-linux-gnu:/opt/swl-deps/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
mkdir -p $OUT/v
for round in 1 2; do
for m in 0 1 2; do
  SWL_EXP_GL_SYNC=$m build-gpu/sweepline view --headless --backend cuda --size 4096 --width 1024 --height 1024 \
      --source 'sim://harbour?seed=1&radials=4096&cells=4096&rotations=7' --frames 6 \
      --config /tmp/gpu-check-none.json --no-save --hide-panels \
      --report $OUT/v/rot_${m}_$round.json > $OUT/v/rot_${m}_$round.log 2>&1 || echo "view $m failed"
  python3 - $OUT/v/rot_${m}_$round.json $m <<'PY'
import json,sys,statistics as st
j=json.load(open(sys.argv[1])); fr=j['frames'][1:]
keys=sorted({k for f in fr for k in f['times_ms']})
print('mode',sys.argv[2],' '.join('%s=%.0f'%(k,1000*st.median(f['times_ms'].get(k,0) for f in fr)) for k in keys),
 'total=%.0f'%(1000*st.median(sum(v for k,v in f['times_ms'].items() if ':' not in k) for f in fr)))
PY
done
done
cd $OUT && tar czf v.tgz v && rm -rf v
