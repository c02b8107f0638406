#!/usr/bin/env bash
# On the GPU machine: unpacks the Qt suite made by pack-qt-suite.sh and runs the measurement queue's GPU test
# (tst_measure_queue realWorkerOnGpu) against the carried worker and the repository's corpus.
set -u -o pipefail
cd "$(dirname "$0")/../.."
dir=$(mktemp -d)
tar -C "$dir" -xzf .device-build/qt-suite.tar.gz
export LD_LIBRARY_PATH="$dir/qt-suite/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_PLUGIN_PATH="$dir/qt-suite/plugins" QT_QPA_PLATFORM=offscreen
export GPUF_TEST_WORKER="$PWD/.device-build/gpuf-measure" GPUF_TEST_CORPUS_DIR="$PWD/resources/corpus"
"$dir/qt-suite/tst_measure_queue" realWorkerOnGpu -v1
