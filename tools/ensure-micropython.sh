#!/usr/bin/env bash
# MicroPython's WebAssembly port (npm), pinned, for running the shoe firmware's tests under the
# MicroPython VM in Node (tests/shoe/test_micropython.py). Installs Node from Debian when missing.
set -euo pipefail
PKG=@micropython/micropython-webassembly-pyscript
VERSION=1.27.0
DIR=.cache/micropython-wasm
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  tools/ensure-debs.sh nodejs npm
fi
have=$(node -p "try { require('./$DIR/node_modules/$PKG/package.json').version } catch (e) { '' }")
if [ "$have" != "$VERSION" ]; then
  echo "installing $PKG@$VERSION into $DIR"
  npm install --prefix "$DIR" --no-save --no-audit --no-fund --loglevel=error "$PKG@$VERSION"
fi
