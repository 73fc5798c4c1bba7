#!/usr/bin/env bash
# State you can trust, in a real window under Xvfb (xdotool), started without naming `view`:
#  - the Source panel shows the source that plays (--source FILE: the File tab, its path), and
#    the replay speed and loop the settings held for another source are not carried over;
#  - a mistyped path typed into the panel is refused with the message while the working source
#    keeps running;
#  - a change is saved about a second after it (debounced: the typing is not one write per key),
#    and a change followed at once by SIGTERM is saved too.
# Every step waits for what the window shows (the script's state dump), not for a fixed time.
set -euo pipefail
exe=$(realpath "$1")
out=$2
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
command -v xdotool > /dev/null || { echo "xdotool missing: skipped"; exit 0; }
mkdir -p "$out"
cd "$out"
rm -f state.json state.json.tmp go1 go2 app.log
capture="$src/assets/harbour.pcap"
cat > script.txt <<SCRIPT
dump-state-every 0.05 $out/state.json
wait-file $out/go1
threshold 77
wait-file $out/go2
threshold 99
wait 600
SCRIPT
# The settings of an earlier run: another source, at x8 without loop, and a stale form.
cat > settings.json <<JSON
{"source": {"uri": "sim://harbour?seed=1&rpm=24", "speed": 8, "loop": false,
            "file_path": "/stale/path.pcap", "udp_port": 1234},
 "tracking": {"enabled": false}}
JSON
cat > drive.sh <<DRIVE
set -euo pipefail
wait_state() { python3 "$here/window_state_wait.py" --pid \$app "$out/state.json" "\$@"; }
get() { python3 "$here/window_state_wait.py" "$out/state.json" --get "\$1"; }
centre() { get "'%d %d' % (s['widgets']['\$1'][0] + s['widgets']['\$1'][2] / 2, s['widgets']['\$1'][1] + s['widgets']['\$1'][3] / 2)"; }
saved() { python3 -c "import json; s = json.load(open('$out/settings.json')); print(\$1)"; }
"$exe" --source "$capture" --config "$out/settings.json" --backend cpu --size 512 \
  --width 1200 --height 800 --script script.txt > "$out/app.log" 2>&1 &
app=\$!
trap 'kill \$app 2> /dev/null || true' EXIT

wait_state "s['source']['open'] and s['source']['uri'] == '$capture' and s['processing']['frames_processed'] >= 1" \
  120 "the capture plays"
wait_state "'source.file.path' in s['widgets'] and s['form']['file_path'] == '$capture'" 30 \
  "the Source panel shows the File tab with the capture's path"
wait_state "s['source']['speed'] == 1 and s['source']['loop']" 5 \
  "the capture plays at x1 with loop (x8 and no loop were another source's)"
echo "the Source panel shows the capture that plays"

# A mistyped path: refused with the message, the capture keeps playing.
# The field is clicked, its text selected and replaced; a select-all that the field did not take
# is tried again, three times at most.
read -r px py < <(centre source.file.path)
tries=0
until [ "\$(get "s['form']['file_path']")" = /nonexistent/typo.pcap ]; do
  tries=\$((tries + 1))
  [ \$tries -le 3 ] || { echo "FAIL: the typed path did not reach the form in 3 tries"; exit 1; }
  xdotool mousemove \$px \$py click 1
  f=\$(get "s['window']['frames']")
  wait_state "s['window']['frames'] >= \$f + 3" 30 "frames after the click"
  # Ctrl held across frames of its own: pressed and released within one frame, the field may see
  # the A without it (the typing then goes in at the click's caret).
  xdotool keydown ctrl
  f=\$(get "s['window']['frames']")
  wait_state "s['window']['frames'] >= \$f + 2" 30 "frames with Ctrl down"
  xdotool key a
  f=\$(get "s['window']['frames']")
  wait_state "s['window']['frames'] >= \$f + 2" 30 "frames after Ctrl+A"
  xdotool keyup ctrl
  xdotool type --delay 30 "/nonexistent/typo.pcap"
  wait_state "s['form']['file_path'] == '/nonexistent/typo.pcap'" 10 \
    "the typed path reaches the form" || echo "try \$tries: the form holds \$(get "s['form']['file_path']")"
done
read -r ox oy < <(centre source.file.open)
xdotool mousemove \$ox \$oy click 1
wait_state "'typo.pcap' in s['source']['error']" 30 "the bad path is refused with the message"
wait_state "s['source']['open'] and s['source']['uri'] == '$capture'" 5 "the capture still plays"
n=\$(get "s['processing']['frames_processed']")
wait_state "s['processing']['frames_processed'] >= \$n + 2" 60 "frames keep coming from the capture"
echo "the mistyped path was refused; the capture keeps playing"

# A change is saved about a second later, once.
writes=\$(get "s['settings_writes']")
t0=\$(date +%s.%N)
touch "$out/go1"
until [ "\$(saved "s['processing']['pipeline']['threshold']")" = 77 ]; do
  python3 -c "import sys, time; sys.exit(0 if time.time() - \$t0 < 30 else 1)" \
    || { echo "FAIL: threshold 77 not saved within 30 s"; exit 1; }
  sleep 0.05
done
t1=\$(date +%s.%N)
delay=\$(python3 -c "print(\$t1 - \$t0)")
echo "saved \$delay s after the change (\$writes writes before it)"
python3 -c "import sys; sys.exit(0 if \$delay >= 0.9 else 1)" \
  || { echo "FAIL: saved \$delay s after the change: not debounced"; exit 1; }
python3 -c "import sys; sys.exit(0 if \$writes <= 2 + \$tries else 1)" \
  || { echo "FAIL: \$writes writes for one typed path and a click"; exit 1; }
[ "\$(saved "s['source']['file_path']")" = /nonexistent/typo.pcap ]
[ "\$(saved "s['source']['uri']")" = "$capture" ]

# A change, then SIGTERM at once: saved on the way out.
touch "$out/go2"
wait_state "s['processing']['threshold'] == 99" 30 "the script's second change"
kill -TERM \$app
status=0
timeout 20 tail --pid=\$app -f /dev/null || { echo "FAIL: still running 20 s after SIGTERM"; exit 1; }
wait \$app || status=\$?
trap - EXIT
[ \$status = 0 ] || { echo "FAIL: exit status \$status after SIGTERM"; exit 1; }
[ "\$(saved "s['processing']['pipeline']['threshold']")" = 99 ] \
  || { echo "FAIL: the change before SIGTERM was not saved"; exit 1; }
echo "a change followed by SIGTERM was saved"
DRIVE
if ! timeout 300 xvfb-run -a -s "-screen 0 1200x800x24" bash drive.sh; then
  echo "--- app.log"; tail -30 "$out/app.log"; exit 1
fi
echo "window state test passed"
