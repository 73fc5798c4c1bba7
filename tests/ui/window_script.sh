#!/usr/bin/env bash
# Drives the real GLFW window under Xvfb with a --script and checks that its screenshots change
# as expected: the picture moves while running, stands still when paused (space), changes when
# zoomed, and shows the binary layer's colour when that layer is selected.
set -euo pipefail
exe=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
mkdir -p "$out"
cd "$out"
rm -f win_*.png
cat > script.txt <<SCRIPT
panels off
afterglow off
record $out/recorded.pcap
wait 4
record off
screenshot $out/win_run1.png
wait 1
screenshot $out/win_run2.png
key space
wait 3
screenshot $out/win_pause1.png
wait 1.5
screenshot $out/win_pause2.png
zoom 2
frames 2
screenshot $out/win_zoom.png
layer binary
frames 2
screenshot $out/win_binary.png
SCRIPT
# The raw video on the scope (the video stage off), so that the picture has echoes everywhere to
# change between screenshots: this test is about the window's controls, not detection.
# Tracking off: its alarms flash (IEC 62288) and would change a paused picture; the tracking
# overlay has its own window test (window_tracking.sh).
echo '{"processing": {"pipeline": {"video": {"enabled": false}}}, "tracking": {"enabled": false}}' > "$out/settings.json"
# The bundled capture replays at the radar's pace (24 rpm): data arrives within the first wait.
timeout 120 xvfb-run -a -s "-screen 0 1024x768x24" "$exe" view --source "$src/assets/harbour.pcap" \
  --config "$out/settings.json" --no-save --backend cpu --size 1024 --width 800 --height 600 --script script.txt
python3 - "$out" "$here" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from pngcheck import read_png, diff_fraction, colour_fractions
out = sys.argv[1]
img = {k: read_png(f'{out}/win_{k}.png') for k in ['run1', 'run2', 'pause1', 'pause2', 'zoom', 'binary']}
box = (0, 70, 800, 570)  # the PPI without the status lines at the top and the readout at the bottom
g_run, b_run = colour_fractions(img['run1'], box)
d_run = diff_fraction(img['run1'], img['run2'], box)
d_pause = diff_fraction(img['pause1'], img['pause2'], box)
d_zoom = diff_fraction(img['pause2'], img['zoom'], box)
g_bin, b_bin = colour_fractions(img['binary'], box)
g_zoom, b_zoom = colour_fractions(img['zoom'], box)
print(f'echoes {g_run:.3f}; running diff {d_run:.4f}; paused diff {d_pause:.4f}; zoom diff {d_zoom:.3f}; '
      f'binary layer blue {b_bin:.3f} green {g_bin:.3f} (before: blue {b_zoom:.3f} green {g_zoom:.3f})')
assert g_run > 0.01, 'no echoes on the scope after 4 s'
assert d_run > 0.002, 'the picture did not change while running'
assert d_pause < 0.0005, 'the picture changed while paused'
assert d_zoom > 0.05, 'zoom did not change the picture'
assert b_bin > 0.02 and b_bin > 10 * max(b_zoom, 1e-4), 'binary layer colour missing'
assert g_bin < 0.2 * g_zoom, 'scan layer still visible after selecting the binary layer'
# The recording: a classic pcap of CAT240 datagrams (one record each).
data = open(f'{out}/recorded.pcap', 'rb').read()
assert data[:4] in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1'), 'recording is not a pcap'
pos, count, cat240 = 24, 0, 0
while pos + 16 <= len(data):
    incl = int.from_bytes(data[pos + 8:pos + 12], 'little')
    frame = data[pos + 16:pos + 16 + incl]
    count += 1
    cat240 += len(frame) > 42 and frame[42] == 240  # Ethernet 14 + IPv4 20 + UDP 8
    pos += 16 + incl
print(f'recorded {count} datagrams, {cat240} CAT240')
assert count > 100 and cat240 == count, 'recording incomplete'
print('window script test passed')
PY

# A missing source is shown and logged; the window keeps running and exits normally.
timeout 60 xvfb-run -a -s "-screen 0 1024x768x24" "$exe" view --source /nonexistent/capture.pcap \
  --config "$out/settings.json" --no-save --backend cpu --width 640 --height 480 --frames 5 \
  --screenshot "$out/win_badsource.png" > "$out/badsource.log" 2>&1
grep -q "cannot open source /nonexistent/capture.pcap" "$out/badsource.log"
test -s "$out/win_badsource.png"
echo 'bad source: shown, logged, window kept running'
