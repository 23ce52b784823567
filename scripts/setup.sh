#!/usr/bin/env bash
# Install everything synth needs on a fresh Debian 12/13 machine: Python's venv module, Chromium, fonts, Node.js
# (apt, as root or through sudo), a venv with the package, and the design systems and icon sets from npm. Idempotent: a second run only checks, and a half-made
# .venv is rebuilt. Usage: scripts/setup.sh [--test]  (--test adds the test extras)
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
if ! command -v python3 >/dev/null; then
  need_apt+=(python3 python3-venv)
elif ! python3 -c "import ensurepip" 2>/dev/null; then
  need_apt+=(python3-venv)   # Debian's python3 leaves out ensurepip, without which `python3 -m venv` fails
fi
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v npm >/dev/null || need_apt+=(nodejs npm)
fonts=/usr/share/fonts
[ -f $fonts/opentype/noto/NotoSansCJK-Bold.ttc ] && [ -f $fonts/opentype/noto/NotoSerifCJK-Bold.ttc ] \
  || need_apt+=(fonts-noto-cjk)
[ -f $fonts/truetype/dejavu/DejaVuSans-Bold.ttf ] && [ -f $fonts/truetype/dejavu/DejaVuSerif-Bold.ttf ] \
  || need_apt+=(fonts-dejavu-core)
[ -f $fonts/truetype/liberation/LiberationSans-Bold.ttf ] && [ -f $fonts/truetype/liberation/LiberationMono-Bold.ttf ] \
  || need_apt+=(fonts-liberation)
# interface faces that sites and apps use (synth/screens/themes.py)
[ -f $fonts/opentype/inter/Inter-Regular.otf ] || need_apt+=(fonts-inter)
[ -f $fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf ] || need_apt+=(fonts-roboto-unhinted)
[ -f $fonts/truetype/open-sans/OpenSans-Regular.ttf ] || need_apt+=(fonts-open-sans)
# photographs and pictures for the screens' images (synth/screens/imagery.py); a file each package has on 12 and 13
bg=/usr/share/backgrounds
[ -f /usr/share/gnome-background-properties/adwaita.xml ] || need_apt+=(gnome-backgrounds)
[ -f $bg/mate/nature/Garden.jpg ] || need_apt+=(mate-backgrounds)
[ -f $bg/calla.png ] || need_apt+=(ukui-wallpapers)
[ -f $bg/Bridge_by_Sander_Klootwijk.jpg ] || need_apt+=(lomiri-wallpapers-16.04)
[ -f $bg/Kleiber_by_Lukas_Baubkus.jpg ] || need_apt+=(lomiri-wallpapers-20.04)
[ -f /usr/share/wallpapers/Path/contents/images/1920x1080.jpg ] || need_apt+=(plasma-workspace-wallpapers)
# the English word list word_order's pools were drawn from; tests/families/test_family_word_order.py re-derives them
[ -f /usr/share/dict/american-english ] || need_apt+=(wamerican)
if [ ${#need_apt[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null && SUDO="sudo"
  fi
  if ! command -v apt-get >/dev/null || { [ "$(id -u)" != 0 ] && [ -z "$SUDO" ]; }; then
    echo "setup needs the Debian packages ${need_apt[*]}: run 'apt-get install ${need_apt[*]}' as root, then rerun $0" >&2
    exit 1
  fi
  echo "installing ${need_apt[*]} with apt-get"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
python3 -c "import sys; sys.exit(sys.version_info < (3, 11))" \
  || { echo "setup needs Python 3.11 or newer; python3 is $(python3 -V 2>&1)" >&2; exit 1; }

# a venv whose creation was cut short (no pip, or an interpreter that no longer runs) is rebuilt from scratch
if [ -e .venv ] && ! { [ -x .venv/bin/pip ] && .venv/bin/python -m pip --version >/dev/null 2>&1; }; then
  echo "rebuilding the incomplete .venv"
  rm -rf .venv
fi
[ -d .venv ] || python3 -m venv .venv
extras=""; [ "${1:-}" = "--test" ] && extras="[test]"
log=.venv/install.log
if ! { .venv/bin/pip install -q --upgrade pip && .venv/bin/pip install -q -e ".${extras}"; } >"$log" 2>&1; then
  tail -20 "$log" >&2
  echo "setup failed: pip install did not succeed (full log: $log)" >&2
  exit 1
fi
# design systems and icon sets, pinned by vendor/package-lock.json, into SYNTH_NPM (synth/core/paths.py)
npm_dir="${SYNTH_NPM:-${XDG_DATA_HOME:-$HOME/.local/share}/synth/npm}"
if [ ! -d "$npm_dir/node_modules" ] || ! cmp -s vendor/package-lock.json "$npm_dir/package-lock.json"; then
  echo "installing the design systems and icon sets (npm ci) into $npm_dir"
  mkdir -p "$npm_dir" && cp vendor/package.json vendor/package-lock.json "$npm_dir/"
  if ! (cd "$npm_dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) >"$npm_dir/install.log" 2>&1; then
    tail -20 "$npm_dir/install.log" >&2
    rm -f "$npm_dir/package-lock.json"   # so that the next run tries again
    echo "setup failed: npm ci did not succeed (full log: $npm_dir/install.log)" >&2
    exit 1
  fi
fi

.venv/bin/python -c "import synth, playwright, albumentations, webdataset" \
  || { echo "setup failed: the package does not import" >&2; exit 1; }
