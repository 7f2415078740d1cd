# Sourced by quickstart.sh and test.sh: picks the Python that celltrain is installed into, so
# that the scripts work where the system Python refuses `pip install` (PEP 668: Debian 12,
# Ubuntu 23.04 and later). Sets PY (the interpreter) and PIP (how to run pip for it).
#
#   - inside an active virtual environment ($VIRTUAL_ENV): that one;
#   - else $CELLTRAIN_VENV, by default .venv in the repository, created if need be (with the
#     system's site packages visible, so that what the system already has is not downloaded
#     again). Where `python3 -m venv` cannot install pip (Debian without python3-venv), the
#     environment is made without pip and the system's pip installs into it.
#
# PYTHON names the interpreter to build the environment from (default python3).

celltrain_python() {
    local base="${PYTHON:-python3}"
    command -v "$base" >/dev/null 2>&1 || { echo "error: $base not found (Python 3.9+ is required)" >&2; return 1; }
    if [ -n "${VIRTUAL_ENV:-}" ] && [ -x "$VIRTUAL_ENV/bin/python" ]; then
        PY="$VIRTUAL_ENV/bin/python"
    else
        local venv="${CELLTRAIN_VENV:-$PWD/.venv}"
        if [ ! -x "$venv/bin/python" ]; then
            echo "creating a Python virtual environment in $venv" >&2
            if ! "$base" -m venv --system-site-packages "$venv" >/dev/null 2>&1; then
                rm -rf "$venv"
                "$base" -m venv --system-site-packages --without-pip "$venv" || {
                    echo "error: cannot create a virtual environment (Debian/Ubuntu: apt-get install python3-venv)" >&2
                    return 1
                }
            fi
        fi
        PY="$venv/bin/python"
    fi
    if "$PY" -m pip --version >/dev/null 2>&1; then
        PIP=("$PY" -m pip)
    elif "$base" -m pip --version >/dev/null 2>&1; then
        # An environment without pip of its own: the base interpreter's pip installs into it.
        PIP=("$base" -m pip --python "$PY")
    else
        echo "error: no pip for $PY (Debian/Ubuntu: apt-get install python3-venv python3-pip)" >&2
        return 1
    fi
    export PY
}

pip_install() { "${PIP[@]}" install --quiet --disable-pip-version-check "$@"; }
