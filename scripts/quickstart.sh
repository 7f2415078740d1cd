#!/usr/bin/env bash
# Installs celltrain and reproduces the papers' experiments that it can run today, in quick
# mode (short runs, one seed: well under a minute), then prints where the report is.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check .
celltrain reproduce all --quick --out results/report
echo
echo "Open $(pwd)/results/report/index.html in a browser (self-contained), or read results/report/index.md."
