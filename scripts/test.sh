#!/usr/bin/env bash
# Sets up and runs every test: the Rust workspace, then the Python package and its tests.
# CI (.ci/run) calls this script.
set -euo pipefail
cd "$(dirname "$0")/.."

# Python: a virtual environment (.venv, or the active one): see scripts/python-env.sh.
. scripts/python-env.sh
celltrain_python

# CELLTRAIN_SETUP_ONLY=1: stop once the Python environment takes installs (offline: pip into
# itself), before anything is downloaded; its own test uses this.
if [ -n "${CELLTRAIN_SETUP_ONLY:-}" ]; then
    pip_install --no-index pip
    echo "python environment ready: $PY"
    exit 0
fi
pip_install "maturin>=1.5,<2" "pytest>=7" "pandas>=1.5" "pyarrow>=10" "matplotlib>=3.6" "tqdm>=4.60" \
    "dask[distributed]>=2023.1" "nbformat>=5" "nbclient>=0.7" "ipykernel>=6"

# Optional system tools, from Debian's packages: headless Chromium renders the HTML report in
# one test, tshark checks our pcap captures in another. Whatever cannot be installed only
# skips its test, with a message saying so; everything else still runs.
need=()
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || need+=(chromium)
command -v tshark >/dev/null 2>&1 || need+=(tshark)
if [ "${#need[@]}" -gt 0 ]; then
    if command -v apt-get >/dev/null 2>&1; then
        sudo_cmd=""
        if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then sudo_cmd="sudo -n"; fi
        { $sudo_cmd apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${need[@]}"; } \
            >/tmp/celltrain-apt-install.log 2>&1 \
            || echo "note: could not install ${need[*]} (see /tmp/celltrain-apt-install.log); their tests will be skipped" >&2
    else
        echo "note: no apt-get: ${need[*]} not installed; their tests will be skipped" >&2
    fi
fi

cargo test --workspace --quiet
pip_install .
"$PY" -m pytest -q tests/python
