# shellcheck shell=bash disable=SC2034
# Shared by scripts/* and .ci/run: logging, root privileges, distro detection, the package lists and the
# configure/build/test steps of the `dev` preset. Sourced, never run.

GPUF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

gpuf_log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
gpuf_die() {
    printf 'error: %s\n' "$*" >&2
    exit 1
}

# Runs a command as root: directly when we are root (CI, chroots), otherwise through sudo.
gpuf_as_root() {
    if [[ ${EUID} -eq 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        gpuf_die "this step needs root and sudo is not installed: run as root: $*"
    fi
}

# --- distro and packages --------------------------------------------------------------------------

# Prints debian12, debian13 or ubuntu (24.04 or newer); prints nothing for anything else.
gpuf_distro() {
    local file="${1:-/etc/os-release}"
    [[ -r ${file} ]] || return 0
    (
        # shellcheck disable=SC1090
        . "${file}"
        case "${ID:-}" in
        debian)
            # Debian testing/unstable carry no VERSION_ID; they have at least trixie's packages.
            if [[ ${VERSION_ID:-} == 12 ]]; then
                echo debian12
            elif [[ -z ${VERSION_ID:-} || ${VERSION_ID} -ge 13 ]]; then
                echo debian13
            fi
            ;;
        ubuntu)
            [[ ${VERSION_ID%%.*} -ge 24 ]] && echo ubuntu
            ;;
        esac
    )
}

# What every supported distro needs: the toolchain, the required libraries (DESIGN §1), offscreen test fonts, xvfb for
# screenshots, clang-format and clang-tidy for CI, ccache for rebuilds, lld for quick links; the last line makes and
# checks the packages (CPack's dpkg-shlibdeps, the desktop entry and metainfo validators, the MIME compiler, strace for
# install_check).
GPUF_PACKAGES_COMMON=(
    cmake ninja-build g++ pkg-config ccache lld clang-format clang-tidy
    qt6-base-dev libqt6sql6-sqlite qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-svg-dev libgl-dev
    libqcustomplot-dev libxgboost-dev qtkeychain-qt6-dev libdtl-dev libmuparser-dev nlohmann-json3-dev
    libcurl4-openssl-dev libssl-dev zlib1g-dev
    fonts-dejavu-core xvfb xauth
    dpkg-dev file desktop-file-utils appstream shared-mime-info strace
    # The cluster backend's integration test starts a single-node Slurm cluster (tests/measure/slurm_cluster.sh).
    slurm-wlm munge
    # gpuf-measure runs each Python candidate in a bubblewrap sandbox (docs/python-problems.md); its tests need it.
    bubblewrap
)

# Prints the packages a distro must have, one per line.
gpuf_required_packages() {
    printf '%s\n' "${GPUF_PACKAGES_COMMON[@]}"
    case "$1" in
    # Qt 6.8 moved the SVG plugins out of libqt6svg6; KF6 makes this the "full" configuration, which also checks the
    # Python problems' PyTorch variants against their references on the CPU (PyTorch 2.6, with float8).
    debian13) printf '%s\n' qt6-svg-plugins libkf6syntaxhighlighting-dev python3-torch ;;
    esac
}

# Prints the packages installed only when the distro's archive has them.
gpuf_optional_packages() {
    case "$1" in
    ubuntu) printf '%s\n' qt6-svg-plugins libkf6syntaxhighlighting-dev ;;
    esac
}

