"""Exactness check between two builds: every built-in scenario (the short runs of the golden
test, `crates/celltrain/tests/scenarios.rs`), T1 as a packet network and with Vegas-AFR, A1-tcp,
A3, A4, A9, A12-ubr, A13, A5-udp and A7-udp over ABR, and the peer twins (2 s), each run by both
binaries; prints, per run,
whether the whole summary (less `wall_s` and `version`) is the same, and which fields differ.

    python benches/same_results.py [--results-only] [--only NAME ...] OLD NEW

A refactor or a speed change that keeps the order of events must give the same summaries,
event counts and trace hashes included (the default). A fast path that takes a different
number of events (carrying ahead) must give the same results: `--results-only` then lets the
event count and the trace hash differ. Exits with 1 when a run differs, 2 when one fails.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

TWINS = Path(__file__).resolve().parent / "twins"

# The golden test's short runs (`short` in crates/celltrain/tests/scenarios.rs).
SHORT = {
    "E1-mux": ["duration=3 s", "warmup=0.5 s", "n_rt=8", "n_nrt=8"],
    **{
        n: ["duration=1.5 s", "warmup=0.5 s"]
        for n in ("A1-tcp", "A2-ubr", "A3", "A5-tcp", "A6", "A7-tcp", "A9", "A10-tcp", "A12-ubr", "A13")
    },
    **{n: ["duration=4 s", "warmup=1 s"] for n in ("E2", "E3", "E4")},
    "T1": ["duration=2 s"],
    "G1": ["duration=2 s"],
    "G2": ["duration=2 s"],
    "G3": ["duration=1 s", "hosts_per_lan=3"],
    "G4": ["duration=1 s", "hosts_per_lan=3"],
    **{f"V{i}": ["duration=30 s"] for i in range(1, 8)},
    **{n: ["transfer=1 MB", "duration=5 s"] for n in ("L1", "L1-atm")},
}
DEFAULT_SHORT = ["duration=0.5 s", "warmup=0.1 s"]


def builtins(binary: str) -> list[str]:
    """The built-in scenarios `list` names (its table ends at the first blank line)."""
    lines = subprocess.run([binary, "list"], capture_output=True, text=True, check=True).stdout.splitlines()
    names = []
    for line in lines[1:]:
        if not line.strip():
            break
        names.append(line.split()[0])
    return names


def runs(binary: str) -> list[tuple[str, str, list[str]]]:
    """(label, scenario, --set options) of every run compared."""
    out = [(n, n, SHORT.get(n, DEFAULT_SHORT)) for n in builtins(binary)]
    out.append(("T1 packet", "T1", SHORT["T1"] + ["mode=packet"]))
    out.append(("T1 vegas-afr", "T1", SHORT["T1"] + ["variant=vegas-afr"]))
    # Over ABR: TCP into one host (A1-tcp), through a chain of switches (A9) and behind LANs
    # (A12-ubr, A13), their data cells carried into their hosts; UDP too.
    over_abr = ("A1-tcp", "A3", "A4", "A9", "A12-ubr", "A13", "A5-udp", "A7-udp")
    out += [(f"{n} abr", n, SHORT.get(n, DEFAULT_SHORT) + ["service=abr"]) for n in over_abr]
    # Every scheduler and GFR design of the scheduler-based switches (G2 runs Virtual Spacing
    # with per-VC thresholds).
    out += [(f"G2 {s}", "G2", SHORT["G2"] + [f"scheduler={s}"]) for s in ("wfq", "wrr", "priority")]
    out.append(("G2 frame-red", "G2", SHORT["G2"] + ["design=frame-red"]))
    for twin in sorted(TWINS.glob("*.toml")):
        out.append((f"twin {twin.stem}", str(twin), ["duration=2 s"]))
    return out


def summary(binary: str, scenario: str, sets: list[str]) -> dict | None:
    args = [binary, "run", scenario, "--json"]
    for s in sets:
        args += ["--set", s]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        print(f"  {binary}: {p.stderr.strip()[:300]}")
        return None
    d = json.loads(p.stdout)
    d.pop("wall_s", None)
    d.pop("version", None)
    return d


def flatten(value, path: str = "") -> dict[str, object]:
    """Every leaf of a JSON value by its path (`/flows/0/goodput_bps`)."""
    if isinstance(value, dict):
        return {k: v for key, item in value.items() for k, v in flatten(item, f"{path}/{key}").items()}
    if isinstance(value, list):
        return {k: v for i, item in enumerate(value) for k, v in flatten(item, f"{path}/{i}").items()}
    return {path: value}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--results-only", action="store_true", help="let the event count and the trace hash differ")
    ap.add_argument("--only", action="append", help="compare only these runs (labels as printed)")
    args = ap.parse_args()
    ignored = {"/events", "/trace_hash"} if args.results_only else set()
    differing = failed = 0
    for label, scenario, sets in runs(args.old):
        if args.only and label not in args.only:
            continue
        old, new = summary(args.old, scenario, sets), summary(args.new, scenario, sets)
        if old is None or new is None:
            failed += 1
            print(f"{label}: failed")
            continue
        a, b = flatten(old), flatten(new)
        fields = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k) and k not in ignored)
        if fields:
            differing += 1
            shown = ", ".join(fields[:6]) + (f" and {len(fields) - 6} more" if len(fields) > 6 else "")
            print(f"{label}: {len(fields)} fields differ: {shown}")
        else:
            print(f"{label}: same")
    print(f"{differing} runs differ, {failed} failed")
    sys.exit(2 if failed else 1 if differing else 0)


if __name__ == "__main__":
    main()
