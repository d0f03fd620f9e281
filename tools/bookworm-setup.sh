#!/usr/bin/env bash
# hardware/SETUP.md run in order on a clean Debian bookworm, as far as a machine without a Pi can show:
# debootstrap a bookworm root into a folder, put the program in as step 1 says, then do steps 2, 3, 5
# and 5a in order inside it, checking after each step what that step says to check. The unit is
# verified offline (systemd-analyze verify and security against that root). Exit 0 when every check
# passes; each check prints PASS or FAIL.
#
#   sudo tools/bookworm-setup.sh [ROOT]        # ROOT default: .cache/bookworm-root (reused if there)
#
# What it cannot show: Raspberry Pi OS's own packages (python3-picamera2, python3-lgpio,
# python3-rpi.gpio are not in Debian's amd64 archive), the camera, the shoe, the pins, the screen on
# tty1 and a running systemd (a chroot has no PID 1): those checks are left to a real Pi, and doctor is
# run here with --skip for them.
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$PWD
ROOT=${1:-$SRC/.cache/bookworm-root}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
fails=0
check() {  # check NAME COMMAND...: run it, PASS or FAIL
    local name=$1; shift
    if "$@" >/tmp/bookworm-check.out 2>&1; then echo "PASS  $name"; else
        echo "FAIL  $name"; sed 's/^/      /' /tmp/bookworm-check.out | tail -20; fails=$((fails + 1)); fi
}
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
as_cardtable() { in_root runuser -u cardtable -- "$@"; }

