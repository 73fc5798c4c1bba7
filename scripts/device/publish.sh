#!/usr/bin/env bash
# Run HERE after a whole device check: `scripts/gpu-check publish RUN`, RUN being the
# gpu-check.tgz the device tool brought back (or a folder holding it, or its unpacked files).
# Unpacks the run into docs/perf/runs/<device date>/ (git-ignored: the raw logs and JSON stay out of
# the tree, docs/decisions/0030-perf-docs-are-a-record.md) and copies the report into docs/perf/:
# RESULTS.md, results.json and the charts RESULTS.md shows.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
src=${1:?usage: scripts/gpu-check publish RUN (gpu-check.tgz or its folder)}
[ -d "$src" ] && [ -f "$src/gpu-check.tgz" ] && src=$src/gpu-check.tgz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -f "$src" ]; then tar -C "$tmp" -xzf "$src"; else cp -r "$src"/. "$tmp"/; fi
[ -f "$tmp/RESULTS.md" ] || { echo "publish: no RESULTS.md in $1 (was it a whole check?)" >&2; exit 1; }
stamp=$(sed -n 's/^date \([0-9-]*\)T\([0-9]*\):\([0-9]*\).*/\1-\2\3/p' "$tmp/device.txt" 2>/dev/null | head -1)
dest=$root/docs/perf/runs/${stamp:-$(date -u +%Y-%m-%d-%H%M)}
mkdir -p "$dest"
cp -r "$tmp"/. "$dest"/
perf=$root/docs/perf
cp "$tmp/RESULTS.md" "$tmp/results.json" "$perf/"
if [ -d "$tmp/charts" ]; then
  rm -f "$perf"/charts/*.png
  mkdir -p "$perf/charts"
  cp "$tmp"/charts/*.png "$perf/charts/"
fi
echo "publish: docs/perf/RESULTS.md, results.json, charts/ from ${dest#"$root"/}/"
echo "publish: summarise what changed in the area's page (docs/perf/README.md lists them)"
