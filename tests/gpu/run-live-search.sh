#!/usr/bin/env bash
# On the GPU machine: one live (not replayed) search with the gpuf CLI, packed with its Qt libraries by
# `tests/gpu/pack-qt-suite.sh BUILD app/cli/gpuf`, every evaluation measured on this GPU by gpuf-measure. The search
# runs over the transpose kernel family; where the family mutator is not available it takes its proposals from the
# recorded sweep of the family on the *other* GPU kind (so no runtime of this GPU is on record and each one is
# measured). Carried folder: qt-suite.tar.gz, bin/ (gpuf-measure and its libraries), sweeps/*.jsonl.
# Before it, `gpuf sweep` measures a few configurations of a family through the measurement queue (the local path of a
# sweep, with its progress lines). Writes the search's log (events.jsonl), its status and the CLI's output under $OUT.
set -u -o pipefail
cd "${1:-$(dirname "$0")}"
OUT=${OUT:-/tmp/gpuf-live}
mkdir -p "$OUT"
dir=$(mktemp -d)
tar -C "$dir" -xzf qt-suite.tar.gz
cp bin/gpuf-measure bin/libmuparser.so.2 bin/libgomp.so.1 "$dir/qt-suite/"
chmod +x "$dir/qt-suite/gpuf-measure"
export LD_LIBRARY_PATH="$dir/qt-suite/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_PLUGIN_PATH="$dir/qt-suite/plugins" QT_QPA_PLATFORM=offscreen
gpuf="$dir/qt-suite/gpuf"
store="$dir/live.gpuf"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
other=h200
[[ $gpu == *H200* ]] && other=h100
{
    echo "GPU: $gpu"
    "$gpuf" device
    "$gpuf" sweep "$dir/sweep.gpuf" --family reduce_sum --sample "${SAMPLE:-6}" --seed 2
    common=(--name live --gpu local --steps "${STEPS:-4}" --parents 2 --measure 4 --seed 7)
    if "$gpuf" corpus "$store" "${CORPUS:-../../resources/corpus}" \
        && "$gpuf" search start "$store" --family transpose "${common[@]}"; then
        echo "mutator: family"
    else
        echo "mutator: recorded pool (the family's sweep on the $other)"
        rm -f "$store"*
        "$gpuf" sweep "$store" --import sweeps/transpose-$other-*.jsonl || exit 1
        "$gpuf" search start "$store" --problem transpose --mutator pool "${common[@]}" || exit 1
    fi
    "$gpuf" search status "$store" live
    "$gpuf" search status "$store" live --json > "$OUT/live-status.json"
    "$gpuf" search export "$store" live --out "$OUT/live-events.jsonl"
    "$gpuf" stats "$store"
} > "$OUT/live-search.log" 2>&1
rc=$?
tail -60 "$OUT/live-search.log"
exit $rc
