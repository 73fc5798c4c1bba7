#!/usr/bin/env bash
# Target tracking in the real window under Xvfb: the simulator's harbour with a moving own ship
# runs until tracks are confirmed; a zone is added, the nearest target selected, the PPI zoomed
# and a screenshot taken (docs/screenshots/tracking.png is made this way: pass a third argument,
# the PNG to copy it to). The tracks' symbols must be on it (their cyan), and gone after
# "cancel all". Then a polygon zone is drawn with four clicks (its outline in the drawing colour),
# closed with Enter (a zone outline more, the drawing colour gone) and a vertex dragged through
# the zone editor (the edited zone and its handles in the drawing colour again).
set -euo pipefail
exe=$(realpath "$1")
out=$2
copy_to=${3:-}
if [ -n "$copy_to" ]; then copy_to=$(realpath -m "$copy_to"); fi
# Long enough to confirm tracks (3 of 5 scans at 48 rpm); the documentation's picture waits
# longer so that the trails have a few dots.
settle=16
if [ -n "$copy_to" ]; then settle=45; fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
cd "$out"
rm -f trk_*.png
cat > script.txt <<SCRIPT
wait $settle
zone 0.6 2.2 200 250
hide labels
select dangerous
zoom 1.5
frames 3
screenshot $out/trk_tracks.png
cancel all
frames 2
screenshot $out/trk_cancelled.png
zone_draw polygon
click 700 300
click 900 280
click 960 430
click 740 470
frames 3
screenshot $out/trk_polygon_drawing.png
key enter
frames 2
screenshot $out/trk_polygon.png
zone_edit 2
zone_drag 2 3 150
frames 2
screenshot $out/trk_polygon_edited.png
dump-state $out/state.json
frames 2
SCRIPT
# Plot boxes off: the track symbols are what this looks at.
echo '{"view": {"show_boxes": false}}' > "$out/settings.json"
timeout 150 xvfb-run -a -s "-screen 0 1600x1000x24" "$exe" view \
  --source "sim://harbour?seed=1&rpm=48&own_speed=8&own_course=30" --config "$out/settings.json" \
  --no-save --backend cpu --size 1024 --width 1600 --height 1000 --script script.txt \
  > "$out/app.log" 2>&1
python3 - "$out" "$here" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from pngcheck import read_png, pixels
out = sys.argv[1]
box = (360, 60, 1240, 940)  # the PPI between the panel columns
def cyan(path):
    # The tracks' colour (0.55, 0.92, 1.0): not the green echoes, the amber land or the panels.
    return sum(1 for p in pixels(read_png(path), box) if 105 <= p[0] <= 175 and p[1] >= 200 and p[2] >= 225)
before, after = cyan(f'{out}/trk_tracks.png'), cyan(f'{out}/trk_cancelled.png')
print(f'track symbol pixels: {before} with tracks, {after} after cancel all')
assert before > 2000, 'no track symbols on the PPI'
assert after < 0.3 * before, 'cancel all left the symbols'
def purple(path):
    # A zone's outline (0.85, 0.55, 1.0 at 70 %) over the dark sea.
    return sum(1 for p in pixels(read_png(path), box)
               if p[2] >= 140 and p[0] >= 110 and p[1] <= 140 and p[2] > p[0] > p[1] + 30)
def drawing(path):
    # A zone being drawn or edited, its handles and the hint (0.95, 0.80, 1.0): lavender.
    return sum(1 for p in pixels(read_png(path), box)
               if p[0] >= 200 and 150 <= p[1] <= 225 and p[2] >= 225 and p[0] - p[1] >= 15)
zones = {n: (purple(f'{out}/trk_{n}.png'), drawing(f'{out}/trk_{n}.png'))
         for n in ('cancelled', 'polygon_drawing', 'polygon', 'polygon_edited')}
print('zone pixels (outline, drawing):', zones)
assert zones['cancelled'][1] < 50, 'drawing colour before any zone was drawn'
assert zones['polygon_drawing'][1] > 300, 'no polygon outline while drawing it'
assert zones['polygon'][0] > zones['cancelled'][0] + 400, 'the closed polygon is not on the PPI'
assert zones['polygon'][1] < 50, 'Enter did not close the polygon'
assert zones['polygon_edited'][1] > 600, 'the edited zone and its handles are not shown'
log = open(f'{out}/app.log').read()
assert 'ZONE:' not in log and 'zone not edited' not in log, 'a zone command was refused'
print('window tracking test passed')
PY
if [ -n "$copy_to" ]; then cp "$out/trk_tracks.png" "$copy_to"; fi
