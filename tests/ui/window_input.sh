#!/usr/bin/env bash
# Real mouse input under Xvfb (xdotool): the Display panel is dragged over the PPI, and the wheel
# over it must not reach the PPI (ImGui wants the mouse there); the wheel over the uncovered PPI
# must zoom it. The replay is paused first so that only input can change the picture.
set -euo pipefail
exe=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
command -v xdotool > /dev/null || { echo "xdotool missing: skipped"; exit 0; }
mkdir -p "$out"
cd "$out"
rm -f inp_*.png
cat > script.txt <<SCRIPT
wait 4
key space
wait 2
screenshot $out/inp_0.png
wait 3
screenshot $out/inp_1.png
wait 3
screenshot $out/inp_2.png
SCRIPT
# Tracking off: flashing alarm symbols would change the paused picture this test compares.
echo '{"tracking": {"enabled": false}}' > "$out/settings.json"
cat > drive.sh <<DRIVE
"$exe" view --source "$src/assets/harbour.pcap" --config "$out/settings.json" --no-save --backend cpu \
  --size 1024 --width 1200 --height 800 --script script.txt > "$out/app.log" 2>&1 &
app=\$!
sleep 1.5; xdotool mousemove 1000 14; sleep 0.3; xdotool mousedown 1
for x in 950 900 850 800 750 700; do sleep 0.1; xdotool mousemove \$x 164; done
for y in 214 264 314; do sleep 0.1; xdotool mousemove 700 \$y; done
sleep 0.2; xdotool mouseup 1; sleep 0.2; xdotool mousemove 720 420
sleep 5; xdotool click 4 click 4 click 4
sleep 2.5; xdotool mousemove 450 200; sleep 0.3; xdotool click 4 click 4 click 4
wait \$app
DRIVE
timeout 120 xvfb-run -a -s "-screen 0 1200x800x24" bash drive.sh
python3 - "$out" "$here" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from pngcheck import read_png, diff_fraction
out = sys.argv[1]
a, b, c = (read_png(f'{out}/inp_{i}.png') for i in range(3))
box = (360, 70, 540, 760)  # the PPI left of the moved panel, without the status lines
d_panel = diff_fraction(a, b, box)
d_ppi = diff_fraction(b, c, box)
# The panel really lies over the PPI: its background colour fills that area.
from pngcheck import pixels
panel = [p for p in pixels(a, (570, 340, 870, 680)) if 11 <= p[0] <= 21 and 16 <= p[1] <= 26 and 20 <= p[2] <= 31]
assert len(panel) > 0.3 * 300 * 340, f'the Display panel was not dragged over the PPI ({len(panel)} px)'
print(f'wheel over a panel: PPI diff {d_panel:.4f}; wheel over the PPI: diff {d_ppi:.3f}')
assert d_panel < 0.0005, 'the wheel over a panel reached the PPI'
assert d_ppi > 0.05, 'the wheel over the PPI did not zoom'
print('window input test passed')
PY
