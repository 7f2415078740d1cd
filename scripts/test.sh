#!/usr/bin/env bash
# Sets up and runs every test: the Rust workspace, then the Python package and its tests.
# The README's quick start and CI (.ci/run) both call this script.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install --quiet --disable-pip-version-check "maturin>=1.5,<2" "pytest>=7"
cargo test --workspace --quiet
python3 -m pip install --quiet --disable-pip-version-check .
python3 -m pytest -q tests/python
