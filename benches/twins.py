"""Benchmark: the peer twins (workloads built to do the same work as another simulator's run,
see twins/README.md), as CPU time per unit of work, one or more builds alternated.

    python benches/twins.py [--rounds 5] [--duration "100 s"] [--twin a10 ...] BINARY [BINARY ...]

A BINARY is the command-line tool, or the Python extension (`…/celltrain/_celltrain*.so`, as
installed, or a cargo build's `lib_celltrain.so`), which is then run in a fresh Python and timed
around its run alone (`_celltrain.main`, without the interpreter's start-up).

Each round runs every twin once with every binary, in turn (A, B, A, B, … so that a machine
that slows down during the run slows every build alike), and measures the child's CPU time
(user + system) with `wait4`. The unit of work is the one the peers are measured in: for the
cell twins, cells sent by every VC; for the packet twin, packets out of the bottleneck port.
Prints one row per twin and binary: median CPU per unit over the rounds, the spread, events per
unit, the ratio of each binary to the first, of the medians and of the least times (on a
shared virtual machine one run in a few is slowed by 10-30 %, never sped up: the least time of
many rounds is the steadier figure for CPU-bound, deterministic work), and the ratio of its
whole-process CPU to the peer's as twins/README.md records it, where the run's duration is one
the peer was timed at (the issue's target is 0.5, for the binary `pip install` builds).
Results (the summary less its wall time) must be identical between binaries: a difference is
reported, since a speed change must not change a result; so is a different event count or trace
hash (a fast path may change those, a refactor may not).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent / "twins"

# The peers' whole-process CPU seconds, by twin and duration (twins/README.md): LuaYATS as
# shipped for a and b, htsim for c.
PEER_SECONDS = {
    ("a10", "100 s"): 0.59,
    ("a20", "100 s"): 0.90,
    ("b", "100 s"): 1.82,
    ("c", "100 s"): 0.07,
    ("c", "1000 s"): 0.76,
}

# name -> (scenario file, extra --set options, unit)
TWINS = {
    "a10": ("a-onoff-mux.toml", ["n_sources=10"], "cell"),
    "a20": ("a-onoff-mux.toml", ["n_sources=20"], "cell"),
    "b": ("b-tcp-epd.toml", [], "cell"),
    "c": ("c-dumbbell8-packet.toml", [], "packet"),
}


def units(summary: dict, unit: str) -> int:
    """Cells sent by every VC, or packets out of the bottleneck (the packet twin's R1->R2)."""
    if unit == "cell":
        return sum(vc["cells_sent"] for vc in summary["vcs"])
    (bottleneck,) = [p for p in summary["ports"] if p["name"] == "R1->R2"]
    return int(bottleneck["packets_out"])


# Loads the extension from a file of any name (argv[1]) as `_celltrain`, runs its command line
# (argv[2], JSON) with stdout to a file (argv[3]), and prints the run's CPU seconds.
IN_PYTHON = r"""
import importlib.machinery, importlib.util, json, os, sys, time
loader = importlib.machinery.ExtensionFileLoader("_celltrain", sys.argv[1])
ext = importlib.util.module_from_spec(importlib.util.spec_from_loader("_celltrain", loader))
loader.exec_module(ext)
out = os.open(sys.argv[3], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
os.dup2(out, 1)
t0 = time.process_time()
code = ext.main(json.loads(sys.argv[2]))
seconds = time.process_time() - t0
sys.stdout.flush()
sys.stderr.write(f"{seconds!r} {code}\n")
"""


def run_once(binary: str, twin: str, duration: str) -> tuple[float, dict]:
    """CPU seconds of one run, and its summary."""
    scenario, sets, _ = TWINS[twin]
    args = [binary, "run", str(HERE / scenario), "--json", "--set", f"duration={duration}"]
    for s in sets:
        args += ["--set", s]
    if binary.endswith(".so"):
        return run_in_python(binary, ["celltrain", *args[1:]])
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(args, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            sys.exit(f"error: {' '.join(args)} exited {child.returncode}: {child.stderr.read().decode()}")
        out.seek(0)
        summary = json.load(out)
    return usage.ru_utime + usage.ru_stime, summary


def run_in_python(extension: str, argv: list[str]) -> tuple[float, dict]:
    """The Python extension's CPU seconds for one run (in a fresh interpreter), and its summary."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        done = subprocess.run(
            [sys.executable, "-c", IN_PYTHON, extension, json.dumps(argv), out.name], capture_output=True, text=True
        )
        last = done.stderr.strip().splitlines()[-1:] or [""]
        seconds, _, code = last[0].partition(" ")
        if done.returncode != 0 or code != "0":
            sys.exit(f"error: {extension} {' '.join(argv[1:])} failed: {done.stderr.strip()}")
        return float(seconds), json.loads(Path(out.name).read_text())


def comparable(summary: dict) -> dict:
    """The summary's results: without the build's identity and wall time, and without the event
    count and trace hash, which a fast path may change (compared by `same_events`)."""
    return {k: v for k, v in summary.items() if k not in ("wall_s", "events", "trace_hash", "version")}


def same_events(a: dict, b: dict) -> bool:
    """The same event count and trace hash: the same events in the same order (what a change
    that claims to move no event, a refactor, must keep)."""
    return (a["events"], a["trace_hash"]) == (b["events"], b["trace_hash"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binaries", nargs="+", help="celltrain binaries to compare (the first is the base)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--duration", default="100 s", help="simulated time of each run")
    ap.add_argument("--twin", action="append", choices=sorted(TWINS), help="twins to run (default: all)")
    args = ap.parse_args()
    twins = args.twin or list(TWINS)
    cpu: dict[tuple[str, int], list[float]] = {}
    seen: dict[tuple[str, int], dict] = {}
    for r in range(args.rounds):
        for twin in twins:
            for i, b in enumerate(args.binaries):
                seconds, summary = run_once(b, twin, args.duration)
                cpu.setdefault((twin, i), []).append(seconds)
                seen[(twin, i)] = summary
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    print(
        f"| twin | binary | CPU per unit (median of {args.rounds}) | range | events per unit "
        "| ratio to first (medians) | (least) | ÷ peer (median) | (least) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for twin in twins:
        unit = TWINS[twin][2]
        base = base_least = None
        for i, b in enumerate(args.binaries):
            s = seen[(twin, i)]
            n = units(s, unit)
            per = [c / n for c in cpu[(twin, i)]]
            med = statistics.median(per)
            base = base or med
            base_least = base_least or min(per)
            scale, label, digits = (1e9, "ns", 2) if unit == "cell" else (1e6, "µs", 4)
            peer = PEER_SECONDS.get((twin, args.duration))
            runs = cpu[(twin, i)]
            to_peer = f"{statistics.median(runs) / peer:.2f} | {min(runs) / peer:.2f}" if peer else "– | –"
            print(
                f"| {twin} | {b} | {med * scale:.{digits}f} {label} per {unit} | {min(per) * scale:.{digits}f}–{max(per) * scale:.{digits}f} "
                f"| {s['events'] / n:.3f} | {med / base:.3f} | {min(per) / base_least:.3f} | {to_peer} |"
            )
            if comparable(s) != comparable(seen[(twin, 0)]):
                print(f"| {twin} | {b} | RESULTS DIFFER from {args.binaries[0]} | | | | | | |")
            elif not same_events(s, seen[(twin, 0)]):
                print(f"| {twin} | {b} | same results, other events or order than {args.binaries[0]} | | | | | | |")


if __name__ == "__main__":
    main()
