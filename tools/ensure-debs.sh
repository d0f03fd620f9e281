#!/usr/bin/env bash
# Install the Debian packages named as arguments, but only those that are missing.
# Works as root or through sudo; prints what it installs. Used by the Makefile.
set -euo pipefail
missing=()
for pkg in "$@"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" && continue
  # a name another package provides (trixie's libzbar0t64 provides libzbar0)
  dpkg-query -W -f='${db:Status-Abbrev} ${Provides}\n' 2>/dev/null | grep '^ii' \
    | grep -E "[ ,]$pkg( |,|\$)" >/dev/null && continue  # not -q: pipefail would see a SIGPIPE
  missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing Debian packages: ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
