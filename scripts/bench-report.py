#!/usr/bin/env python3
"""Turns one `sweepline bench` run into docs: RESULTS.md, results.json and PNG charts.

Reads from --in: device.txt (optional), bench_pipeline.json, bench_ccl.json, peers.json,
bench_npp.json, view_4096*.json (the console's reports), bench_cpu.json (Google Benchmark),
whichever exist. --in may also name a results.json this script wrote: it holds those inputs, so
the report can be written again after the run's folder is gone. Writes --md (RESULTS.md),
results.json and charts/*.png beside it. Charts need matplotlib (the GPU machine's Python has
it); without it the tables are still written.
"""
import argparse
import datetime
import json
import statistics
import os
import sys


def load(folder, name):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return None
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"bench-report: cannot read {path}: {e}", file=sys.stderr)
        return None


def fmt(v):
    """A table cell: integers whole, other numbers to three significant digits (a 0.05 ms
    labelling time must not read as 0.0), thousands separated from 100 up."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "NO"
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        if v != v:
            return "-"
        if abs(v) >= 100:
            return f"{v:,.0f}"
        return f"{v:.3g}"
    return str(v)


def table(headers, rows):
    out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    for r in rows:
        out.append("| " + " | ".join(fmt(c) for c in r) + " |")
    return "\n".join(out) + "\n"


class Report:
    def __init__(self, folder, md_path):
        self.folder = folder
        self.md_path = md_path
        self.md_dir = os.path.dirname(os.path.abspath(md_path))
        self.chart_dir = os.path.join(self.md_dir, "charts")
        self.parts = []
        self.targets = []  # (what, target, measured, met)
        self.summary = {}
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
            self.plt = plt
            os.makedirs(self.chart_dir, exist_ok=True)
        except ImportError:
            self.plt = None

    def add(self, text):
        self.parts.append(text)

    def chart(self, name, title, labels, series, ylabel, log=False, hline=None):
        """series: list of (legend, values). Writes charts/<name>.png, returns a markdown link.
        hline: (value, legend) drawn across, e.g. a target."""
        if self.plt is None or not labels:
            return ""
        plt = self.plt
        fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(labels) + 3), 4), dpi=110)
        n = len(series)
        width = 0.8 / max(n, 1)
        for i, (legend, values) in enumerate(series):
            xs = [j + (i - (n - 1) / 2) * width for j in range(len(labels))]
            ax.bar(xs, [v if v is not None else 0 for v in values], width, label=legend)
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize=10)
        if log:
            ax.set_yscale("log")
        ax.grid(axis="y", alpha=0.3)
        if hline:
            ax.axhline(hline[0], color="black", linestyle="--", linewidth=1, label=hline[1])
        ax.legend(fontsize=8)
        fig.tight_layout()
        path = os.path.join(self.chart_dir, name + ".png")
        fig.savefig(path)
        plt.close(fig)
        rel = os.path.relpath(path, self.md_dir)
        return f"\n![{title}]({rel})\n"

    # ---------------------------------------------------------------- pipeline (issue 5)
    def pipeline(self, j):
        if not j:
            self.add("## Pipeline stages\n\nNot run (no bench_pipeline.json).\n")
            return
        roof = j.get("copy_roof_gbs")
        self.add(f"## Pipeline stages at {j.get('size', 4096)}^2 (issue 5)\n\n"
                 f"Device-to-device copy measured in the same run: **{fmt(roof)} GB/s** "
                 "(bytes read + written); the physical-limit column is the fewest bytes a stage "
                 "must move divided by that bandwidth.\n")
        rows = []
        for s in j.get("stages", []):
            floor_us = s["bytes"] / (roof * 1e9) * 1e6 if roof and s.get("bytes") else None
            target = s.get("target_us")
            rows.append([s["stage"], s.get("gpu_us"), s.get("gbs") or None, floor_us,
                         f"<= {target:.0f} us: {'met' if s.get('target_met') else 'MISSED'}" if target else "",
                         s.get("cpu_ms"), s.get("note", "")])
            if target:
                self.targets.append((f"{s['stage']} (H100 target)", f"<= {target:.0f} us",
                                     f"{s['gpu_us']:.1f} us", bool(s.get("target_met"))))
        self.add(table(["stage", "GPU us", "GB/s", "physical limit us", "target", "CPU ms", "note"], rows))
        sl = j.get("paper002_sliding_gain_pct")
        if sl:
            self.add("\n**Paper 002** (separable filter, row pass: sliding window vs plain "
                     "shared-memory tile; the paper reports up to 17.9 % faster on low-bandwidth "
                     "GPUs):\n\n" + table(["case", "sliding window faster by %"],
                                          [[k, v] for k, v in sl.items()]))
        p0 = j.get("paper000_denoise_ms")
        if p0:
            self.add(f"\n**Paper 000 denoising row** (Gaussian, 4096^2): GTX 670MX "
                     f"{p0['gtx670mx']} ms (paper), here {p0['here']:.3f} ms: "
                     f"{p0['gtx670mx'] / p0['here']:.0f}x.\n")
        fft = next((s for s in j.get("stages", []) if s["stage"].startswith("fft enhance")), None)
        if fft:
            px = j.get("size", 4096) ** 2
            self.add(f"\n**Paper 004** (NIST PCASYS block-FFT enhancement, 32x32 windows, step 16): "
                     f"a 512x480 image took 125.8 ms on the paper's CPU, 7.2 ms in OpenCL and 4.9 ms "
                     f"optimised. Here a {j.get('size', 4096)}^2 image ({px / (512 * 480):.0f}x the "
                     f"pixels) takes {fft['gpu_us'] / 1000:.3f} ms on the GPU"
                     + (f" and {fft['cpu_ms']:.1f} ms on the CPU backend" if fft.get("cpu_ms") else "")
                     + f": {4.9 / (fft['gpu_us'] / 1000) * px / (512 * 480):.0f}x the paper's "
                     "optimised throughput in pixels per second.\n")
        # Stages with a CPU implementation; an upload row's "CPU ms" in older JSON is its host
        # copy, not a CPU stage, so upload rows stay out of the chart.
        stages = [s for s in j.get("stages", []) if s.get("cpu_ms") is not None and s.get("gpu_us")
                  and not s["stage"].startswith("upload")]
        self.add(self.chart("pipeline_stages", "Pipeline stages at 4096^2: GPU vs CPU (ms, log)",
                            [s["stage"] for s in stages],
                            [("GPU", [s["gpu_us"] / 1000 for s in stages]),
                             ("CPU", [s["cpu_ms"] for s in stages])], "ms", log=True))
        self.summary["pipeline"] = j

    # ---------------------------------------------------------------- labelling (issue 6)
    # Paper 001 Tables 1-2 (ms, Grana's CPU labeller in OpenCV / Kang's GPU method, GTX 670MX era).
    PAPER001 = {0.1: ((22.8, 6.3), (85.7, 21.4)), 0.2: ((30.7, 7.0), (135.3, 24.3)),
                0.3: ((46.0, 7.7), (190.4, 27.1)), 0.4: ((51.3, 8.6), (206.1, 30.8)),
                0.5: ((47.6, 10.2), (205.4, 36.9)), 0.6: ((43.6, 15.2), (177.6, 59.0)),
                0.7: ((35.5, 26.1), (153.1, 126.7)), 0.8: ((28.0, 40.8), (112.1, 216.7)),
                0.9: ((20.8, 64.6), (85.6, 411.5))}
    PAPER001_IMAGES = {"spirals": (41.1, 26.0), "stars": (40.78, 24.03)}  # 4096^2, Grana / Kang
    PAPER000 = {50: {"labelling total": 16.93, "counting": 2.12, "boxes alg6": 15.76, "boxes alg7": 2.55,
                     "total alg6": 34.81, "total alg7": 21.60},
                1869: {"labelling total": 17.44, "counting": 2.16, "boxes alg6": 117.55,
                       "boxes alg7": 32.71, "total alg6": 137.15, "total alg7": 52.31}}

    @staticmethod
    def image_value(source, file, key):
        """`key` (e.g. cv2_stats8_ms, cupyx_label4_ms, npp_label8_ms) of the record for saved
        image `file` in peers.json or bench_npp.json."""
        if not source or not file:
            return None
        name = file[:-4] if file.endswith(".pgm") else file
        for r in source.get("images", []):
            if r.get("image") == name:
                return r.get(key)
        return None

    def labelling(self, j, peers, npp=None):
        if not j:
            self.add("## Connected-component labelling\n\nNot run (no bench_ccl.json).\n")
            return
        self.add("## Connected-component labelling (issue 6)\n\n"
                 "Times are medians of CUDA-event timings of labels + statistics + consecutive "
                 "numbering (everything `label` returns), on the GPU named above. Paper figures are "
                 "the papers' own, on their hardware (paper 000: GTX 670MX; paper 001: its GPU and "
                 "OpenCV's Grana labeller on its CPU).\n")
        if "compressible_memory" in j:
            self.add("Our label image was in " +
                     ("compressible memory (the default; `set_compressible_memory(false)` for plain)"
                      if j["compressible_memory"] else "plain memory") +
                     "; the peers' buffers are plain.\n")
        saved = {e.get("spec"): e for e in j.get("saved_images", [])}
        # random images (paper 001 Tables 1-2)
        rnd = j.get("random", [])
        algs = sorted({r["algorithm"] for r in rnd})
        conns = sorted({r["connectivity"] for r in rnd})
        def saved_file(d, size):
            # bench_ccl saves (and the peers time) the 4096^2 images only.
            if size != 4096:
                return None
            spec = f"random:{d:.2f}" if f"random:{d:.2f}" in saved else f"random:{d}"
            return saved.get(spec, {}).get("file")

        rows = []
        fast4096 = {}
        for size in sorted({r["size"] for r in rnd}):
            for d in sorted({r["density"] for r in rnd}):
                key = round(d, 2)
                paper = self.PAPER001.get(key)
                pi = 0 if size == 2048 else 1 if size == 4096 else None
                row = [size, d]
                row += list(paper[pi]) if paper and pi is not None else [None, None]
                for c in conns:
                    for a in algs:
                        m = next((r for r in rnd if r["size"] == size and r["density"] == d
                                  and r["connectivity"] == c and r["algorithm"] == a), None)
                        row.append(m["median_ms"] if m else None)
                        if m and a == "fast" and size == 4096:
                            fast4096[(d, c)] = m["median_ms"]
                file = saved_file(d, size)
                for peer in ("cv2_stats8_ms", "cv2_labels8_ms", "cupyx_label8_ms", "cupyx_label4_ms",
                             "scipy_label4_ms"):
                    row.append(self.image_value(peers, file, peer))
                row.append(self.image_value(npp, file, "npp_label8_ms"))
                row.append(self.image_value(npp, file, "npp_label8_compress_ms"))
                rows.append(row)
        headers = ["size", "density", "paper Grana", "paper Kang"]
        headers += [f"{a} {c}-conn" for c in conns for a in algs]
        headers += ["cv2 with stats 8", "cv2 labels 8", "cupyx 8", "cupyx 4", "scipy 4", "NPP 8",
                    "NPP 8 + compress"]
        self.add("\n### Random images, ms (paper 001 Tables 1-2)\n\n" + table(headers, rows))
        sizes = sorted({r["size"] for r in rnd})
        if rnd:
            big = max(sizes)
            dens = sorted({r["density"] for r in rnd if r["size"] == big})
            series = []
            for c in conns:
                for a in algs:
                    series.append((f"{a} {c}", [next((r["median_ms"] for r in rnd if r["size"] == big and
                                                       r["density"] == d and r["connectivity"] == c and
                                                       r["algorithm"] == a), None) for d in dens]))
            series.append(("paper Kang", [self.PAPER001.get(round(d, 2), (None, (None, None)))[1][1]
                                          if big == 4096 else None for d in dens]))
            self.add(self.chart("ccl_density", f"Labelling {big}^2 random images (ms, log)",
                                [f"{d:.2f}" for d in dens], series, "ms", log=True))
        # targets
        for (d, c), ms in sorted(fast4096.items()):
            lim = 0.25 if d <= 0.5 else 0.4
            self.targets.append((f"fast {c}-conn, 4096^2 random density {d}", f"<= {lim * 1000:.0f} us",
                                 f"{ms * 1000:.0f} us", ms <= lim))
        if peers:
            for (d, c), ms in sorted(fast4096.items()):
                file = saved_file(d, 4096)
                cu = self.image_value(peers, file, f"cupyx_label{c}_ms")
                cv = self.image_value(peers, file, f"cv2_stats{c}_ms")
                self.peer_targets(f"density {d}", c, ms, cu, cv)
        if peers:
            self.peer_ratios(peers)
        scratch = j.get("scratch_bytes_4096")
        if scratch is not None:
            self.targets.append(("GPU memory beyond the label image, 4096^2", "<= 200 MB",
                                 f"{scratch / 1e6:.1f} MB", scratch <= 200e6))
        self.targets.append(("all algorithms give the same labels", "yes",
                             fmt(j.get("all_algorithms_agree")), bool(j.get("all_algorithms_agree"))))
        # test images (paper 001 Table 3)
        ti = j.get("test_images", [])
        rows = []
        for r in ti:
            paper = self.PAPER001_IMAGES.get(r["image"]) if r["size"] == 4096 else None
            rows.append([r["image"], r["size"], r["connectivity"], r["algorithm"], r["median_ms"],
                         r.get("count"), paper[0] if paper else None, paper[1] if paper else None])
        if rows:
            self.add("\n### Test images A (spirals) and B (stars), ms (paper 001 Table 3)\n\n" +
                     table(["image", "size", "conn", "algorithm", "ms", "components",
                            "paper Grana", "paper Kang"], rows))
        # radar frames (paper 000 Table 1)
        rad = j.get("radar", [])
        rows = []
        for r in rad:
            paper = self.PAPER000.get(r["vessels"], {})
            box = r.get("box_method")
            pkey = {"alg6": "total alg6", "alg7": "total alg7"}.get(box)
            stages = r.get("stages_ms", {})
            rows.append([r["vessels"], r["algorithm"], box, r["median_ms"], r.get("count"),
                         ", ".join(f"{k} {v:.3f}" for k, v in stages.items()),
                         paper.get(pkey) if pkey else None])
        if rows:
            self.add("\n### Radar-like frames with 50 and 1869 components, ms (paper 000 Table 1)\n\n"
                     "Paper 000 (GTX 670MX), per phase: labelling 16.93 / 17.44 ms, counting 2.12 / "
                     "2.16 ms, boxes Alg. 6 15.76 / 117.55 ms, Alg. 7 2.55 / 32.71 ms (50 / 1869 "
                     "components).\n\n" + table(["components", "algorithm", "boxes", "ms", "found",
                                                "phases (ms)", "paper total"], rows))
        if peers:
            extra = {k: v for k, v in peers.items() if k != "images"}
            if extra:
                self.add("\nPeers run notes: `" + json.dumps(extra)[:600] + "`\n")
        if npp:
            # NPP's union-find leaves some contacts unmerged, differently from run to run
            # (docs/decisions/0037-npp-partition-check.md): its partition is checked to refine
            # ours, so that ours never splits what NPP joins. Images where it is not are listed.
            imgs = npp.get("images", [])
            split = [r for r in imgs if r.get("npp_partition8_ok") is False]
            bad = [r["image"] for r in split
                   if not (r.get("npp_partition8") or {}).get("refines_ours", False)]
            measured = ("equal on every image" if not split else
                        f"equal on {len(imgs) - len(split)} of {len(imgs)}, NPP's finer elsewhere"
                        if not bad else "NOT a refinement on: " + ", ".join(bad))
            self.targets.append(("NPP's 8-conn partition equals ours or refines it "
                                 "(NPP misses merges)", "yes", measured, not bad))
        if peers and "all_agree" in peers:
            self.targets.append(("every peer (cv2, cupyx, scipy) agrees with ours", "yes",
                                 fmt(peers.get("all_agree")), bool(peers.get("all_agree"))))
        self.summary["labelling"] = j
        self.summary["peers"] = peers
        self.summary["npp"] = npp

    def peer_targets(self, image, c, fast_ms, cupyx_ms, cv2_ms):
        """Issue 6's rows against the peers for one image and connectivity: >= 10x cupyx's
        label, >= 50x cv2's connectedComponentsWithStats (where that peer was timed)."""
        if cupyx_ms:
            self.targets.append((f"fast {c}-conn vs cupyx label, {image}", ">= 10x",
                                 f"{cupyx_ms / fast_ms:.1f}x", cupyx_ms / fast_ms >= 10))
        if cv2_ms:
            self.targets.append((f"fast {c}-conn vs cv2 with stats, {image}", ">= 50x",
                                 f"{cv2_ms / fast_ms:.0f}x", cv2_ms / fast_ms >= 50))

    def peer_ratios(self, peers):
        """The 10x / 50x rows for the test images and radar frames (the random images' rows come
        from bench_ccl above), and a table of every image's ratios with and without our
        statistics: cupyx computes none, so both are on record (the target is with them)."""
        rows = []
        for r in peers.get("images", []):
            name = r.get("image", "?")
            for c in (8, 4):
                fast = r.get(f"fast{c}_ms")
                cu = r.get(f"cupyx_label{c}_ms")
                cv = r.get(f"cv2_stats{c}_ms")
                if not fast:
                    continue
                nostats = r.get(f"fast{c}_nostats_ms")
                rows.append([name, c, fast * 1000, nostats * 1000 if nostats else None, cu,
                             cu / fast if cu else None, cu / nostats if cu and nostats else None,
                             cv / fast if cv else None])
                if name.startswith("random_"):
                    continue
                self.peer_targets(name, c, fast, cu, cv)
        if rows:
            self.add("\n### Against the peers, every saved image (4096^2)\n\n"
                     "cupyx's time is the median of its round medians (scripts/bench-peers.py). "
                     "`fast_nostats` gives labels and consecutive ids only, as cupyx does.\n\n" +
                     table(["image", "conn", "fast us", "fast_nostats us", "cupyx ms",
                            "cupyx / fast", "cupyx / fast_nostats", "cv2 with stats / fast"],
                           rows))
            names = [f"{r[0]} {r[1]}" for r in rows]
            self.add(self.chart("ccl_cupyx_ratio", "cupyx.scipy.ndimage.label time / ours (4096^2)",
                                names, [("with our statistics", [r[5] for r in rows]),
                                        ("labels only", [r[6] for r in rows])],
                                "x", hline=(10, "target 10x")))

    # ---------------------------------------------------------------- the viewer, end to end
    def viewer(self, per_rotation, live):
        # `sweepline view --headless` at 4096^2 with the default pipeline (scripts/gpu-check):
        # the stage times the console itself reports, first frame (allocations, table) left out.
        def stats(j):
            frames = j["frames"][1:]
            stages = sorted({k for f in frames for k in f["times_ms"] if ":" not in k})
            med = {k: statistics.median(f["times_ms"].get(k, 0.0) for f in frames) for k in stages}
            tot = [sum(v for k, v in f["times_ms"].items() if ":" not in k) for f in frames]
            return frames, stages, med, statistics.median(tot), max(tot)
        runs = [(n, j) for n, j in (("a frame per rotation", per_rotation),
                                    ("a frame every 27 radials (window cadence)", live))
                if j and len(j.get("frames", [])) >= 2]
        if not runs:
            return
        j0 = runs[0][1]
        d, p = j0.get("display", {}), j0.get("pipeline", {})
        self.add("## The console end to end (issue 7)\n")
        self.add(f"`sweepline view --headless --backend {j0.get('backend')}` on `{j0.get('source')}`, "
                 f"display {d.get('width')} x {d.get('height')}, interop {j0.get('interop')}, "
                 f"GL `{j0.get('gl_renderer')}`; pipeline {p}. The stage times the console reports "
                 "(CUDA events; `interop map` is host time), median over the frames after the first "
                 "(which allocates and builds the max-hold table). Two cadences: a frame per rotation "
                 "uploads the whole 16 MiB polar frame each time; a window at 60 frames/s on a 24 rpm "
                 "radar gets about 27 of 4096 radials a frame (`--frame-radials 27`). The kernels "
                 "write the four GL textures in place through surfaces.\n")
        cols = [stats(j) for _, j in runs]
        all_stages = sorted({s for c in cols for s in c[1]})
        rows = [[s] + [c[2].get(s, 0.0) * 1000 for c in cols] for s in all_stages]
        # Sub-stages of the upload (the host-to-device copy alone), not added to the totals.
        subs = sorted({k for _, j in runs for f in j["frames"][1:] for k in f["times_ms"]
                       if k.startswith("upload:")})
        for k in subs:
            rows.append([f"({k}, inside upload)"] +
                        [statistics.median(f["times_ms"].get(k, 0.0) for f in j["frames"][1:]) * 1000
                         for _, j in runs])
        rows.append(["processing total (median)"] + [c[3] * 1000 for c in cols])
        rows.append(["processing total (worst frame)"] + [c[4] * 1000 for c in cols])
        self.add(table(["stage, us"] + [n for n, _ in runs], rows))
        # The reports' stage times, so that results.json can rebuild this table.
        self.summary["viewer_reports"] = [
            None if j is None else {**j, "frames": [{"times_ms": f.get("times_ms", {})}
                                                    for f in j.get("frames", [])]}
            for j in (per_rotation, live)]
        self.summary["viewer"] = {n: {"median_ms": c[2], "total_ms": c[3], "worst_ms": c[4]}
                                  for (n, _), c in zip(runs, cols)}
        for (n, _), c in zip(runs, cols):
            self.targets.append((f"console: processing per 4096^2 frame, default pipeline, labelling on, {n}",
                                 "<= 1000 us", f"{c[3] * 1000:.0f} us (worst {c[4] * 1000:.0f})",
                                 "yes" if c[3] <= 1.0 else "NO"))

    # ---------------------------------------------------------------- CPU benchmarks
    def cpu(self, j):
        if not j:
            return
        self.add("## CPU benchmarks (Google Benchmark, one core unless named)\n")
        rows = []
        for b in j.get("benchmarks", []):
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
                continue
            bps = b.get("bytes_per_second")
            ips = b.get("items_per_second")
            rows.append([b["name"], b.get("real_time"), b.get("time_unit"),
                         bps / 1e9 if bps else None, ips, b.get("label", "")])
        self.add(table(["benchmark", "time", "unit", "GB/s", "items/s", "label"], rows))
        ctx = j.get("context", {})
        self.add(f"\nCPU: {ctx.get('num_cpus')} x {ctx.get('mhz_per_cpu')} MHz, host {ctx.get('host_name')}.\n")
        self.summary["cpu"] = j

    def write(self, device):
        head = ["# Sweepline benchmark results\n",
                f"Generated {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')} by "
                "`scripts/bench-report.py` from one `sweepline bench` run "
                "(`bash scripts/gpu-check $OUT` on the GPU machine; docs/gpu-machine.md).\n",
                "Device:\n\n```\n" + (device or "unknown").strip() + "\n```\n"]
        if self.targets:
            head.append("## Targets\n\n" + table(["what", "target", "measured", "met"],
                                                 [list(t) for t in self.targets]))
        text = "\n".join(head + self.parts)
        os.makedirs(self.md_dir, exist_ok=True)
        with open(self.md_path, "w") as f:
            f.write(text)
        with open(os.path.join(self.md_dir, "results.json"), "w") as f:
            json.dump({"device": device, "targets": self.targets, **self.summary}, f, indent=1)
        print(f"bench-report: wrote {self.md_path}, results.json"
              + (", charts/" if self.plt else " (no matplotlib: no charts)"))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--in", dest="folder", required=True)
    ap.add_argument("--md", required=True)
    a = ap.parse_args()
    if os.path.isfile(a.folder):
        # A results.json written before: its sections are the inputs of the same names.
        kept = load(os.path.dirname(os.path.abspath(a.folder)), os.path.basename(a.folder)) or {}
        inputs = {"bench_pipeline.json": kept.get("pipeline"), "bench_ccl.json": kept.get("labelling"),
                  "peers.json": kept.get("peers"), "bench_npp.json": kept.get("npp"),
                  "bench_cpu.json": kept.get("cpu")}
        inputs["view_4096.json"], inputs["view_4096_live.json"] = \
            (kept.get("viewer_reports") or [None, None])[:2]
        device = kept.get("device")
        source = os.path.dirname(os.path.abspath(a.folder))
    else:
        inputs = {n: load(a.folder, n) for n in ("bench_pipeline.json", "bench_ccl.json", "peers.json",
                                                 "bench_npp.json", "view_4096.json",
                                                 "view_4096_live.json", "bench_cpu.json")}
        dev_path = os.path.join(a.folder, "device.txt")
        device = open(dev_path).read() if os.path.exists(dev_path) else None
        source = a.folder
    r = Report(source, a.md)
    r.pipeline(inputs["bench_pipeline.json"])
    r.labelling(inputs["bench_ccl.json"], inputs["peers.json"], inputs["bench_npp.json"])
    r.viewer(inputs["view_4096.json"], inputs["view_4096_live.json"])
    r.cpu(inputs["bench_cpu.json"])
    r.write(device)


if __name__ == "__main__":
    main()
