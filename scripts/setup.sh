#!/usr/bin/env bash
# Install everything synth needs on a fresh Debian machine: Chromium, fonts, a venv with the package.
# Idempotent: a second run only checks. Usage: scripts/setup.sh [--test]  (--test adds the test extras)
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc ] || need_apt+=(fonts-noto-cjk)
[ -d /usr/share/fonts/truetype/dejavu ] || need_apt+=(fonts-dejavu-core)
[ -d /usr/share/fonts/truetype/liberation ] || need_apt+=(fonts-liberation)
if [ ${#need_apt[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  echo "installing ${need_apt[*]} with apt-get"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
extras=""; [ "${1:-}" = "--test" ] && extras="[test]"
log=.venv/install.log
if ! { .venv/bin/pip install -q --upgrade pip && .venv/bin/pip install -q -e ".${extras}"; } >"$log" 2>&1; then
  tail -20 "$log" >&2
  echo "setup failed: pip install did not succeed (full log: $log)" >&2
  exit 1
fi
.venv/bin/python -c "import synth, playwright, albumentations, webdataset" \
  || { echo "setup failed: the package does not import" >&2; exit 1; }
