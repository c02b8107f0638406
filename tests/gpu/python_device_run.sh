#!/usr/bin/env bash
# One device call for the Python problems and the timing-trust work, run from a carried folder that holds
# .device-build/gpuf-measure (+ libmuparser.so.2, libgomp.so.1, python/gpuf_harness), resources/problems,
# resources/corpus and tests/gpu. Stages, each bounded by its own time limit so later ones still run:
#   trust      tests/gpu/timing_trust.py      (row_softmax outliers: gpuf-measure vs CuPy vs CUPTI vs ncu)
#   binary     tests/gpu/binary_check.py      (the same outliers: gpuf's own cubin vs CuPy's and nvcc's, two inputs)
#   python     tests/gpu/measure_python.py    (every problem and variant through gpuf-measure, cheats, do_bench)
#   crosscheck tests/gpu/crosscheck_corpus.py (every corpus kernel: gpuf-measure vs a second method)
#   methods    tests/gpu/timing_methods.py    (device and call time of every problem and variant against CUPTI and
#              do_bench, and the sandbox's escapes with PyTorch on the GPU; issue 29)
#   agreement  tests/gpu/timing_methods.py --agreement (the same sweep and comparison, each call also timed by do_bench
#              twice, with the collector paused, by the harness's loop in this process and by guarded events; no
#              escapes; give --variants, --earlier, --earlier-compare, --total-s among the extra arguments)
# Usage: python_device_run.sh "trust:90 python:330 crosscheck:120" [extra measure_python.py / timing_methods.py
# arguments]. GPUF_MEASURE names another worker binary (with python/gpuf_harness beside it).
set -u -o pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/gpuf-py-out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
BIN=${GPUF_MEASURE:-$PWD/.device-build/gpuf-measure}
stages=${1:-"trust:90 python:330 crosscheck:120"}
shift || true
{
    date -u
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
    python3 -c "import sys, torch, triton; print(sys.version.split()[0], 'torch', torch.__version__, 'triton', triton.__version__)"
    command -v ncu nsys || true
    "$BIN" --version
} 2>&1 | tee "$OUT/run.log"
for stage in $stages; do
    name=${stage%%:*}
    limit=${stage##*:}
    started=$(date +%s)
    echo "=== $name (limit ${limit}s)" | tee -a "$OUT/run.log"
    case $name in
    trust) timeout "$limit" python3 tests/gpu/timing_trust.py ;;
    binary) timeout "$limit" python3 tests/gpu/binary_check.py ;;
    python) timeout "$limit" python3 tests/gpu/measure_python.py --worker "$BIN" --problems resources/problems "$@" ;;
    crosscheck) timeout "$limit" python3 tests/gpu/crosscheck_corpus.py --worker "$BIN" --samples 100 ;;
    methods) timeout "$limit" python3 tests/gpu/timing_methods.py --worker "$BIN" --problems resources/problems \
        --escapes "$@" ;;
    agreement) timeout "$limit" python3 tests/gpu/timing_methods.py --worker "$BIN" --problems resources/problems \
        --agreement "$@" ;;
    esac 2>&1 | tee -a "$OUT/run.log"
    echo "=== $name done in $(( $(date +%s) - started ))s (rc ${PIPESTATUS[0]})" | tee -a "$OUT/run.log"
done
