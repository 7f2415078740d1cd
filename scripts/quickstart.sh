#!/usr/bin/env bash
# Installs celltrain and runs a built-in scenario, printing its summary.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check .
celltrain run A4 --out results/A4
