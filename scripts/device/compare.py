#!/usr/bin/env python3
"""Compares two benchmark reports (results.json from scripts/bench-report.py) stage by stage.

  scripts/device/compare.py BEFORE/results.json AFTER/results.json [--limit 5] [--md FILE]

Rows are matched by name: the pipeline's stage rows, the labelling rows (every image, `fast`),
and the console's own stage times (viewer). A row present in only one report is listed apart.
Exits 1 when a matched row is slower than BEFORE by more than --limit percent.
"""
import argparse
import json
import sys


def pipeline_rows(r):
    for s in r.get("pipeline", {}).get("stages", []):
        if s.get("gpu_us") is not None:
            yield "pipeline: " + s["stage"], float(s["gpu_us"])


def labelling_rows(r):
    lab = r.get("labelling", {})
    for group in ("random", "test_images", "radar"):
        for row in lab.get(group, []):
            if not isinstance(row, dict) or "median_ms" not in row:
                continue
            what = row.get("image") or (f"vessels {row['vessels']}" if "vessels" in row else f"density {row.get('density')}")
            name = (f"labelling: {group} {what} {row.get('size', '')} "
                    f"{row.get('connectivity', '')}-conn {row.get('algorithm', '')} {row.get('box_method', '')}")
            yield name, float(row["median_ms"]) * 1000.0


def viewer_rows(r):
    for cadence, table in r.get("viewer", {}).items():
        if not isinstance(table, dict):
            continue
        for k, v in table.get("median_ms", {}).items():
            if k == "interop map":
                continue  # host time of a map call, not a GPU stage
            yield f"viewer ({cadence}): {k}", float(v) * 1000.0
        if "total_ms" in table:
            yield f"viewer ({cadence}): total", float(table["total_ms"]) * 1000.0


def rows(r):
    out = {}
    for gen in (pipeline_rows, labelling_rows, viewer_rows):
        for k, v in gen(r):
            out[k] = v
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--limit", type=float, default=5.0)
    ap.add_argument("--md")
    a = ap.parse_args()
    before = rows(json.load(open(a.before)))
    after = rows(json.load(open(a.after)))
    both = [k for k in before if k in after]
    lines = ["| row | before us | after us | change |", "|---|---|---|---|"]
    slower = []
    for k in both:
        b, n = before[k], after[k]
        if b <= 0:
            continue
        pct = (n - b) / b * 100
        flag = " **slower**" if pct > a.limit else ""
        if pct > a.limit:
            slower.append(k)
        lines.append(f"| {k} | {b:.1f} | {n:.1f} | {pct:+.1f} %{flag} |")
    only_b = [k for k in before if k not in after]
    only_a = [k for k in after if k not in before]
    summary = (f"{len(both)} rows in both, {len(slower)} slower by more than {a.limit:g} %; "
               f"{len(only_b)} only before, {len(only_a)} only after")
    text = "\n".join(lines) + "\n\n" + summary + "\n"
    if only_b:
        text += "\nOnly before: " + "; ".join(only_b) + "\n"
    if only_a:
        text += "\nOnly after: " + "; ".join(only_a) + "\n"
    if a.md:
        open(a.md, "w").write(text)
    print(text if not a.md else summary)
    for k in slower:
        print("slower:", k)
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())
