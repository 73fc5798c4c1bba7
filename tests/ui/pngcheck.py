"""Small PNG helpers for the window tests (no numpy here): decode 8-bit RGB/RGBA PNGs and compare
regions. Usage: pngcheck.py COMMAND ... (see main)."""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', f'{path}: not a PNG'
    pos, idat = 8, b''
    w = h = ctype = 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            assert depth == 8, 'only 8-bit PNGs'
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    bpp = {6: 4, 2: 3}[ctype]
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                row[i] = (row[i] + row[i - bpp]) & 255
        elif f == 2:
            for i in range(stride):
                row[i] = (row[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                a = row[i - bpp] if i >= bpp else 0
                row[i] = (row[i] + (a + prev[i]) // 2) & 255
        elif f == 4:
            for i in range(stride):
                a = row[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(row))
        prev = row
    return w, h, bpp, rows


def pixels(img, box):
    w, h, bpp, rows = img
    x0, y0, x1, y1 = box
    for y in range(max(0, y0), min(h, y1)):
        r = rows[y]
        for x in range(max(0, x0), min(w, x1)):
            yield r[x * bpp], r[x * bpp + 1], r[x * bpp + 2]


def diff_fraction(a, b, box, tol=24):
    n = over = 0
    for p, q in zip(pixels(a, box), pixels(b, box)):
        n += 1
        over += max(abs(p[0] - q[0]), abs(p[1] - q[1]), abs(p[2] - q[2])) > tol
    return over / max(n, 1)


def colour_fractions(img, box):
    """Fractions of green-dominant (echo in the green palette) and blue-dominant (binary layer)."""
    n = green = blue = 0
    for r, g, b in pixels(img, box):
        n += 1
        green += g > 60 and g > r + 30 and g > b + 20
        blue += b > 100 and b > g + 20 and b > r + 60
    return green / max(n, 1), blue / max(n, 1)
