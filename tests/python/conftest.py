"""Shared settings of the Python tests: short runs keep the whole suite within minutes."""

import os
import subprocess
import sys

import pytest

#: Short runs of the two-node scenarios (A1-udp, A4, A5-udp).
SHORT = {"duration": "0.3 s", "warmup": "0.1 s"}
#: Short runs of the multiplexer (E1-mux).
SHORT_E1 = {"duration": "2 s", "warmup": "0.5 s"}


def celltrain_cli(*args, **kwargs):
    """Runs ``python -m celltrain ARGS`` (the console script's code) and returns the result."""
    kwargs.setdefault("capture_output", True)
    kwargs.setdefault("text", True)
    env = dict(os.environ)
    env.setdefault("PYTHONUNBUFFERED", "1")
    return subprocess.run([sys.executable, "-m", "celltrain", *args], env=env, **kwargs)


@pytest.fixture
def cli():
    return celltrain_cli
