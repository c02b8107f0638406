#!/usr/bin/env bash
# One device call that fills in Python-problem coverage and checks the harness's timing, run from the folder that
# pack-python-carry.sh builds. Three stages, each bounded by time so later ones still run and every stage keeps what
# it wrote:
#   dobench  the variants named in DOBENCH (comma-separated problem/variant) through gpuf-measure, then the same
#            candidates with triton.testing.do_bench (mean and median)             -> python_dobench_rows.jsonl, python_dobench.jsonl
#   gap      tests/gpu/timing_gap.py: harness vs do_bench with NVML clocks, and the short-kernel noise study  -> timing_gap.jsonl
#   sweep    the variants listed in SWEEP_FILE (one problem/variant a line, in that order) through gpuf-measure
#            until the whole command's budget (TOTAL seconds from the start) is spent  -> python_results.jsonl
# Usage: python_followup_run.sh DOBENCH SWEEP_FILE [DOBENCH_LIMIT GAP_LIMIT TOTAL]
set -u -o pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/gpuf-py-out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
BIN=$PWD/.device-build/gpuf-measure
dobench=$1
sweep_file=$2
dobench_limit=${3:-150}
gap_limit=${4:-80}
total=${5:-570}
began=$(date +%s)
log() { tee -a "$OUT/run.log"; }
{
    date -u
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw,power.limit --format=csv
    python3 -c "import sys, torch, triton; print(sys.version.split()[0], 'torch', torch.__version__, 'triton', triton.__version__)"
    uname -r
    "$BIN" --version
} 2>&1 | log
# The problems named in a comma-separated problem/variant list (measure_python.py's --only).
problems_of() { tr ',' '\n' | cut -d/ -f1 | sort -u | paste -sd, -; }
stage() {
    local name=$1 limit=$2 started
    shift 2
    started=$(date +%s)
    echo "=== $name (limit ${limit}s) $(date -u +%T)" | log
    timeout "$limit" "$@" 2>&1 | log
    echo "=== $name done in $(($(date +%s) - started))s (rc ${PIPESTATUS[0]})" | log
}
stage dobench "$dobench_limit" python3 tests/gpu/measure_python.py --worker "$BIN" --problems resources/problems \
    --only "$(echo "$dobench" | problems_of)" --variants "$dobench" --skip-cheats --results-name python_dobench_rows.jsonl
stage gap "$gap_limit" python3 tests/gpu/timing_gap.py --harness-dir .device-build/python --problems resources/problems
left=$((total - ($(date +%s) - began)))
if ((left > 20)); then
    stage sweep "$left" python3 tests/gpu/measure_python.py --worker "$BIN" --problems resources/problems \
        --variants-file "$sweep_file" --skip-cheats --skip-dobench
fi
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv 2>&1 | log
