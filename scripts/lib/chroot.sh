# shellcheck shell=bash disable=SC2034
# The Debian 13 build root used by scripts/debian13-root and scripts/test-debian13: where it lives, its lock,
# and mounting/unmounting the kernel file systems and the source tree. Sourced after common.sh.

GPUF_DEBIAN13_ROOT="${GPUF_DEBIAN13_ROOT:-/var/cache/gpuf-ci/debian13}"
GPUF_DEBIAN13_MIRROR="${GPUF_DEBIAN13_MIRROR:-http://deb.debian.org/debian}"
GPUF_DEBIAN13_SUITE=trixie
# Records how the root was made; a root whose marker differs from gpuf_root_manifest is rebuilt.
GPUF_DEBIAN13_MARKER=etc/gpuf-root.manifest
# Where the source tree appears inside the root.
GPUF_CHROOT_SRC=/src
# The root's compiler cache lives outside it, so a root made again (a changed package list) keeps its cache.
GPUF_DEBIAN13_CCACHE="${GPUF_DEBIAN13_CCACHE:-$(dirname "${GPUF_DEBIAN13_ROOT}")/ccache-debian13}"

GPUF_CHROOT_MOUNTS=()

gpuf_require_root_user() {
    if [[ ${EUID} -ne 0 ]]; then
        command -v sudo >/dev/null 2>&1 || gpuf_die "$(basename "$0") needs root (chroot, mount, debootstrap)"
        exec sudo --preserve-env=CI,GPUF_JOBS,GPUF_DEBIAN13_ROOT,GPUF_DEBIAN13_MIRROR "$0" "$@"
    fi
}

# Serialises every user of the root (two builds mounting the same root would unmount each other's files).
gpuf_debian13_lock() {
    [[ ${GPUF_DEBIAN13_LOCK_HELD:-0} == 1 ]] && return 0
    mkdir -p "$(dirname "${GPUF_DEBIAN13_ROOT}")"
    exec {GPUF_LOCK_FD}>"${GPUF_DEBIAN13_ROOT}.lock"
    if ! flock -n "${GPUF_LOCK_FD}"; then
        gpuf_log "waiting for another user of ${GPUF_DEBIAN13_ROOT} to finish"
        flock "${GPUF_LOCK_FD}"
    fi
    export GPUF_DEBIAN13_LOCK_HELD=1
}

# What the marker must say for a root to be reused: suite, mirror and the package list of scripts/setup.
gpuf_root_manifest() {
    echo "suite ${GPUF_DEBIAN13_SUITE}"
    echo "mirror ${GPUF_DEBIAN13_MIRROR}"
    gpuf_required_packages debian13 | sort
}

# Prints the mount points at or below a directory, deepest first.
gpuf_mounts_below() {
    local dir="$1"
    awk -v d="${dir}" '$5 == d || index($5, d "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r
}

# mount(8) with the target last; records the mount for gpuf_chroot_umount and stops on failure.
gpuf_mount_tracked() {
    local target="${*: -1}"
    mount "$@" || gpuf_die "mount $* failed"
    GPUF_CHROOT_MOUNTS+=("${target}")
}

gpuf_chroot_mount() {
    local root="$1" src="${2:-}"
    gpuf_mount_tracked -t proc proc "${root}/proc"
    gpuf_mount_tracked -t sysfs sysfs "${root}/sys"
    # /dev with its pts and shm; rslave so nothing mounted in here can ever propagate back to the host.
    gpuf_mount_tracked --rbind /dev "${root}/dev"
    mount --make-rslave "${root}/dev"
    if [[ -n ${src} ]]; then
        mkdir -p "${root}${GPUF_CHROOT_SRC}"
        gpuf_mount_tracked --bind "${src}" "${root}${GPUF_CHROOT_SRC}"
        mount --make-private "${root}${GPUF_CHROOT_SRC}"
    fi
    mkdir -p "${GPUF_DEBIAN13_CCACHE}" "${root}/var/cache/ccache"
    gpuf_mount_tracked --bind "${GPUF_DEBIAN13_CCACHE}" "${root}/var/cache/ccache"
    cp -L /etc/resolv.conf "${root}/etc/resolv.conf"
}

