#!/usr/bin/env bash
# Installs celltrain and reproduces the papers' experiments that it can run today, in quick
# mode (short runs, one seed: well under a minute), then prints where the report is.
set -euo pipefail
cd "$(dirname "$0")/.."
# Python: a virtual environment (.venv, or the active one): see scripts/python-env.sh.
. scripts/python-env.sh
celltrain_python
pip_install .
"$PY" -m celltrain reproduce all --quick --out results/report
echo
echo "Open $(pwd)/results/report/index.html in a browser (self-contained), or read results/report/index.md."
if [ -z "${VIRTUAL_ENV:-}" ]; then
    echo "celltrain is installed in $(dirname "$(dirname "$PY")"): 'source $(dirname "$PY")/activate' to use it."
fi
