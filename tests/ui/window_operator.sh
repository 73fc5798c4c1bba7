#!/usr/bin/env bash
# The operator's functions in a real window under Xvfb (xdotool): a range-scale key changes the
# RANGE readout (the displayed radius), F1 and ? show the key help, and S saves a screenshot with
# a brief "Saved PATH" on the PPI; the help is in that picture. Every step waits for what the
# window shows (the script's state dump, ui/state_dump.hpp), not for a fixed time.
set -euo pipefail
exe=$(realpath "$1")
out=$2
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
command -v xdotool > /dev/null || { echo "xdotool missing: skipped"; exit 0; }
mkdir -p "$out"
cd "$out"
rm -f state.json state.json.tmp app.log sweepline-*.png
cat > script.txt <<SCRIPT
dump-state-every 0.05 $out/state.json
wait 600
SCRIPT
echo '{"tracking": {"enabled": false}, "view": {"range_scale_nm": 0}}' > settings.json
cat > drive.sh <<DRIVE
set -euo pipefail
wait_state() { python3 "$here/window_state_wait.py" "$out/state.json" "\$@"; }
get() { python3 "$here/window_state_wait.py" "$out/state.json" --get "\$1"; }
"$exe" view --source "$src/assets/harbour.pcap" --config "$out/settings.json" --no-save \
  --backend cpu --size 512 --width 1200 --height 800 --script script.txt > "$out/app.log" 2>&1 &
app=\$!
trap 'kill \$app 2> /dev/null || true' EXIT
# The readout names the range scale it shows (format_nm: no trailing zeros).
shows_scale="s['operator']['readout'].startswith('RANGE ' + ('%.3f' % s['operator']['range_scale_nm']).rstrip('0').rstrip('.') + ' NM')"
wait_state "s['processing']['frames_processed'] >= 1 and \$shows_scale" 120 "the first picture"
r0=\$(get "s['operator']['range_scale_nm']")
echo "range scale at start: \$r0 NM"
xdotool mousemove 600 420 click 1
xdotool key minus
wait_state "s['operator']['range_scale_nm'] > \$r0 * 1.2 and \$shows_scale" 60 "a longer range scale after -"
r1=\$(get "s['operator']['range_scale_nm']")
xdotool key plus
wait_state "s['operator']['range_scale_nm'] < \$r1 / 1.2 and \$shows_scale" 60 "a shorter range scale after +"
r2=\$(get "s['operator']['range_scale_nm']")
xdotool key KP_Add
wait_state "s['operator']['range_scale_nm'] < \$r2 / 1.2 and \$shows_scale" 60 "a shorter one again after keypad +"
echo "range keys: \$r0 -> \$r1 -> \$r2 -> \$(get "s['operator']['readout']")"

xdotool key s
# The confirmation shows for 3 s; the count and the path stay for a loaded machine's slow poll.
wait_state "s['operator']['screenshots_saved'] == 1" 60 "the first screenshot"
xdotool key F1
wait_state "s['operator']['key_help']" 60 "the key help after F1"
xdotool key s
wait_state "s['operator']['screenshots_saved'] == 2" 60 "a second screenshot"
xdotool key Escape
wait_state "not s['operator']['key_help']" 60 "Esc closes the key help"
xdotool key shift+slash
wait_state "s['operator']['key_help']" 60 "the key help after ?"
DRIVE
timeout 400 xvfb-run -a -s "-screen 0 1200x800x24" bash drive.sh
# The two screenshots, in the order the console confirmed them ("Saved PATH" in the log too).
read -r before after < <(sed -n 's/.*Saved \(sweepline-.*\.png\).*/\1/p' app.log | tr '\n' ' '; echo)
python3 - "$out" "$here" "$before" "$after" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from pngcheck import read_png, pixels
out, before, after = sys.argv[1], sys.argv[3], sys.argv[4]
box = (320, 200, 480, 620)  # the key help's key column, the help centred in the window
def key_text(path):
    # The help's key column (0.45, 0.95, 0.80): not the green echoes, the rings or the land.
    return sum(1 for p in pixels(read_png(f'{out}/{path}'), box)
               if 90 <= p[0] <= 140 and p[1] >= 215 and 175 <= p[2] <= 225)
b, a = key_text(before), key_text(after)
print(f'key-help text pixels: {b} before F1, {a} after')
assert a > 150, 'the key help is not on the screenshot'
assert b < 0.1 * a, 'key-help coloured pixels before F1'
print('window operator test passed')
PY
