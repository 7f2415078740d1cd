#!/usr/bin/env bash
# Sets up and runs every test: the Rust workspace, then the Python package and its tests.
# CI (.ci/run) calls this script.
#
# The steps overlap, because in a fresh clone much of the time goes to one core or none: the
# wheel's build (`pip wheel .`, the same build `pip install .` makes: profile-guided, fat LTO)
# is mostly single-threaded links and training runs, and the installs wait on the network.
# So, on two cores:
#   background: the Python test requirements, and the optional system tools (network);
#   background: the wheel, built as `pip install .` builds it (log: target/test-logs/wheel.log);
#   foreground, at a lower priority: `cargo test --workspace` (builds and runs the Rust tests);
# then, once all three are done, the wheel is installed and the Python tests run against it,
# on two processes (pytest-xdist), the few that time signals alone after them.
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

# Where the time goes, on stderr: "[test.sh 312 s] ..." (seconds since the installs began).
started=$(date +%s)
say() { echo "[test.sh $(( $(date +%s) - started )) s] $*" >&2; }

logs=target/test-logs
wheel_dir=target/test-wheel
rm -rf "$logs" "$wheel_dir"
mkdir -p "$logs" "$wheel_dir"

# Job control: each background step gets a process group of its own, so that a failure (or
# Ctrl-C) ends it whole (pip, cargo, rustc) instead of leaving builds running.
set -m
bg_pids=()
stop_background() {
    local pid
    for pid in ${bg_pids[@]+"${bg_pids[@]}"}; do kill -- "-$pid" 2>/dev/null || true; done
}
trap stop_background EXIT

# wait_step PID NAME LOG: waits for a background step; if it failed, shows its whole log (the
# build's errors, pip's) and fails.
wait_step() {
    if ! wait "$1"; then
        echo "error: $2 failed; its output ($3):" >&2
        cat "$3" >&2
        exit 1
    fi
}

# What the Python tests need (pytest-xdist runs them on two processes).
{ pip_install "maturin>=1.5,<2" "pytest>=7" "pytest-xdist>=3" "pandas>=1.5" "pyarrow>=10" "matplotlib>=3.6" \
    "tqdm>=4.60" "dask[distributed]>=2023.1" "nbformat>=5" "nbclient>=0.7" "ipykernel>=6" \
    && say "test requirements installed"; } >"$logs/requirements.log" 2>&1 &
requirements_pid=$!
bg_pids+=("$requirements_pid")

# Optional system tools, from Debian's packages: headless Chromium renders the HTML report in
# one test, tshark checks our pcap captures in another. Whatever cannot be installed only
# skips its test, with a message saying so; everything else still runs.
install_system_tools() {
    local need=()
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || need+=(chromium)
    command -v tshark >/dev/null 2>&1 || need+=(tshark)
    [ "${#need[@]}" -gt 0 ] || return 0
    if command -v apt-get >/dev/null 2>&1; then
        local sudo_cmd=""
        if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then sudo_cmd="sudo -n"; fi
        { $sudo_cmd apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${need[@]}"; } \
            >/tmp/celltrain-apt-install.log 2>&1 \
            || echo "note: could not install ${need[*]} (see /tmp/celltrain-apt-install.log); their tests will be skipped"
    else
        echo "note: no apt-get: ${need[*]} not installed; their tests will be skipped"
    fi
    say "system tools: done"
}
install_system_tools >"$logs/system-tools.log" 2>&1 &
system_tools_pid=$!
bg_pids+=("$system_tools_pid")

# The wheel users get from `pip install .`: pip builds it with the package's backend
# (packaging/pgo_backend.py) and installs it; here the two halves are split, so that the build
# runs beside the Rust tests and the install waits until the requirements are in.
{ "${PIP[@]}" wheel --quiet --disable-pip-version-check --no-deps --wheel-dir "$wheel_dir" . && say "wheel built"; } \
    >"$logs/wheel.log" 2>&1 &
wheel_pid=$!
bg_pids+=("$wheel_pid")

# The Rust tests at a lower priority: the wheel's build, a chain of mostly single-threaded steps
# (links with fat LTO, the profile's training runs) that the Python tests wait for, goes first,
# and the Rust build takes the core it leaves. (On two cores: 374 s for both, against 417 s one
# after the other, and 473 s side by side at the same priority.)
nice -n 10 cargo test --workspace --quiet
say "Rust tests passed"

wait_step "$requirements_pid" "installing the test requirements" "$logs/requirements.log"
wait_step "$system_tools_pid" "installing the system tools" "$logs/system-tools.log"
wait_step "$wheel_pid" "building the wheel (pip wheel .)" "$logs/wheel.log"
# Their notes (a tool that will be skipped) and times.
cat "$logs/system-tools.log" >&2
grep -h '^\[test.sh' "$logs/requirements.log" "$logs/wheel.log" >&2 || true
bg_pids=()
set +m

wheels=("$wheel_dir"/celltrain-*.whl)
pip_install "${wheels[0]}"  # with its dependencies, as `pip install .` installs it
# (pip keeps an installed celltrain of the same version where `pip install .` would replace it.)
pip_install --force-reinstall --no-deps "${wheels[0]}"
say "wheel installed; the Python tests"
# Two worker processes; a file's tests stay together on one (test_reproduce.py's tests share a
# report that takes a minute or more to make, once). Then, alone as before, the tests marked
# `serial` (pyproject.toml): they time how soon a signal or a cancel stops work, which a busy
# neighbour would slow. Both parts run whatever the first gives; either failing fails the script.
status=0
"$PY" -m pytest -q -n 2 --dist loadfile -m "not serial" tests/python || status=$?
say "Python tests, serial ones"
"$PY" -m pytest -q -m serial tests/python || status=$?
exit "$status"
