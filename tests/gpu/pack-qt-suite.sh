#!/usr/bin/env bash
# Packs one Qt test suite with the shared libraries it needs (Qt, ICU and the rest, glibc excepted) and the SQLite
# driver plugin into .device-build/qt-suite.tar.gz, so the GPU machine, which has no Qt, can run it against a GPU.
# Usage: tests/gpu/pack-qt-suite.sh BUILD_DIR [SUITE]   (SUITE defaults to tests/measure/tst_measure_queue)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:?usage: pack-qt-suite.sh BUILD_DIR [SUITE]}
suite=${2:-tests/measure/tst_measure_queue}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/qt-suite/lib" "$stage/qt-suite/plugins/sqldrivers" .device-build
strip --strip-debug -o "$stage/qt-suite/$(basename "$suite")" "$build/$suite"
plugin=$(qtpaths6 --query QT_INSTALL_PLUGINS 2>/dev/null || echo /usr/lib/x86_64-linux-gnu/qt6/plugins)
cp "$plugin/sqldrivers/libqsqlite.so" "$stage/qt-suite/plugins/sqldrivers/"
# Every library the suite and the plugin load, except the C runtime the GPU machine has in a newer version.
{ ldd "$build/$suite"; ldd "$plugin/sqldrivers/libqsqlite.so"; } | awk '/=> \//{print $3}' | sort -u |
    grep -Ev '/(libc|libm|libpthread|libdl|librt|libgcc_s|libstdc\+\+|ld-linux-x86-64)\.so' |
    while read -r lib; do cp -L "$lib" "$stage/qt-suite/lib/"; done
rm -f .device-build/qt-suite.tar.xz
tar -C "$stage" -czf .device-build/qt-suite.tar.gz qt-suite
ls -l .device-build/qt-suite.tar.gz
