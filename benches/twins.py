"""Benchmark: the peer twins (workloads built to do the same work as another simulator's run,
see twins/README.md), as CPU time per unit of work, one or more builds alternated.

    python benches/twins.py [--rounds 5] [--duration "100 s"] [--twin a10 ...] BINARY [BINARY ...]

Each round runs every twin once with every binary, in turn (A, B, A, B, … so that a machine
that slows down during the run slows every build alike), and measures the child's CPU time
(user + system) with `wait4`. The unit of work is the one the peers are measured in: for the
cell twins, cells sent by every VC; for the packet twin, packets out of the bottleneck port.
Prints one row per twin and binary: median CPU per unit over the rounds, the spread, events per
unit, and the ratio of each binary to the first, of the medians and of the least times (on a
shared virtual machine one run in a few is slowed by 10-30 %, never sped up: the least time of
many rounds is the steadier figure for CPU-bound, deterministic work). Results (the summary less its wall time) must
be identical between binaries: a difference is reported, since a speed change must not change
a result; so is a different event count or trace hash (a fast path may change those, a
refactor may not).
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


def run_once(binary: str, twin: str, duration: str) -> tuple[float, dict]:
    """CPU seconds of one run, and its summary."""
    scenario, sets, _ = TWINS[twin]
    args = [binary, "run", str(HERE / scenario), "--json", "--set", f"duration={duration}"]
    for s in sets:
        args += ["--set", s]
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(args, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            sys.exit(f"error: {' '.join(args)} exited {child.returncode}: {child.stderr.read().decode()}")
        out.seek(0)
        summary = json.load(out)
    return usage.ru_utime + usage.ru_stime, summary


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
        "| ratio to first (medians) | (least) |"
    )
    print("|---|---|---|---|---|---|---|")
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
            scale, label = (1e9, "ns") if unit == "cell" else (1e6, "µs")
            print(
                f"| {twin} | {b} | {med * scale:.2f} {label} per {unit} | {min(per) * scale:.2f}–{max(per) * scale:.2f} "
                f"| {s['events'] / n:.3f} | {med / base:.3f} | {min(per) / base_least:.3f} |"
            )
            if comparable(s) != comparable(seen[(twin, 0)]):
                print(f"| {twin} | {b} | RESULTS DIFFER from {args.binaries[0]} | | | | |")
            elif not same_events(s, seen[(twin, 0)]):
                print(f"| {twin} | {b} | same results, other events or order than {args.binaries[0]} | | | | |")


if __name__ == "__main__":
    main()
