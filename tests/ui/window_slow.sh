#!/usr/bin/env bash
# The window never waits for processing: with every frame made to take a second
# (--test-frame-delay-ms 1000, CPU backend), the window keeps drawing at >= 30 frames/s (its own
# frame counter, from the script's state dump; on a machine that cannot draw 30 even with nothing
# to process, at least 70 % of what it draws then, and never the ~1 frame/s of a window that
# waits for processing), a double-click on the PPI puts a dragged picture back, a
# 20 ms key tap toggles the panels, and a click on a checkbox (the Source panel's Loop) lands.
# Every step waits for what the window shows (the state dump), never for a fixed time, so the
# test holds while other work loads the machine.
set -euo pipefail
exe=$(realpath "$1")
out=$2
here=$(cd "$(dirname "$0")" && pwd)
command -v xdotool > /dev/null || { echo "xdotool missing: skipped"; exit 0; }
mkdir -p "$out"
cd "$out"
rm -f state.json state.json.tmp app*.log
cat > script.txt <<SCRIPT
dump-state-every 0.05 $out/state.json
wait 600
SCRIPT
# Tracking off: the clicks on the PPI must not acquire targets.
echo '{"tracking": {"enabled": false}}' > "$out/settings.json"
cat > drive.sh <<DRIVE
set -euo pipefail
wait_state() { python3 "$here/window_state_wait.py" --pid \$app "$out/state.json" "\$@"; }
get() { python3 "$here/window_state_wait.py" "$out/state.json" --get "\$1"; }
start() {
  "$exe" --source "sim://harbour?seed=1&rpm=24" --config "$out/settings.json" --no-save \
    --backend cpu --size 512 --width 1200 --height 800 --test-frame-delay-ms \$1 \
    --script script.txt > "$out/app\$1.log" 2>&1 &
  app=\$!
}
# The window's frame rate over two seconds of its own count.
rate() {
  local f0 f1 t0 t1
  f0=\$(get "s['window']['frames']"); t0=\$(date +%s.%N)
  sleep 2
  f1=\$(get "s['window']['frames']"); t1=\$(date +%s.%N)
  python3 -c "print(round((\$f1 - \$f0) / (\$t1 - \$t0), 1))"
}
trap 'kill \$app 2> /dev/null || true' EXIT

# What this machine draws with nothing to process (paused): a machine that other work loads (two
# cores, Mesa's software renderer) may not reach 30 frames/s at all; the slow run must then keep
# most of it.
start 0
wait_state "s['processing']['frames_processed'] >= 2" 120 "frames processed"
xdotool key space
wait_state "s['source']['paused']" 30 "space pauses"
base=\$(rate)
kill -TERM \$app; wait \$app
rm -f "$out/state.json"
want=\$(python3 -c "print(max(3.0, min(30.0, 0.7 * \$base)))")
echo "window: \$base frames/s paused; want >= \$want with 1 s frames"

start 1000
wait_state "s['processing']['frames_processed'] >= 2 and s['processing']['last_frame_ms'] >= 1000" \
  120 "two slow frames processed"
fps=\$(rate)
ms=\$(get "s['processing']['last_frame_ms']")
echo "window: \$fps frames/s while a frame takes \$ms ms"
python3 -c "import sys; sys.exit(0 if \$fps >= \$want and \$ms >= 1000 else 1)" \
  || { echo "FAIL: the window drew \$fps frames/s (want >= \$want) with \$ms ms frames"; exit 1; }

# Drag the picture off its place on the PPI, then a double-click there puts it back. The two
# clicks need a frame with the button up between them, so they are spaced by the window's frame
# rate, and tried again if a loaded machine stalled the window between them (a window that
# waited for 1 s frames would never see a double-click).
read -r cx cy < <(get "'%d %d' % (s['view']['rect'][0] + s['view']['rect'][2] / 2, s['view']['rect'][1] + s['view']['rect'][3] / 2)")
home=\$(get "(s['view']['centre_east_m'], s['view']['centre_north_m'])")
frames() { local f; f=\$(get "s['window']['frames']"); wait_state "s['window']['frames'] >= \$f + \$1" 60 "\$1 frames"; }
xdotool mousemove \$cx \$cy; frames 2; xdotool mousedown 1
for d in 10 20 30 40 50 60; do frames 1; xdotool mousemove \$((cx + d)) \$((cy + d)); done
frames 2; xdotool mouseup 1
wait_state "(s['view']['centre_east_m'], s['view']['centre_north_m']) != \$home" 30 "a drag moves the picture"
moved=\$(get "(s['view']['centre_east_m'], s['view']['centre_north_m'])")
echo "dragged the picture from \$home to \$moved"
near_home="abs(s['view']['centre_east_m'] - \$home[0]) + abs(s['view']['centre_north_m'] - \$home[1]) < 1"
for try in 1 2 3 4 5; do
  # The gap: a frame and a half at the rate the window draws now (80 ms at 20 frames/s or more).
  gap=\$(get "max(80, min(400, int(1500 / max(s['window']['fps'], 1))))")
  xdotool click --repeat 2 --delay \$gap 1
  if wait_state "\$near_home" 5 "a double-click puts the picture back" 2> /dev/null; then break; fi
  [ \$try -lt 5 ] || { wait_state "\$near_home" 1 "a double-click puts the picture back"; exit 1; }
done
echo "double-click reset the view (try \$try, clicks \$gap ms apart)"

# A 20 ms key tap (h) hides the panels, a second one shows them again.
xdotool keydown h; sleep 0.02; xdotool keyup h
wait_state "not s['view']['show_panels']" 30 "a 20 ms tap of h hides the panels"
xdotool keydown h; sleep 0.02; xdotool keyup h
wait_state "s['view']['show_panels']" 30 "a second tap of h shows the panels"
echo "20 ms key taps toggled the panels"

# A click on the Loop checkbox lands.
wait_state "'source.loop' in s['widgets']" 30 "the Loop checkbox is drawn"
loop=\$(get "s['source']['loop']")
read -r lx ly < <(get "'%d %d' % (s['widgets']['source.loop'][0] + 8, s['widgets']['source.loop'][1] + s['widgets']['source.loop'][3] / 2)")
xdotool mousemove \$lx \$ly click 1
wait_state "s['source']['loop'] != \$loop" 30 "a click on Loop toggles it"
echo "the checkbox click landed"
fps=\$(rate)
echo "window: \$fps frames/s at the end"
python3 -c "import sys; sys.exit(0 if \$fps >= \$want else 1)" \
  || { echo "FAIL: \$fps frames/s at the end (want >= \$want)"; exit 1; }
kill -TERM \$app
wait \$app
DRIVE
if ! timeout 300 xvfb-run -a -s "-screen 0 1200x800x24" bash drive.sh; then
  echo "--- app.log"; tail -30 "$out/app1000.log"; exit 1
fi
echo "window slow-pipeline test passed"
