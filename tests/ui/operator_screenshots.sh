#!/usr/bin/env bash
# The documentation's pictures of the operator's functions (docs/display.md) and the README's
# console picture, under Xvfb: EBL/VRM and ERBL, north-up, head-up, course-up, the key help, the
# console replaying the bundled capture, and the palettes and layers. Usage: operator_screenshots.sh EXE OUT [DOCS_DIR]
# (DOCS_DIR: copy the pictures there, e.g. docs/screenshots).
set -euo pipefail
exe=$(realpath "$1")
out=$(realpath -m "$2")
docs=${3:-}
if [ -n "$docs" ]; then docs=$(realpath -m "$docs"); fi
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
mkdir -p "$out"
cd "$out"
rm -f op_*.png
# Own ship heads 045 and makes good 030: the three orientations differ.
cat > ops.txt <<SCRIPT
wait 30
range 3
ebl 1 75 T
vrm 1 1.2
ebl 2 300 R
vrm 2 0.6
erbl 0.9 160 1.7 200
orientation north-up
frames 4
screenshot $out/op_ebl_vrm.png
orientation head-up
frames 2
screenshot $out/op_head_up.png
orientation course-up
frames 2
screenshot $out/op_course_up.png
orientation north-up
frames 2
screenshot $out/op_north_up.png
help on
frames 2
screenshot $out/op_key_help.png
SCRIPT
echo '{"view": {"show_boxes": false, "range_scale_nm": 0}}' > ops_settings.json
timeout 200 xvfb-run -a -s "-screen 0 1600x1000x24" "$exe" view \
  --source "sim://harbour?seed=1&rpm=48&own_speed=8&own_course=30&own_heading=45" \
  --config "$out/ops_settings.json" --no-save --backend cpu --size 1024 --width 1600 \
  --height 1000 --script ops.txt > "$out/ops.log" 2>&1
# The README's picture: the bundled capture, tracks confirmed, a target selected. The capture
# lasts about 10 s and then loops, and the tracks start again: the picture is taken before that.
cat > console.txt <<SCRIPT
wait 18.7
select dangerous
frames 3
screenshot $out/op_console.png
SCRIPT
echo '{"view": {"range_scale_nm": 0}}' > console_settings.json
timeout 200 xvfb-run -a -s "-screen 0 1600x1000x24" "$exe" view \
  --source "$src/assets/harbour.pcap" --config "$out/console_settings.json" --no-save \
  --backend cpu --width 1600 --height 1000 --script console.txt > "$out/console.log" 2>&1
# The palettes, brightness and layers (docs/display.md's Display section), on the bundled capture.
cat > styles.txt <<SCRIPT
wait 7.5
palette amber
brightness night
frames 3
screenshot $out/op_amber_night.png
palette multi
brightness day
frames 3
screenshot $out/op_multi_day.png
palette green
brightness dusk
layer binary
show labels
zoom 2.5
frames 3
screenshot $out/op_layers_zoom.png
layer scan
zoom 1
palette imo
panels off
frames 3
screenshot $out/op_imo_fullscreen.png
SCRIPT
echo '{"view": {"range_scale_nm": 0}}' > styles_settings.json
timeout 200 xvfb-run -a -s "-screen 0 1600x1000x24" "$exe" view \
  --source "$src/assets/harbour.pcap" --config "$out/styles_settings.json" --no-save \
  --backend cpu --width 1600 --height 1000 --script styles.txt > "$out/styles.log" 2>&1
for f in ebl_vrm head_up course_up north_up key_help console amber_night multi_day layers_zoom \
  imo_fullscreen; do
  test -s "$out/op_$f.png" || { echo "op_$f.png missing"; exit 1; }
  if [ -n "$docs" ]; then cp "$out/op_$f.png" "$docs/$f.png"; fi
done
echo "operator screenshots written to $out${docs:+ and $docs}"
