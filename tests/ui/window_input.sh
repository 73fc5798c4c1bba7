#!/usr/bin/env bash
# Real mouse input under Xvfb (xdotool): the Display panel is dragged over the PPI, and the wheel
# over it must not reach the PPI (ImGui wants the mouse there); the wheel over the uncovered PPI
# must zoom it. The replay is paused first so that only input can change the picture. Each step
# waits for what the window shows (the script's state dump; the script waits for the driver's
# go-files before each screenshot), never for a fixed time, so a loaded machine only slows it.
set -euo pipefail
exe=$(realpath "$1")
out=$2
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
command -v xdotool > /dev/null || { echo "xdotool missing: skipped"; exit 0; }
mkdir -p "$out"
cd "$out"
rm -f inp_*.png state.json state.json.tmp go*
cat > script.txt <<SCRIPT
dump-state-every 0.05 $out/state.json
wait-file $out/go_pause
key space
wait-file $out/go_0
screenshot $out/inp_0.png
wait-file $out/go_1
screenshot $out/inp_1.png
wait-file $out/go_2
screenshot $out/inp_2.png
wait-file $out/go_end
SCRIPT
# Tracking off: flashing alarm symbols would change the paused picture this test compares.
echo '{"tracking": {"enabled": false}}' > "$out/settings.json"
cat > drive.sh <<DRIVE
set -euo pipefail
wait_state() { python3 "$here/window_state_wait.py" --pid \$app "$out/state.json" "\$@"; }
get() { python3 "$here/window_state_wait.py" "$out/state.json" --get "\$1"; }
# Waits for n more frames of the window: events sent before are handled by then.
frames() { local f; f=\$(get "s['window']['frames']"); wait_state "s['window']['frames'] >= \$f + \$1" 60 "\$1 frames"; }
shot() { touch "$out/go_\$1"; until [ -s "$out/inp_\$1.png" ]; do sleep 0.05; done; frames 2; }
"$exe" view --source "$src/assets/harbour.pcap" --config "$out/settings.json" --no-save --backend cpu \
  --size 1024 --width 1200 --height 800 --script script.txt > "$out/app.log" 2>&1 &
app=\$!
trap 'kill \$app 2> /dev/null || true' EXIT
# A whole rotation on the PPI first: the wheel then changes video everywhere in the compared box
# (paused within the first rotation, its left half would still be empty at any range scale).
wait_state "s['source']['shown_rotation'] >= 1 and s['processing']['frames_processed'] >= 2" 120 "a whole rotation shown"
touch "$out/go_pause"
wait_state "s['source']['paused']" 30 "the replay paused"
wait_state "not s['processing']['in_flight']" 30 "the last frame collected"
frames 5
xdotool mousemove 1000 14; frames 2; xdotool mousedown 1
for x in 950 900 850 800 750 700; do frames 1; xdotool mousemove \$x 164; done
for y in 214 264 314; do frames 1; xdotool mousemove 700 \$y; done
frames 2; xdotool mouseup 1; frames 2; xdotool mousemove 720 420
frames 3
shot 0
zoom=\$(get "s['view']['px_per_m']")
xdotool click 4 click 4 click 4
frames 5
wait_state "s['view']['px_per_m'] == \$zoom" 5 "the wheel over a panel leaves the PPI alone"
shot 1
xdotool mousemove 450 200; frames 2; xdotool click 4 click 4 click 4
wait_state "s['view']['px_per_m'] > 1.2 * \$zoom" 30 "the wheel over the PPI zooms"
frames 2
shot 2
touch "$out/go_end"
wait \$app
trap - EXIT
DRIVE
timeout 240 xvfb-run -a -s "-screen 0 1200x800x24" bash drive.sh
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