# Unmounts everything gpuf_chroot_mount mounted, in reverse order; safe to call twice (it runs from traps).
gpuf_chroot_umount() {
    local i mp
    for ((i = ${#GPUF_CHROOT_MOUNTS[@]} - 1; i >= 0; i--)); do
        mp="${GPUF_CHROOT_MOUNTS[i]}"
        umount -R "${mp}" 2>/dev/null || umount -R -l "${mp}" || gpuf_log "warning: could not unmount ${mp}"
    done
    GPUF_CHROOT_MOUNTS=()
}

# Deletes a root, refusing while anything is still mounted inside it (rm would walk into /dev or the sources).
gpuf_remove_root() {
    local dir="$1" mp
    [[ -e ${dir} ]] || return 0
    while read -r mp; do
        [[ -n ${mp} ]] && umount -R "${mp}" 2>/dev/null
    done < <(gpuf_mounts_below "${dir}")
    [[ -z $(gpuf_mounts_below "${dir}") ]] || gpuf_die "refusing to delete ${dir}: still mounted: $(gpuf_mounts_below "${dir}")"
    rm -rf --one-file-system "${dir}"
}

# Runs a bash command inside the root with a clean environment.
gpuf_in_root() {
    local root="$1"
    shift
    chroot "${root}" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" CI="${CI:-}" \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        GPUF_JOBS="${GPUF_JOBS:-}" CCACHE_DIR=/var/cache/ccache CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-}" \
        /bin/bash -c "$*"
}

# --- clean roots for installing the packages (scripts/test-package) -------------------------------
# A minimal root of a suite (debootstrap minbase and nothing else), cached and reused while its marker matches;
# each package test works on a throwaway copy, so the cached root stays clean.
GPUF_CLEAN_ROOT_MARKER=etc/gpuf-clean-root.manifest

gpuf_clean_root_dir() { echo "${GPUF_CI_CACHE:-/var/cache/gpuf-ci}/$1-clean"; }

# gpuf_clean_root SUITE: makes the clean root of SUITE when missing or stale; prints nothing.
gpuf_clean_root() {
    local suite="$1" root manifest partial
    root="$(gpuf_clean_root_dir "${suite}")"
    manifest="$(printf 'suite %s\nmirror %s\nvariant minbase\n' "${suite}" "${GPUF_DEBIAN13_MIRROR}")"
    if [[ -f ${root}/${GPUF_CLEAN_ROOT_MARKER} && $(<"${root}/${GPUF_CLEAN_ROOT_MARKER}") == "${manifest}" ]]; then
        gpuf_log "reusing the clean ${suite} root at ${root}"
        return 0
    fi
    if ! command -v debootstrap >/dev/null 2>&1; then
        gpuf_apt_update
        gpuf_apt_install debootstrap
    fi
    partial="${root}.partial"
    gpuf_remove_root "${root}"
    gpuf_remove_root "${partial}"
    mkdir -p "$(dirname "${root}")"
    gpuf_log "debootstrap ${suite} (minbase) into ${partial}"
    debootstrap --variant=minbase "${suite}" "${partial}" "${GPUF_DEBIAN13_MIRROR}" >"${root}.debootstrap.log" 2>&1 || {
        tail -n 30 "${root}.debootstrap.log" >&2
        gpuf_die "debootstrap ${suite} failed (full log: ${root}.debootstrap.log)"
    }
    printf '#!/bin/sh\nexit 101\n' >"${partial}/usr/sbin/policy-rc.d"
    chmod 755 "${partial}/usr/sbin/policy-rc.d"
    printf '%s\n' "${manifest}" >"${partial}/${GPUF_CLEAN_ROOT_MARKER}"
    mv "${partial}" "${root}"
}
