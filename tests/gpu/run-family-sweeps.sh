#!/usr/bin/env bash
# Measures the shipped kernel families on the GPU machine in one call: plans written here with
# `gpuf sweep --family F --plan plans/F.plan.jsonl`, the worker built here (gpuf-measure with libmuparser.so.2 and
# libgomp.so.1 beside it; its $ORIGIN rpath finds them), this script, sweep_families.py and gpuf_worker.py, all in
# one carried folder. Writes one recorded sweep per family (gpuf-sweep/1) and the logs under $OUT; prints the summary
# table last. Usage: run-family-sweeps.sh [FOLDER]   (JOBS: correctness workers, BUDGET: timing seconds per family)
set -u -o pipefail
cd "${1:-$(dirname "$0")}"
OUT=${OUT:-/tmp/gpuf-sweeps}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
chmod +x bin/gpuf-measure
{
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw \
        --format=csv
    nproc
    free -g
    bin/gpuf-measure --version
} > "$OUT/environment.txt" 2>&1
python3 sweep_families.py --plans plans --worker bin/gpuf-measure --out "$OUT" --jobs "${JOBS:-14}" \
    --family-budget-s "${BUDGET:-60}" > "$OUT/sweep.log" 2>&1
rc=$?
grep -v '^correctness: [0-9]*/' "$OUT/sweep.log" | tail -40
cat "$OUT/environment.txt"
exit $rc
