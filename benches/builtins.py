"""Benchmark: every cell-level built-in per cell-hop, against the null pipeline, and the pairs
that compare ABR with UBR and GFR.1 with GFR.2 on one network (the speed issue's targets: every
cell-level built-in at least half of the null pipeline's cell-hops per second; A3 and A5-udp over
ABR, and G2, at most 1.25 times A3, A5-udp and G1 per cell-hop).

    python benches/builtins.py [--rounds 3] [--instructions] [--only NAME ...] BINARY

BINARY is the command-line tool. Each built-in runs `celltrain bench NAME` twice, for a short
and a long simulated time (0.2 s and 1.2 s after a 0.1 s warm-up where it has one; 2 s and 10 s for
those without a warm-up, whose TCP waits out coarse timers), and the figure is the difference
of the two divided by the difference of their cell-hops: what a cell-hop costs once the run is
going, without start-up, set-up and the first slow start. (Where the run moves fewer than half
its cells between the two, its TCP waiting out a timer meanwhile, the figure is the long run's
whole, start-up included, and is marked so.) Over ABR: every built-in whose
parameters include `service`, once more with `service = "abr"`; A5-udp also with its sources
paced below their fair share, under both services.

The default figure is CPU time (user + system, from `wait4`), the median of `--rounds` rounds,
on runs five times as long (1 s and 6 s; 10 s and 60 s);
`--instructions` counts instructions under callgrind instead (one run each), which a shared
machine does not move. Packet networks are listed and skipped; an internetwork (LANs behind
routers on an ATM backbone) is measured per cell-hop, its packets' work included, and marked so.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

HOPS = re.compile(r": (\d+) (cell|packet)-hops, (\d+) events")
# An internetwork's cells, on a line of their own after its packet-hops.
CELLS = re.compile(r"cells: (\d+) cell-hops")
REFS = re.compile(r"refs:\s+([\d,]+)")


def builtins(binary: str) -> list[str]:
    """The built-ins' names, as `celltrain list` prints them (up to the papers' table)."""
    out = subprocess.run([binary, "list"], capture_output=True, text=True, check=True).stdout
    names = []
    for line in out.splitlines()[1:]:
        if not line.strip():
            break
        names.append(line.split()[0])
    return names


def accepts(binary: str, name: str, sets: list[str]) -> bool:
    """Whether `bench NAME` takes these `--set`s (a parameter the built-in does not declare fails)."""
    args = [binary, "bench", name, "--repeat", "1", "--set", "duration=1 ms"]
    for s in sets:
        args += ["--set", s]
    return subprocess.run(args, capture_output=True).returncode == 0


def measure(binary: str, args: list[str], instructions: bool) -> tuple[float, int, str]:
    """(CPU seconds or instructions, hops, "cell" or "packet") of one `bench` run."""
    cmd = [binary, "bench", *args, "--repeat", "1"]
    if instructions:
        with tempfile.NamedTemporaryFile() as out:
            cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}", *cmd]
            done = subprocess.run(cmd, capture_output=True, text=True)
        cost = float(REFS.search(done.stderr).group(1).replace(",", "")) if done.returncode == 0 else 0.0
        text, code = done.stdout, done.returncode
    else:
        child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        text = child.stdout.read().decode()
        child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        cost = usage.ru_utime + usage.ru_stime
    found = HOPS.search(text)
    if code != 0 or not found:
        sys.exit(f"error: {' '.join(cmd)} exited {code}: {text.strip()}")
    cells = CELLS.search(text)
    if cells:
        return cost, int(cells.group(1)), "cells and packets"
    return cost, int(found.group(1)), found.group(2)


def per_hop(binary: str, name: str, sets: list[str], warmup: bool, rounds: int, instructions: bool):
    """(Cost per cell-hop of a built-in once going (see the module's text), whether it carries
    packets too, whether the figure is the long run's whole), or None for a packet network."""
    short, long = ("0.2 s", "1.2 s") if warmup else ("2 s", "10 s")
    if not instructions:
        # (CPU time is read in scheduler ticks: runs of a tenth of a second would be noise.)
        short, long = ("1 s", "6 s") if warmup else ("10 s", "60 s")
    extra = ["--set", "warmup=0.1 s"] if warmup else []
    for s in sets:
        extra += ["--set", s]
    costs = {short: [], long: []}
    hops = {}
    for _ in range(1 if instructions else rounds):
        for d in (short, long):
            cost, n, unit = measure(binary, [name, "--set", f"duration={d}", *extra], instructions)
            if unit == "packet":
                return None
            costs[d].append(cost)
            hops[d] = n
    extra_hops = hops[long] - hops[short]
    if 2 * extra_hops < hops[long]:
        return statistics.median(costs[long]) / hops[long], unit != "cell", True
    cost = (statistics.median(costs[long]) - statistics.median(costs[short])) / extra_hops
    return cost, unit != "cell", False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--instructions", action="store_true", help="instructions under callgrind, not CPU time")
    ap.add_argument("--only", action="append", help="these built-ins only (and null)")
    args = ap.parse_args()
    unit = "instructions" if args.instructions else "ns"
    scale = 1.0 if args.instructions else 1e9

    def null_cost(seconds: str) -> tuple[float, int]:
        cost, n, _ = measure(args.binary, ["null", "--seconds", seconds], args.instructions)
        return cost, n

    lengths = ("0.2", "1.2") if args.instructions else ("1", "6")
    runs = [null_cost(s) for s in lengths for _ in range(1 if args.instructions else args.rounds)]
    half = len(runs) // 2
    short = statistics.median(c for c, _ in runs[:half])
    long = statistics.median(c for c, _ in runs[half:])
    null = (long - short) / (runs[-1][1] - runs[0][1]) * scale
    print(f"| run | {unit} per cell-hop | null's / this (target ≥ 0.5) |")
    print("|---|---|---|")
    print(f"| null | {null:.1f} | 1.000 |")
    figures = {}
    for name in args.only or builtins(args.binary):
        warmup = accepts(args.binary, name, ["warmup=0.5 ms"])
        variants = [("", [])]
        if accepts(args.binary, name, ["service=abr"] + (["warmup=0.5 ms"] if warmup else [])):
            variants.append((" over ABR", ["service=abr"]))
        for label, sets in variants:
            found = per_hop(args.binary, name, sets, warmup, args.rounds, args.instructions)
            if found is None:
                print(f"| {name}{label} | (a packet network: skipped) | |")
                continue
            cost, packets, whole = found
            figures[name + label] = cost * scale
            note = " (with its LANs' packets)" if packets else ""
            note += " (the long run whole: idle between)" if whole else ""
            print(f"| {name}{label}{note} | {cost * scale:.1f} | {null / (cost * scale):.3f} |", flush=True)
    if "A5-udp" in figures:
        # Greedy UDP over UBR loses most cells at the first switch's EPD (cheap hops); paced
        # below its fair share (149.76 Mbit/s over 10 sources) it crosses the same hops as
        # over ABR, which then compares the two services' cost per hop, not two mixes of hops.
        paced = "udp_rate=13 Mbit/s"
        for label, sets in ((" at 13 Mbit/s", [paced]), (" over ABR at 13 Mbit/s", [paced, "service=abr"])):
            cost, _, _ = per_hop(args.binary, "A5-udp", sets, True, args.rounds, args.instructions)
            figures["A5-udp" + label] = cost * scale
            print(f"| A5-udp{label} | {cost * scale:.1f} | {null / (cost * scale):.3f} |", flush=True)
    pairs = [
        ("A3 over ABR", "A3"),
        ("A5-udp over ABR", "A5-udp"),
        ("A5-udp over ABR at 13 Mbit/s", "A5-udp at 13 Mbit/s"),
        ("G2", "G1"),
    ]
    print("\n| pair | ratio per cell-hop (target ≤ 1.25) |\n|---|---|")
    for a, b in pairs:
        if a in figures and b in figures:
            print(f"| {a} / {b} | {figures[a] / figures[b]:.3f} |")


if __name__ == "__main__":
    main()