[ "$(id -u)" = 0 ] || { echo "run as root (debootstrap and chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || apt-get install -y -q debootstrap >/dev/null
if [ ! -x "$ROOT/usr/bin/python3" ]; then
    echo "debootstrap bookworm into $ROOT ..."
    debootstrap --variant=minbase --include=python3,python3-venv,libzbar0,git,ca-certificates,passwd,util-linux \
        bookworm "$ROOT" "$MIRROR" >/tmp/bookworm-debootstrap.log
fi
mounted=()
cleanup() { for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done; }
trap cleanup EXIT
for m in proc dev; do
    mountpoint -q "$ROOT/$m" || { mount --bind "/$m" "$ROOT/$m"; mounted+=("$ROOT/$m"); }
done
mkdir -p "$ROOT/root/.cache/pip" && mountpoint -q "$ROOT/root/.cache/pip" \
    || { mount --bind "${PIP_CACHE:-$HOME/.cache/pip}" "$ROOT/root/.cache/pip" 2>/dev/null && mounted+=("$ROOT/root/.cache/pip"); } || true
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# pip in the root trusts what this machine trusts (a network whose proxy has its own CA)
cp "${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}" "$ROOT/etc/ssl/certs/ca-certificates.crt"

# Step 1: the program, from a wheel built from this checkout, at the tested versions.
rm -rf "$ROOT/opt/cardtable" "$ROOT/etc/cardtable" "$ROOT/etc/systemd/system/cardtable.service"
userdel cardtable --root "$ROOT" 2>/dev/null || true
rm -rf "$ROOT/var/lib/cardtable"
mkdir -p "$ROOT/opt/cardtable/wheels"
python3 -m pip wheel -q --no-deps -w "$ROOT/opt/cardtable/wheels" "$SRC" >/dev/null
cp "$SRC/constraints.txt" "$ROOT/opt/cardtable/constraints.txt"
check "1 venv with the system's packages" in_root python3 -m venv --system-site-packages /opt/cardtable/venv
check "1 pip install -c constraints.txt the wheel" in_root sh -c \
    '/opt/cardtable/venv/bin/pip install -q -c /opt/cardtable/constraints.txt /opt/cardtable/wheels/cardtable-*.whl'
check "1 cardtable --help" in_root /opt/cardtable/venv/bin/cardtable --help
check "1 cardtable --version" in_root /opt/cardtable/venv/bin/cardtable --version

# Step 2: the user, its groups (made here as the Pi has them), and the data folder.
for g in gpio video; do in_root getent group $g >/dev/null || in_root groupadd --system $g; done
check "2 useradd --system" in_root useradd --system --home-dir /var/lib/cardtable --shell /usr/sbin/nologin \
    --groups dialout,gpio,video,tty cardtable
check "2 install -d /var/lib/cardtable" in_root install -d -o cardtable -g cardtable -m 0750 /var/lib/cardtable
check "2 id cardtable lists the groups" sh -c "chroot '$ROOT' id cardtable | grep -q dialout"
check "2 the data folder is the service user's" sh -c "[ \"\$(chroot '$ROOT' stat -c %U:%a /var/lib/cardtable)\" = cardtable:750 ]"

# Step 3: the unit and the rule; before a configuration exists it must not say "enable --now".
check "3 install-files" sh -c "chroot '$ROOT' /opt/cardtable/venv/bin/cardtable install-files > /tmp/bookworm-install.out"
check "3 install-files says configuration next, not enable" sh -c \
    "grep -q 'config init' /tmp/bookworm-install.out && ! grep -q 'enable --now' /tmp/bookworm-install.out"
check "3 the unit starts this venv's cardtable" grep -q '^ExecStart=/opt/cardtable/venv/bin/cardtable run' \
    "$ROOT/etc/systemd/system/cardtable.service"

# Step 5: the configuration, checked as the service's user.
check "5 config init" in_root /opt/cardtable/venv/bin/cardtable config init /etc/cardtable/table.toml \
    --id table-01 --name "Table 1"
check "5 check-config as cardtable (--no-devices)" as_cardtable /opt/cardtable/venv/bin/cardtable check-config \
    --config /etc/cardtable/table.toml --no-devices
check "3 install-files now says enable" sh -c \
    "chroot '$ROOT' /opt/cardtable/venv/bin/cardtable install-files | grep -q 'enable --now cardtable'"

# Step 5a: doctor as cardtable, from a folder it cannot write (lgpio's pipes go to LG_WD); what needs the
# Pi's devices or a running systemd is skipped here.
check "5a doctor (data) as cardtable from /" sh -c "chroot '$ROOT' runuser -u cardtable -- sh -c \
    'cd / && /opt/cardtable/venv/bin/cardtable doctor --config /etc/cardtable/table.toml \
    --skip camera,serial,gpio,clock,broker,service'"

# Step 7, offline: the installed unit against this root's systemd units, and its hardening.
if command -v systemd-analyze >/dev/null; then
    mkdir -p "$ROOT/usr/lib/systemd/system"
    [ -e "$ROOT/usr/lib/systemd/system/getty@.service" ] || cp -a /usr/lib/systemd/system/. "$ROOT/usr/lib/systemd/system/"
    check "7 systemd-analyze verify (offline, this root)" sh -c \
        "systemd-analyze verify --man=no --root='$ROOT' cardtable.service 2>&1 | tee /dev/stderr | (! grep -q .)"
    check "7 systemd-analyze security --offline <= 4.0" systemd-analyze security --offline=true --threshold=40 \
        --root="$ROOT" cardtable.service
fi
# The club's machine, C4 and C8: its units and options file, verified offline against this root; doctor
# --club reads the options file (its broker, dashboard and TLS files are not there: only config is checked).
rm -f "$ROOT"/etc/systemd/system/cardtable-*.service "$ROOT/etc/cardtable/club.env"
check "C4 install-files --club" sh -c "chroot '$ROOT' /opt/cardtable/venv/bin/cardtable install-files --club \
    | grep -q 'club.env: written'"
if command -v systemd-analyze >/dev/null; then
    for unit in cardtable-broker.service cardtable-dashboard.service cardtable-session@2026-12-02.service; do
        check "C4 systemd-analyze verify $unit" sh -c \
            "systemd-analyze verify --man=no --root='$ROOT' $unit 2>&1 | tee /dev/stderr | (! grep -q .)"
    done
fi
check "C8 doctor --club reads club.env (disk only: nothing else runs here)" sh -c \
    "chroot '$ROOT' /opt/cardtable/venv/bin/cardtable doctor --club --skip clock,service,dashboard,broker,tls,session,backup \
    | grep -q '^OK    config  /etc/cardtable/club.env'"
echo "$fails check(s) failed"
[ "$fails" = 0 ]
