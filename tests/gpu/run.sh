#!/usr/bin/env bash
# All device-side checks of gpuf-measure in one call on the GPU machine. Builds nothing: it expects the worker
# built here and carried in .device-build/ (gpuf-measure + libmuparser.so.2 + libgomp.so.1, $ORIGIN rpath).
# Writes full logs under $OUT and prints a short table last.
set -u -o pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/gpuf-gpu-out}
mkdir -p "$OUT"
BIN=${GPUF_MEASURE:-.device-build/gpuf-measure}
export PYTHONUNBUFFERED=1
{
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv
    ldd "$BIN"
    "$BIN" --version
} > "$OUT/environment.txt" 2>&1
python3 tests/gpu/measure_corpus.py --corpus tests/gpu/data --worker "$BIN" --out "$OUT/corpus_results.jsonl" \
    > "$OUT/corpus.log" 2>&1
corpus_rc=$?
python3 tests/gpu/gpu_checks.py "$BIN" > "$OUT/gpu_checks.log" 2>&1
checks_rc=$?
echo "--- measure_corpus.py on tests/gpu/data (rc=$corpus_rc)"
cat "$OUT/corpus.log"
echo "--- gpu_checks.py (rc=$checks_rc)"
sed -n '/^check /,$p' "$OUT/gpu_checks.log"
[ "$checks_rc" -eq 0 ] || tail -30 "$OUT/gpu_checks.log"
exit $(( corpus_rc | checks_rc ))
