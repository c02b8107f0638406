#!/usr/bin/env bash
# Issue 25's check that a live search agrees with its replay: the same family searches (families x modes x seeds, a
# fresh store each, holding the corpus) run with --gpu local on a GPU machine ("live", every evaluation measured there
# by gpuf-measure) and with --gpu replay on the family's recorded sweep of the same GPU kind ("replay", any machine).
# Seeds are the outer loop, so a time limit leaves whole seeds (every family and mode of them) done.
# Writes $OUT/HOW.log (the CLI's output), $OUT/HOW-status.jsonl (each search's `search status --json`, one a line)
# and $OUT/HOW-events.tar.gz (each search's event log); tests/gpu/live_vs_replay.py sets the two side by side.
# Usage: tests/gpu/live-vs-replay.sh live|replay "FAMILIES" "MODES" "SEEDS" STEPS [more `gpuf search start` options]
#   live:   LIVE_SUITE, the package of tests/gpu/pack-live-search.sh (default .livecarry/live-suite.tar.xz)
#   replay: GPUF, a gpuf binary (default build/dev/app/cli/gpuf); SWEEPS, the recorded sweeps (default
#           resources/sweeps); SWEEP_GPU, their files' GPU tag (default h200)
#   LIMIT_S: start no new seed after this many seconds (default: no limit)
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit
how=${1:?usage: live-vs-replay.sh live|replay FAMILIES MODES SEEDS STEPS [options]}
families=${2:?families}
modes=${3:?modes}
seeds=${4:?seeds}
steps=${5:?steps}
shift 5
OUT=${OUT:-/tmp/gpuf-live-vs-replay}
mkdir -p "$OUT"
work=$(mktemp -d)
export QT_QPA_PLATFORM=offscreen GPUF_RESOURCE_DIR=$PWD/resources
case $how in
live)
    tar -C "$work" -xJf "${LIVE_SUITE:-.livecarry/live-suite.tar.xz}" || exit 1
    suite=$work/live-suite
    export LD_LIBRARY_PATH="$suite/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" QT_PLUGIN_PATH="$suite/plugins"
    gpuf=$suite/gpuf
    gpu=(--gpu local)
    ;;
replay)
    gpuf=${GPUF:-$PWD/build/dev/app/cli/gpuf}
    gpu=(--gpu replay)
    ;;
*) echo "live-vs-replay: the first argument is live or replay, not '$how'" >&2; exit 2 ;;
esac
log=$OUT/$how.log
status=$OUT/$how-status.jsonl
: > "$status"
mkdir -p "$work/events"
began=$(date +%s)
{
    date -u
    [[ $how == live ]] && nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader
    if [[ $how == live ]] && ldd "$gpuf" "$suite/gpuf-measure" | grep 'not found'; then
        echo "live-vs-replay: the package lacks a library this machine does not have"
        exit 1
    fi
    "$gpuf" --version
    [[ $how == live ]] && "$gpuf" device
    for seed in $seeds; do
        if [[ -n ${LIMIT_S:-} ]] && (($(date +%s) - began > LIMIT_S)); then
            echo "live-vs-replay: ${LIMIT_S} s passed, no seed from $seed on"
            break
        fi
        for family in $families; do
            for mode in $modes; do
                name=$family-$mode-s$seed
                store=$work/$name.gpuf
                "$gpuf" init "$store" > /dev/null && "$gpuf" corpus "$store" resources/corpus > /dev/null || exit 1
                if [[ $how == replay ]]; then
                    "$gpuf" sweep "$store" --import "${SWEEPS:-resources/sweeps}/$family-${SWEEP_GPU:-h200}-"*.jsonl || exit 1
                fi
                started=$(date +%s%N)
                "$gpuf" search start "$store" --family "$family" "${gpu[@]}" --mode "$mode" --seed "$seed" \
                    --steps "$steps" --name "$name" "$@" 2>&1 | tail -3
                echo "$name: $((($(date +%s%N) - started) / 1000000)) ms"
                "$gpuf" search status "$store" "$name" --json >> "$status"
                "$gpuf" search export "$store" "$name" --out "$work/events/$name.events.jsonl" > /dev/null
            done
        done
    done
    date -u
} 2>&1 | tee "$log"
tar -C "$work/events" -czf "$OUT/$how-events.tar.gz" .
rm -rf "$work"
