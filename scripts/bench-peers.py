#!/usr/bin/env python3
"""Times the peer labellers on the exact images bench_ccl saved, on the GPU machine's Python,
and checks that each peer finds our partition.

  scripts/bench-peers.py IMAGES_DIR BENCH_JSON [--json OUT] [--reps N] [--rounds R] [--no-cv2-timing]

--no-cv2-timing keeps OpenCV's count and partition checks but skips its (slow, CPU) timings, for
short device runs that only need the GPU peer's ratio.

cupyx's wall time moves by tens of per cent between calls (ours by a few microseconds), so it is
timed in R rounds (default 3) over all images, each round the median of max(N, 30) calls; its
figure is the median of the round medians, and the JSON keeps every round
(cupyx_label{8,4}_rounds_ms) so that the spread is on record. The same calls are also timed by
CUDA events around them (cupyx_label{8,4}_events_ms, a line each), for the record only: the
ratios stay on wall time.

IMAGES_DIR holds NAME.pgm and NAME.labels8.i32 (our 8-connected labels, raw int32) written by
`bench_ccl --save-images DIR`; BENCH_JSON is bench_ccl's --json output (our timings and counts).
Peers: OpenCV cv2.connectedComponents and connectedComponentsWithStats (all CPU threads),
cupyx.scipy.ndimage.label (GPU), scipy.ndimage.label (CPU, one thread). Each peer's component
count is compared with ours for 4- and 8-connectivity; for 8-connectivity cv2's and cupyx's
label images are compared with ours as partitions (a one-to-one map between labels).
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np


def read_pgm(path):
    with open(path, "rb") as f:
        data = f.read()
    parts = []
    i = 0
    while len(parts) < 4:  # magic, width, height, maxval (no comments in our files)
        while data[i:i + 1].isspace():
            i += 1
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        parts.append(data[i:j])
        i = j
    i += 1
    assert parts[0] == b"P5", path
    w, h = int(parts[1]), int(parts[2])
    return np.frombuffer(data, dtype=np.uint8, count=w * h, offset=i).reshape(h, w)


def median_ms(fn, reps, sync=None):
    fn()  # warm-up
    if sync:
        sync()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        if sync:
            sync()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def event_ms(fn, reps, cp):
    """Median GPU time between CUDA events recorded on the current stream around fn."""
    fn()
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(reps):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return statistics.median(times)


def same_partition(a, b):
    """True when label images a and b (0 = background in both) split the pixels the same way."""
    a = a.ravel().astype(np.int64)
    b = b.ravel().astype(np.int64)
    if not np.array_equal(a == 0, b == 0):
        return False
    on = a != 0
    a, b = a[on], b[on]
    pairs = np.unique(a * (int(b.max(initial=0)) + 1) + b)
    return len(pairs) == len(np.unique(a)) == len(np.unique(b))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("images")
    ap.add_argument("bench_json")
    ap.add_argument("--json", default="")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-cv2-timing", action="store_true")
    args = ap.parse_args()

    import cv2
    cv2.setNumThreads(os.cpu_count() or 1)
    try:
        import cupy as cp
        import cupyx.scipy.ndimage as cndi
    except Exception as e:  # noqa: BLE001
        print("cupy unavailable:", e)
        cp = None
    import scipy.ndimage as ndi

    ours = json.load(open(args.bench_json))
    # fast: the whole frame (labels, numbering, statistics); nostats: bench_ccl's fast_nostats
    # rows (labels and numbering only, like for like with cupyx, which computes no statistics).
    fast, nostats = {}, {}
    for row in ours.get("random", []):
        key = ("random_%.2f" % row.get("density", 0), row["connectivity"])
        if row["algorithm"] == "fast" and row["size"] == 4096:
            fast[key] = row["median_ms"]
        if row["algorithm"] == "fast_nostats" and row["size"] == 4096:
            nostats[key] = row["median_ms"]
    for row in ours.get("test_images", []):
        if row["algorithm"] == "fast" and row["size"] == 4096:
            fast[(row["image"], row["connectivity"])] = row["median_ms"]
        if row["algorithm"] == "fast_nostats" and row["size"] == 4096:
            nostats[(row["image"], row["connectivity"])] = row["median_ms"]
    for row in ours.get("radar", []):
        if row["algorithm"] == "fast":
            fast[("vessels_%d" % row["vessels"], 8)] = row["median_ms"]

    out = {"cv2": cv2.__version__, "cv2_threads": cv2.getNumThreads(),
           "cupy": cp.__version__ if cp else None, "cupyx_rounds": args.rounds, "images": []}
    gpu_inputs = []  # (record, binary image on the device)
    all_ok = True
    s8 = np.ones((3, 3), dtype=np.int32)
    for entry in ours.get("saved_images", []):
        name = entry["file"][:-4]
        img = read_pgm(os.path.join(args.images, entry["file"]))
        binary = (img > 0).astype(np.uint8)
        ours8 = np.fromfile(os.path.join(args.images, entry["labels8"]), dtype=np.int32)
        ours8 = ours8.reshape(binary.shape)
        rec = {"image": name, "count4": entry["count4"], "count8": entry["count8"]}
        reps_slow = max(3, args.reps // 3)
        # OpenCV (CPU, all threads); its count includes the background label 0.
        n8, l8 = cv2.connectedComponents(binary, connectivity=8, ltype=cv2.CV_32S)
        n4, _ = cv2.connectedComponents(binary, connectivity=4, ltype=cv2.CV_32S)
        rec["cv2_count_ok"] = (n8 - 1 == entry["count8"]) and (n4 - 1 == entry["count4"])
        rec["cv2_partition_ok"] = bool(same_partition(l8, ours8))
        if not args.no_cv2_timing:
            rec["cv2_labels8_ms"] = median_ms(
                lambda: cv2.connectedComponents(binary, connectivity=8, ltype=cv2.CV_32S),
                reps_slow)
            rec["cv2_stats8_ms"] = median_ms(
                lambda: cv2.connectedComponentsWithStats(binary, connectivity=8, ltype=cv2.CV_32S),
                reps_slow)
            rec["cv2_stats4_ms"] = median_ms(
                lambda: cv2.connectedComponentsWithStats(binary, connectivity=4, ltype=cv2.CV_32S),
                reps_slow)
        # CuPy (GPU).
        if cp is not None:
            d = cp.asarray(binary)
            c8, k8 = cndi.label(d, structure=s8)
            c4, k4 = cndi.label(d)
            rec["cupyx_count_ok"] = (int(k8) == entry["count8"]) and (int(k4) == entry["count4"])
            rec["cupyx_partition_ok"] = bool(same_partition(cp.asnumpy(c8), ours8))
            rec["cupyx_label8_rounds_ms"], rec["cupyx_label4_rounds_ms"] = [], []
            gpu_inputs.append((rec, d))
        # SciPy (CPU, one thread).
        _, m4 = ndi.label(binary)
        _, m8 = ndi.label(binary, structure=s8)
        rec["scipy_count_ok"] = (m4 == entry["count4"]) and (m8 == entry["count8"])
        rec["scipy_label4_ms"] = median_ms(lambda: ndi.label(binary), 3)
        out["images"].append(rec)

    # cupyx in rounds over all images (see the module's note), then every ratio and line.
    if cp is not None:
        sync = cp.cuda.Device().synchronize
        reps_gpu = max(args.reps, 30)
        # The 8-connected structure goes in as the host array s8: cupyx.scipy.ndimage.label copies
        # a device one back to the host (cupy.asnumpy, a synchronising copy) on every call, which
        # is no labelling work (docs/decisions/0034-peer-timing.md).
        for _ in range(max(1, args.rounds)):
            for rec, d in gpu_inputs:
                rec["cupyx_label8_rounds_ms"].append(
                    median_ms(lambda: cndi.label(d, structure=s8), reps_gpu, sync))
                rec["cupyx_label4_rounds_ms"].append(median_ms(lambda: cndi.label(d), reps_gpu, sync))
        # For the record only (the ratios stay on wall time): the same calls timed by CUDA events,
        # which leave out the host's time before the first kernel and after the last.
        for rec, d in gpu_inputs:
            rec["cupyx_label8_events_ms"] = event_ms(lambda: cndi.label(d, structure=s8),
                                                     reps_gpu, cp)
            rec["cupyx_label4_events_ms"] = event_ms(lambda: cndi.label(d), reps_gpu, cp)
        for rec, _ in gpu_inputs:
            for conn in (8, 4):
                rounds = rec["cupyx_label%d_rounds_ms" % conn]
                rec["cupyx_label%d_ms" % conn] = statistics.median(rounds)
        gpu_inputs.clear()
    for rec in out["images"]:
        name = rec["image"]
        for conn in (8, 4):
            f = fast.get((name, conn))
            if f:
                rec["fast%d_ms" % conn] = f
            g = nostats.get((name, conn))
            if g:
                rec["fast%d_nostats_ms" % conn] = g
                if "cupyx_label%d_ms" % conn in rec:
                    rec["ratio_cupyx%d_over_fast%d_nostats" % (conn, conn)] = (
                        rec["cupyx_label%d_ms" % conn] / g)
        f8 = rec.get("fast8_ms")
        if f8:
            if "cv2_stats8_ms" in rec:
                rec["ratio_cv2_stats8_over_fast8"] = rec["cv2_stats8_ms"] / f8
            if "cupyx_label8_ms" in rec:
                rec["ratio_cupyx8_over_fast8"] = rec["cupyx_label8_ms"] / f8
        f4 = rec.get("fast4_ms")
        if f4 and "cupyx_label4_ms" in rec:
            rec["ratio_cupyx4_over_fast4"] = rec["cupyx_label4_ms"] / f4
            if "cv2_stats4_ms" in rec:
                rec["ratio_cv2_stats4_over_fast4"] = rec["cv2_stats4_ms"] / f4
        ok = all(v for k, v in rec.items() if k.endswith("_ok"))
        all_ok &= ok
        r8 = rec.get("cupyx_label8_rounds_ms") or [float("nan")]
        print("%-14s ours %7d/%7d  cv2 stats8 %8.2f ms  cupyx8 %7.2f ms (rounds %.2f-%.2f)  "
              "fast8 %6.3f ms  %s" % (
                  name, rec["count8"], rec["count4"], rec.get("cv2_stats8_ms", float("nan")),
                  rec.get("cupyx_label8_ms", float("nan")), min(r8), max(r8),
                  rec.get("fast8_ms", float("nan")), "agree" if ok else "DISAGREE"), flush=True)
        nan = float("nan")
        print("%-14s cupyx/fast (with stats / labels only): 8-conn %5.1fx / %5.1fx  "
              "4-conn %5.1fx / %5.1fx" % (
                  name, rec.get("ratio_cupyx8_over_fast8", nan),
                  rec.get("ratio_cupyx8_over_fast8_nostats", nan),
                  rec.get("ratio_cupyx4_over_fast4", nan),
                  rec.get("ratio_cupyx4_over_fast4_nostats", nan)), flush=True)
        if "cupyx_label8_events_ms" in rec:
            print("%-14s cupyx by CUDA events: 8-conn %.2f ms (%.1fx fast)  4-conn %.2f ms (%.1fx)"
                  % (name, rec["cupyx_label8_events_ms"],
                     rec["cupyx_label8_events_ms"] / rec.get("fast8_ms", nan),
                     rec["cupyx_label4_events_ms"],
                     rec["cupyx_label4_events_ms"] / rec.get("fast4_ms", nan)), flush=True)
    out["all_agree"] = bool(all_ok)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    print("peers agree with ours:", "yes" if all_ok else "NO")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
