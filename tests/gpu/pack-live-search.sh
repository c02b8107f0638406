#!/usr/bin/env bash
# Packs the gpuf CLI and gpuf-measure, with the libraries the GPU machine lacks, into DEST/live-suite.tar.xz for
# tests/gpu/live-vs-replay.sh. The GPU machine (Ubuntu 24.04) has no Qt and ICU 74 where Debian's Qt wants ICU 72: ICU
# is replaced by forwarders to the machine's own (make-icu-shim.sh), and every library the machine already has is left
# out, so the package (about 6.5 MB) fits in a device call beside the working tree (64 MiB in all).
# Usage: tests/gpu/pack-live-search.sh BUILD_DIR DEST [ON_DEVICE]
#   ON_DEVICE: a file of library names the machine has (`ldconfig -p` output works); default: the list below, read
#   off an nvidia-h200 machine on 2026-11-29 (ldconfig -p there).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:?usage: pack-live-search.sh BUILD_DIR DEST [ON_DEVICE]}
dest=${2:?destination folder}
on_device=${3:-}
default_on_device="libz.so.1 libzstd.so.1 libsqlite3.so.0 libpcre2-8.so.0 libkrb5support.so.0 libkrb5.so.3
libkeyutils.so.1 libgssapi_krb5.so.2 libcom_err.so.2 libk5crypto.so.3 libbrotlienc.so.1 libbrotlidec.so.1
libbrotlicommon.so.1 libgomp.so.1 libcrypto.so.3 libssl.so.3 libcurl.so.4 libnghttp2.so.14 libidn2.so.0
librtmp.so.1 libssh2.so.1 libpsl.so.5 libldap-2.5.so.0 liblber-2.5.so.0 libsasl2.so.2 libunistring.so.2
libgnutls.so.30 libhogweed.so.6 libnettle.so.8 libgmp.so.10 libp11-kit.so.0 libtasn1.so.6 libffi.so.8
libsystemd.so.0 libcap.so.2 libgcrypt.so.20 liblzma.so.5 liblz4.so.1 libgpg-error.so.0 libresolv.so.2"
has_on_device() {
    if [[ -n $on_device ]]; then grep -q "^[[:space:]]*$1 " "$on_device"; else grep -qw -- "$1" <<<"$default_on_device"; fi
}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
suite="$stage/live-suite"
mkdir -p "$suite/lib" "$suite/plugins/sqldrivers" "$dest"
strip --strip-all -o "$suite/gpuf" "$build/app/cli/gpuf"
strip --strip-all -o "$suite/gpuf-measure" "$build/app/measure/gpuf-measure"
plugin=$(qtpaths6 --query QT_INSTALL_PLUGINS 2>/dev/null || echo /usr/lib/x86_64-linux-gnu/qt6/plugins)
cp "$plugin/sqldrivers/libqsqlite.so" "$suite/plugins/sqldrivers/"
# Every library the two programs and the plugin load, except the C runtime, ICU, CUDA's own (the machine has its
# toolkit, which gpuf-measure finds by its rpath) and what the machine has.
{ ldd "$build/app/cli/gpuf"; ldd "$build/app/measure/gpuf-measure"; ldd "$plugin/sqldrivers/libqsqlite.so"; } |
    awk '/=> \//{print $1, $3}' | sort -u |
    grep -Ev '^(libc|libm|libpthread|libdl|librt|libgcc_s|libstdc\+\+|ld-linux-x86-64)\.so|^libicu|^libnvrtc|^libcuda' |
    while read -r name path; do
        has_on_device "$name" || cp -L "$path" "$suite/lib/$name"
    done
qtcore=$(ldd "$build/app/cli/gpuf" | awk '$1 == "libQt6Core.so.6" {print $3}')
tests/gpu/make-icu-shim.sh "$qtcore" "$suite/lib" 72 74
tar -C "$stage" -cf - live-suite | xz -9e -T1 > "$dest/live-suite.tar.xz"
ls "$suite/lib"
ls -l "$dest/live-suite.tar.xz"
