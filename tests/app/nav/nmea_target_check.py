#!/usr/bin/env python3
"""Independent NMEA 0183 reader for the radar target sentences TTM, TLL and OSD (test-only).

Written from the standard, not from Sweepline's writer: each sentence must start with '$', carry
a two-character talker and a three-letter type, end in '*' + two hex digits + CR LF, be at most
82 characters long, and its checksum must be the XOR of every character between '$' and '*'.
Each field is parsed by its type in the standard's field table. Prints one JSON object per
sentence (the parsed values, or {"error": ...}) and exits 1 when any sentence is invalid.

Usage: nmea_target_check.py FILE (sentences back to back, as sent in one datagram)
"""
import json
import re
import sys

FIELD_COUNTS = {"TTM": 15, "TLL": 9, "OSD": 9}


def number(text, what, signed=False):
    pattern = r"-?\d+(\.\d+)?" if signed else r"\d+(\.\d+)?"
    if not re.fullmatch(pattern, text):
        raise ValueError(f"{what}: '{text}' is not a number")
    return float(text)


def angle(text, what):
    v = number(text, what)
    if not 0 <= v < 360:
        raise ValueError(f"{what}: {v} outside [0, 360)")
    return v


def one_of(text, allowed, what, empty_ok=False):
    if text == "" and empty_ok:
        return ""
    if text not in allowed:
        raise ValueError(f"{what}: '{text}' not one of {allowed}")
    return text


def utc(text, what):
    if text == "":
        return None
    m = re.fullmatch(r"(\d\d)(\d\d)(\d\d(\.\d+)?)", text)
    if not m:
        raise ValueError(f"{what}: '{text}' is not hhmmss.ss")
    h, mi, s = int(m.group(1)), int(m.group(2)), float(m.group(3))
    if h > 23 or mi > 59 or s >= 60:
        raise ValueError(f"{what}: '{text}' is not a time of day")
    return h * 3600 + mi * 60 + s


def latlon(text, hemi, deg_digits, what):
    m = re.fullmatch(r"(\d{%d})(\d\d\.\d+)" % deg_digits, text)
    if not m:
        raise ValueError(f"{what}: '{text}' is not d{'d' * (deg_digits - 1)}mm.mm")
    minutes = float(m.group(2))
    if minutes >= 60:
        raise ValueError(f"{what}: minutes {minutes} >= 60")
    v = int(m.group(1)) + minutes / 60
    neg, pos = ("S", "N") if deg_digits == 2 else ("W", "E")
    one_of(hemi, (neg, pos), what + " hemisphere")
    if v > (90 if deg_digits == 2 else 180):
        raise ValueError(f"{what}: {v} out of range")
    return -v if hemi == neg else v


def name(text):
    if any(c in text for c in "$*,!\\^~\r\n") or any(ord(c) < 0x20 or ord(c) > 0x7E for c in text):
        raise ValueError(f"name '{text}' holds a reserved character")
    return text


def parse(sentence):
    if not sentence.endswith("\r\n"):
        raise ValueError("no CR LF")
    if len(sentence) > 82:
        raise ValueError(f"{len(sentence)} characters (over 82)")
    m = re.fullmatch(r"\$([A-Z][A-Z0-9])([A-Z]{3}),(.*)\*([0-9A-F]{2})\r\n", sentence)
    if not m:
        raise ValueError("not $TTSSS,...*HH")
    talker, kind, data, given = m.groups()
    body = sentence[1:sentence.index("*")]
    checksum = 0
    for c in body:
        checksum ^= ord(c)
    if checksum != int(given, 16):
        raise ValueError(f"checksum {given} != {checksum:02X}")
    if kind not in FIELD_COUNTS:
        raise ValueError(f"type {kind} not checked here")
    f = data.split(",")
    if len(f) != FIELD_COUNTS[kind]:
        raise ValueError(f"{kind} has {len(f)} fields, the standard {FIELD_COUNTS[kind]}")
    out = {"talker": talker, "type": kind}
    if kind == "TTM":
        if not re.fullmatch(r"\d{2,3}", f[0]):
            raise ValueError(f"target number '{f[0]}'")
        out.update(
            number=int(f[0]),
            distance=number(f[1], "distance"),
            bearing=angle(f[2], "bearing"),
            bearing_ref=one_of(f[3], ("T", "R"), "bearing reference"),
            speed=number(f[4], "speed"),
            course=angle(f[5], "course"),
            course_ref=one_of(f[6], ("T", "R"), "course reference"),
            cpa=number(f[7], "CPA"),
            tcpa=number(f[8], "TCPA", signed=True),
            units=one_of(f[9], ("K", "N", "S"), "units"),
            name=name(f[10]),
            status=one_of(f[11], ("L", "Q", "T"), "status"),
            reference=one_of(f[12], ("R",), "reference", empty_ok=True),
            utc=utc(f[13], "UTC"),
            acquisition=one_of(f[14], ("A", "M", "R"), "acquisition"),
        )
    elif kind == "TLL":
        if not re.fullmatch(r"\d{2,3}", f[0]):
            raise ValueError(f"target number '{f[0]}'")
        out.update(
            number=int(f[0]),
            lat=latlon(f[1], f[2], 2, "latitude"),
            lon=latlon(f[3], f[4], 3, "longitude"),
            name=name(f[5]),
            utc=utc(f[6], "UTC"),
            status=one_of(f[7], ("L", "Q", "T"), "status"),
            reference=one_of(f[8], ("R",), "reference", empty_ok=True),
        )
    else:  # OSD
        refs = ("B", "M", "W", "R", "P")
        out.update(
            heading=angle(f[0], "heading"),
            status=one_of(f[1], ("A", "V"), "status"),
            course=angle(f[2], "course"),
            course_ref=one_of(f[3], refs, "course reference"),
            speed=number(f[4], "speed"),
            speed_ref=one_of(f[5], refs, "speed reference"),
            set=angle(f[6], "set"),
            drift=number(f[7], "drift"),
            units=one_of(f[8], ("K", "N", "S"), "units"),
        )
    return out


def main():
    data = open(sys.argv[1], "rb").read().decode("ascii")
    sentences = re.findall(r"\$[^$]*", data)
    bad = 0
    for s in sentences:
        try:
            print(json.dumps(parse(s)))
        except ValueError as e:
            bad += 1
            print(json.dumps({"error": str(e), "sentence": s}))
    sys.exit(1 if bad or not sentences else 0)


if __name__ == "__main__":
    main()
