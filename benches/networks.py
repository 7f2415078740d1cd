"""Benchmark: the four networks of the speed issue's "no slower" clause (`bench null`, A4,
E1-mux, T1), as CPU time per run, one or more builds alternated.

    python benches/networks.py [--rounds 7] [--network null ...] [--builtin G4 ...] BINARY [BINARY ...]

Each BINARY is the command-line tool. Each round runs every network once with every binary, in
turn (A, B, A, B, …, so that a machine that slows down during the run slows every build alike),
and measures the child's CPU time (user + system) with `wait4`. Prints one row per network and
binary: the median CPU over the rounds, the spread, and the ratio of each binary to the first,
of the medians and of the least times (on a shared virtual machine one run in a few is slowed
by 10-30 %, never sped up: for deterministic work the least of many rounds is the steadier
figure). The work done must be the same for every binary: the cell hops a run reports are
compared, and a difference is reported (the event count may differ, since a fast path may
take fewer events; `benches/same_results.py` compares the results themselves).

`--builtin NAME` (repeatable) adds any built-in, run for `--duration` (6 s by default) with its
own parameters otherwise: a lever that moves one built-in's CPU is measured on it the same way.
`--all` runs every built-in of the papers' table instead, each at its own defaults, and, with
`--over-abr`, each that has a `service` parameter once more over ABR: what a change does to
every built-in, in one alternating run. A last line gives the geometric mean of the ratios.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys

from same_results import builtins

# name -> arguments of `celltrain bench` (the runs the speed issue's figures use).
NETWORKS = {
    "null": ["null", "--hops", "8", "--seconds", "8"],
    "A4": ["A4", "--set", "duration=6 s"],
    "E1": ["E1-mux", "--set", "duration=100 s", "--set", "warmup=1 s"],
    "T1": ["T1", "--set", "duration=10 s"],
}

# `bench` prints "<name>: <n> cell-hops, <m> events in …" (packet-hops in packet mode and, first,
# in an internetwork: either is the work compared).
WORK = re.compile(r": (\d+) (?:cell|packet)-hops, (\d+) events")


def run_once(binary: str, network: str) -> tuple[float, tuple[int, int]]:
    """CPU seconds of one run, and the (cell hops, events) it reports."""
    args = [binary, "bench", *NETWORKS[network], "--repeat", "1"]
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = child.stdout.read().decode()
    err = child.stderr.read().decode()
    _, status, usage = os.wait4(child.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    found = WORK.search(out)
    if code != 0 or not found:
        sys.exit(f"error: {' '.join(args)} exited {code}: {err.strip() or out.strip()}")
    return usage.ru_utime + usage.ru_stime, (int(found.group(1)), int(found.group(2)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binaries", nargs="+", help="celltrain binaries to compare (the first is the base)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--network", action="append", choices=list(NETWORKS), help="networks to run (default: all)")
    ap.add_argument("--builtin", action="append", default=[], metavar="NAME", help="a built-in to run too (repeatable)")
    ap.add_argument("--duration", default="6 s", help="a built-in's simulated time (default: 6 s)")
    ap.add_argument("--all", action="store_true", help="every built-in at its defaults, instead of the networks")
    ap.add_argument("--over-abr", action="store_true", help="with --all: each with a `service` parameter over ABR too")
    args = ap.parse_args()
    for name in args.builtin:
        NETWORKS[name] = [name, "--set", f"duration={args.duration}"]
    networks = args.network or ([] if args.builtin or args.all else list(NETWORKS))
    networks += args.builtin
    if args.all:
        networks += every_builtin(args.binaries[0], args.over_abr)
    cpu: dict[tuple[str, int], list[float]] = {}
    work: dict[tuple[str, int], tuple[int, int]] = {}
    for r in range(args.rounds):
        for network in networks:
            for i, b in enumerate(args.binaries):
                seconds, done = run_once(b, network)
                cpu.setdefault((network, i), []).append(seconds)
                work[(network, i)] = done
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    ratios: dict[int, list[float]] = {}
    print(f"| network | binary | CPU per run (median of {args.rounds}) | range | events | ratio to first (medians) | (least) |")
    print("|---|---|---|---|---|---|---|")
    for network in networks:
        base = cpu[(network, 0)]
        for i, b in enumerate(args.binaries):
            runs = cpu[(network, i)]
            hops, events = work[(network, i)]
            ratios.setdefault(i, []).append(statistics.median(runs) / statistics.median(base))
            print(
                f"| {network} | {b} | {statistics.median(runs):.3f} s | {min(runs):.3f}–{max(runs):.3f} | {events} "
                f"| {statistics.median(runs) / statistics.median(base):.3f} | {min(runs) / min(base):.3f} |"
            )
            if hops != work[(network, 0)][0]:
                print(f"| {network} | {b} | OTHER WORK: {hops} cell hops against {work[(network, 0)][0]} | | | | |")
    for i, b in enumerate(args.binaries[1:], start=1):
        print(f"geometric mean of {b}'s ratios (medians), {len(ratios[i])} runs: {statistics.geometric_mean(ratios[i]):.3f}")


def every_builtin(binary: str, over_abr: bool) -> list[str]:
    """The built-ins of the papers' table (as `celltrain list` prints it, up to its first blank
    line), each as a network of its own at its defaults; and those with a `service` parameter
    over ABR too, if asked."""
    networks = []
    for name in builtins(binary):
        NETWORKS[name] = [name]
        networks.append(name)
        if over_abr:
            shown = subprocess.run([binary, "show", name], capture_output=True, text=True, check=True).stdout
            if re.search(r"^service *=", shown, re.MULTILINE):
                NETWORKS[f"{name} over ABR"] = [name, "--set", "service=abr"]
                networks.append(f"{name} over ABR")
    return networks


if __name__ == "__main__":
    main()