gpuf_is_installed() { [[ $(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null) == ii* ]]; }
gpuf_has_candidate() { [[ -n $(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ && $2 != "(none)" {print $2}') ]]; }

gpuf_print_manual_install() {
    cat >&2 <<'EOF'
This distribution is not one that scripts/setup knows (Debian 12, Debian 13, Ubuntu 24.04 or newer).
Install these with your package manager, then run scripts/setup again with GPUF_SKIP_DEPS=1:
  - CMake >= 3.25, Ninja, a C++20 compiler (GCC >= 12 or Clang >= 15), pkg-config
  - Qt 6 >= 6.4 development files: Core Gui Widgets Sql (with the SQLite driver) Concurrent Network Test
    PrintSupport Svg, and the Linguist tools (lupdate/lrelease)
  - QCustomPlot built for Qt 6 (its CMake package is QCustomPlotQt6)
  - libcurl, zlib, dtl (header-only diff), XGBoost (C API), QtKeychain for Qt 6, muParser, nlohmann-json >= 3.10
  - optional: KF6 SyntaxHighlighting (code highlighting), the CUDA toolkit (gpuf-measure), ccache, clang-format
  - for screenshots: Xvfb and xauth
Package names differ between distributions; CMake's feature summary at the end of the configure step says
which required package is still missing and which optional feature is off.
EOF
}

gpuf_apt_update() {
    gpuf_as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q || gpuf_die "apt-get update failed"
}

# apt-get install without recommends; in CI the hundreds of unpacking lines would bury the build log, so they
# are kept aside and shown only on failure.
gpuf_apt_install() {
    gpuf_log "installing with apt: $*"
    local -a install=(env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@")
    if [[ -z ${CI:-} ]]; then
        gpuf_as_root "${install[@]}" || gpuf_die "apt-get install failed; gpuf needs the packages above"
        return 0
    fi
    local log
    log="$(mktemp "${TMPDIR:-/tmp}/gpuf-apt.XXXXXX")"
    if ! gpuf_as_root "${install[@]}" >"${log}" 2>&1; then
        tail -n 40 "${log}" >&2
        gpuf_die "apt-get install failed (full output: ${log})"
    fi
    grep -E '^[0-9]+ upgraded|^Need to get' "${log}" >&2 || true
    rm -f "${log}"
}

# Installs what is missing with apt; does nothing (and never calls apt) when everything is there.
gpuf_install_packages() {
    local distro="$1" pkg
    local -a missing=() optional=()
    while read -r pkg; do
        gpuf_is_installed "${pkg}" || missing+=("${pkg}")
    done < <(gpuf_required_packages "${distro}")
    while read -r pkg; do
        gpuf_is_installed "${pkg}" || optional+=("${pkg}")
    done < <(gpuf_optional_packages "${distro}")

    if ((${#missing[@]} == 0 && ${#optional[@]} == 0)); then
        gpuf_log "all build dependencies for ${distro} are installed"
        return 0
    fi
    # Optional packages alone do not justify an `apt-get update`: use what the package lists already know.
    if ((${#missing[@]} > 0)); then
        gpuf_log "updating the package lists (missing: ${missing[*]})"
        gpuf_apt_update
    fi
    for pkg in "${optional[@]}"; do
        if gpuf_has_candidate "${pkg}"; then
            missing+=("${pkg}")
        else
            gpuf_log "optional package ${pkg} is not in this distribution's archive; its feature stays off"
        fi
    done
    ((${#missing[@]} == 0)) || gpuf_apt_install "${missing[@]}"
}

# --- configure, build, test -----------------------------------------------------------------------

# The suites compile against shared precompiled headers (tests/GpufTesting.cmake); ccache caches such compiles only
# when told that a precompiled header's macros and timestamps may be ignored.
export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros}"

# The build directory: the dev preset's build/dev unless GPUF_BUILD_DIR says otherwise.
gpuf_build_dir() { echo "${GPUF_BUILD_DIR:-${GPUF_ROOT}/build/dev}"; }
gpuf_uses_preset_dir() { [[ $(gpuf_build_dir) == "${GPUF_ROOT}/build/dev" ]]; }

gpuf_configure() {
    local dir
    dir="$(gpuf_build_dir)"
    local -a args=(--preset dev -S "${GPUF_ROOT}")
    gpuf_uses_preset_dir || args+=(-B "${dir}")
    if command -v ccache >/dev/null 2>&1; then
        args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    fi
    gpuf_log "configuring (cmake --preset dev) in ${dir}"
    (cd "${GPUF_ROOT}" && cmake "${args[@]}" "$@")
}

# The "full" configuration (scripts/test-debian13, and the Debian 13 package built from it): every optional feature,
# no benchmarks (the host configuration builds them), and line tables instead of full debug information, which the
# package strips anyway; about a fifth less compile time.
gpuf_configure_full() {
    gpuf_configure -DGPUF_WITH_SYNTAX_HIGHLIGHTING=ON -DGPUF_BUILD_BENCHMARKS=OFF \
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "$@"
}

gpuf_jobs() { echo "${GPUF_JOBS:-$(nproc 2>/dev/null || echo 2)}"; }

gpuf_build() {
    gpuf_log "building with $(gpuf_jobs) jobs in $(gpuf_build_dir)"
    if gpuf_uses_preset_dir; then
        (cd "${GPUF_ROOT}" && cmake --build --preset dev -j "$(gpuf_jobs)" "$@")
    else
        cmake --build "$(gpuf_build_dir)" -j "$(gpuf_jobs)" "$@"
    fi
}

# Runs every CTest test; the preset sets QT_QPA_PLATFORM=offscreen, exported here too for --test-dir runs.
gpuf_ctest() {
    export QT_QPA_PLATFORM=offscreen
    gpuf_log "running the test suite (ctest, $(gpuf_jobs) in parallel) in $(gpuf_build_dir)"
    if gpuf_uses_preset_dir; then
        (cd "${GPUF_ROOT}" && ctest --preset dev --output-on-failure -j "$(gpuf_jobs)" "$@")
    else
        ctest --test-dir "$(gpuf_build_dir)" --output-on-failure -j "$(gpuf_jobs)" "$@"
    fi
}

# Prints a duration in seconds as "Mm SSs".
gpuf_duration() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
