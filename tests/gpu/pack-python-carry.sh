#!/usr/bin/env bash
# Builds the folder that python_device_run.sh runs from: the worker built here (stripped, with the two libraries the
# device lacks and the harness beside it), the problems, the corpus, the device scripts and tests/gpu_worker/data (the
# sandbox's escape candidates that timing_methods.py --escapes runs). A bw/ folder already in DEST (a bubblewrap
# binary with its libraries and a wrapper, for a device without one) is kept.
# Usage: tests/gpu/pack-python-carry.sh BUILD_DIR DEST
set -euo pipefail
build=${1:-build/dev}
dest=${2:?destination folder}
mkdir -p "$dest"
find "$dest" -mindepth 1 -maxdepth 1 ! -name bw -exec rm -rf {} +
mkdir -p "$dest/.device-build" "$dest/resources" "$dest/tests/gpu_worker"
cp "$build/app/measure/gpuf-measure" "$dest/.device-build/"
strip "$dest/.device-build/gpuf-measure"
for lib in libmuparser.so.2 libgomp.so.1; do
    cp -L "$(ldconfig -p | awk -v l="$lib" '$1 == l {print $NF; exit}')" "$dest/.device-build/"
done
cp -r resources/python "$dest/.device-build/python"
cp -r resources/problems resources/corpus "$dest/resources/"
cp -r tests/gpu "$dest/tests/gpu"
cp -r tests/gpu_worker/data "$dest/tests/gpu_worker/data"
find "$dest" -name __pycache__ -prune -exec rm -rf {} +
du -sh "$dest"
