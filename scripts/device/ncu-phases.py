#!/usr/bin/env python3
"""Groups an Nsight Compute SASS source export into a kernel's phases.

The export comes from `ncu -i REPORT --page source --csv --print-source sass` (the report taken
with the SourceCounters and WarpStateStats sections, as `scripts/gpu-check --ncu` does).
A phase is the run of instructions up to and including a barrier (BAR), so for a kernel whose
steps are separated by __syncthreads() it reads as the share of warp-state samples per step,
with each phase's main stall reasons and hottest instructions.

    scripts/device/ncu-phases.py EXPORT.csv [TOP_N] [--min-share PERCENT]
"""
import argparse
import collections
import csv
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("export")
    ap.add_argument("top", nargs="?", type=int, default=4, help="instructions listed a phase")
    ap.add_argument("--min-share", type=float, default=1.0, help="phases below this are skipped")
    a = ap.parse_args()
    with open(a.export, newline="") as f:
        rows = list(csv.reader(f))
    header = next((i for i, r in enumerate(rows) if r and r[0] == "Address"), None)
    if header is None:
        sys.exit(f"ncu-phases: {a.export}: no 'Address' header (not a SASS source export)")
    col = {h: i for i, h in enumerate(rows[header])}
    samples_col = col.get("Warp Stall Sampling (All Samples)")
    if samples_col is None:
        sys.exit(f"ncu-phases: {a.export}: no warp-state samples in the export")
    stalls = [h for h in rows[header] if h.startswith("stall_") and "Not Issued" not in h]

    def num(r, i):
        try:
            return int(r[i] or 0)
        except (ValueError, IndexError):
            return 0

    phases = [[]]
    for r in rows[header + 1:]:
        if len(r) <= samples_col:
            continue
        phases[-1].append(r)
        if r[col["Source"]].split()[:2] and any(t.startswith("BAR") for t in r[col["Source"]].split()[:2]):
            phases.append([])
    total = sum(num(r, samples_col) for p in phases for r in p) or 1
    print(f"{total} samples, {sum(len(p) for p in phases)} instructions, {len(phases)} phases")
    for n, p in enumerate(phases):
        share = 100.0 * sum(num(r, samples_col) for r in p) / total
        if share < a.min_share:
            continue
        why = collections.Counter()
        for r in p:
            for h in stalls:
                why[h[len("stall_"):]] += num(r, col[h])
        size = sum(why.values()) or 1
        top = ", ".join(f"{k} {100 * v // size}%" for k, v in why.most_common(4))
        print(f"phase {n:2d}: {share:5.1f}% ({len(p)} instructions) [{top}]")
        for r in sorted(p, key=lambda r: -num(r, samples_col))[: a.top]:
            ex = r[col["Instructions Executed"]] if "Instructions Executed" in col else ""
            print(f"    {num(r, samples_col):6d}  {r[col['Source']].strip()[:64]:64s} executed {ex}")


if __name__ == "__main__":
    main()
