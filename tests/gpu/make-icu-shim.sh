#!/usr/bin/env bash
# Builds libicuuc.so.FROM and libicui18n.so.FROM that forward every ICU function a library calls (name_FROM) to the
# same function of another ICU version (name_TO), so Debian's Qt 6 (built against ICU 72) runs on a GPU machine that
# has ICU 74 (Ubuntu 24.04) without carrying ICU 72 (5.4 MB, 31 MB more with its data, which no longer fits in a device
# call beside the working tree). Each forwarder is a tail jump, so it keeps any signature; the machine's own ICU (and
# its data) does the work. ICU keeps its C API stable across versions, which is what Qt calls.
# Usage: tests/gpu/make-icu-shim.sh LIBRARY DEST [FROM [TO]]   (LIBRARY: e.g. libQt6Core.so.6; FROM 72, TO 74)
set -euo pipefail
lib=${1:?usage: make-icu-shim.sh LIBRARY DEST [FROM [TO]]}
dest=${2:?destination folder}
from=${3:-72}
to=${4:-74}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$dest"
syms=$(nm -D --undefined-only "$lib" | awk -v s="_$from" '$2 ~ s"$" {print $2}')
[[ -n $syms ]] || { echo "make-icu-shim: $lib calls no ICU $from function" >&2; exit 1; }
{
    echo '.text'
    for s in $syms; do
        base=${s%_"$from"}
        printf '.globl %s\n.type %s, @function\n%s:\n    jmp %s_%s@PLT\n' "$s" "$s" "$s" "$base" "$to"
    done
    echo '.section .note.GNU-stack,"",@progbits'
} > "$work/forward.S"
# Stand-ins for the target version's libraries, only so that the shim names them (DT_NEEDED); the machine has the real.
for name in icuuc icui18n; do
    echo 'int gpuf_icu_stand_in;' > "$work/$name.c"
    gcc -shared -fPIC -o "$work/lib$name.so.$to" -Wl,-soname,"lib$name.so.$to" "$work/$name.c"
done
gcc -shared -fPIC -nostdlib -o "$dest/libicuuc.so.$from" -Wl,-soname,"libicuuc.so.$from" "$work/forward.S" \
    -Wl,--no-as-needed "$work/libicuuc.so.$to" "$work/libicui18n.so.$to"
# The other library Qt names: empty, since every forwarder is in the first.
echo 'int gpuf_icu_shim_empty;' > "$work/empty.c"
gcc -shared -fPIC -nostdlib -o "$dest/libicui18n.so.$from" -Wl,-soname,"libicui18n.so.$from" "$work/empty.c"
echo "make-icu-shim: $(wc -w <<<"$syms") functions of ICU $from forwarded to ICU $to in $dest"
