"""Benchmark: every cell-level built-in per cell-hop, against the null pipeline, and the pairs
that compare ABR with UBR and GFR.1 with GFR.2 on one network (the speed issue's targets: every
cell-level built-in at least half of the null pipeline's cell-hops per second; A3 and A5-udp over
ABR, and G2, at most 1.25 times A3, A5-udp and G1 per cell-hop).

    python benches/builtins.py [--rounds 3] [--instructions | --alternate] [--only NAME]...
                               [--without FAST_PATH]... BINARY

BINARY is the command-line tool. Each built-in runs `celltrain bench NAME` for a short and a
long simulated time (a `duration` of 0.2 s and 1.2 s, with a 0.1 s warm-up where the built-in
has one; 2 s and 10 s for those without, BKD97's runs and L1-atm, whose TCP waits out coarse
timers), and the figure is the difference of the two runs' costs divided by the difference of
their cell-hops: what a cell-hop costs once the run is going, without the process's start-up,
the scenario's set-up and the first slow start. Where the run moves fewer than half its cells
between the two (its TCP waiting out a timer meanwhile), the difference is taken from a 1 ms
run instead, so start-up is still left out but the first slow start is in, and the row says so.
Over ABR: every built-in whose parameters include `service`, once more with `service = "abr"`;
A5-udp also with its sources paced below their fair share, under both services.

The default figure is CPU time (user + system, from `wait4`), the median of `--rounds` rounds,
on runs five or six times as long (1 s and 6 s; 10 s and 60 s); it is only as steady as the
machine is quiet. `--instructions` counts instructions under callgrind instead (one run each),
which a shared machine does not move. Packet networks are listed and skipped; an internetwork
(LANs behind routers on an ATM backbone) is measured per cell-hop, its packets' work included,
and marked so. A built-in whose run fails is reported, with its error, and the rest go on.

`--alternate` measures the targets' ratios instead, each in one alternating run: every round
runs both members of a pair (A3 over ABR and A3, the paced A5-udp pair, A5-udp over ABR and
A5-udp, G2 and G1), and each built-in given with `--only` beside the null pipeline, one after
the other, and gives a ratio of its own; the table shows the median of the rounds' ratios and
their range. On a shared machine a whole table's rows drift apart by more than these ratios'
differences (a row moved by up to 30 % between two tables); runs taken in turn drift together.

`--without FAST_PATH` (repeatable) passes `--without` to every run, the null pipeline's too:
what a fast path is worth on each built-in is this table with it off over the table with all on
(benches/README.md).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import tempfile

HOPS = re.compile(r": (\d+) (cell|packet)-hops, (\d+) events")
# An internetwork's cells, on a line of their own after its packet-hops.
CELLS = re.compile(r"cells: (\d+) cell-hops")
REFS = re.compile(r"refs:\s+([\d,]+)")


class RunFailed(Exception):
    """A `bench` run that failed, with what it said."""


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


# `--without` options given to every run (see the module's text).
WITHOUT: list[str] = []


def measure(binary: str, args: list[str], instructions: bool) -> tuple[float, int, str]:
    """(CPU seconds or instructions, cell-hops, "cell", "cells and packets" or "packet") of one
    `bench` run; raises `RunFailed`."""
    cmd = [binary, "bench", *args, "--repeat", "1", *WITHOUT]
    if instructions:
        with tempfile.NamedTemporaryFile() as out:
            cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}", *cmd]
            done = subprocess.run(cmd, capture_output=True, text=True)
        text, err, code = done.stdout, done.stderr, done.returncode
        refs = REFS.search(err)
        cost = float(refs.group(1).replace(",", "")) if refs else None
    else:
        child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        text = child.stdout.read().decode()
        err = child.stderr.read().decode()
        _, status, usage = os.wait4(child.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        cost = usage.ru_utime + usage.ru_stime
    found = HOPS.search(text)
    if code != 0 or not found or cost is None:
        said = [line for line in (err + text).splitlines() if line.strip() and not line.startswith("==")]
        raise RunFailed(f"{' '.join(args)} exited {code}: {said[-1] if said else 'no output'}")
    cells = CELLS.search(text)
    if cells:
        return cost, int(cells.group(1)), "cells and packets"
    return cost, int(found.group(1)), found.group(2)


class Row:
    """One row of the table: a built-in with its `--set`s, measured a round at a time."""

    def __init__(self, binary: str, name: str, sets: list[str], warmup: bool, instructions: bool):
        self.binary, self.name, self.instructions = binary, name, instructions
        self.warmup = warmup
        if instructions:
            self.short, self.long = ("0.2 s", "1.2 s") if warmup else ("2 s", "10 s")
        else:
            # (CPU time is read in scheduler ticks: runs of a tenth of a second would be noise.)
            self.short, self.long = ("1 s", "6 s") if warmup else ("10 s", "60 s")
        self.overrides = [arg for s in sets for arg in ("--set", s)]
        self.costs: dict[str, list[float]] = {self.short: [], self.long: [], "1 ms": []}
        self.hops: dict[str, int] = {}
        self.unit = "cell"
        self.from_start = False

    @staticmethod
    def null(binary: str) -> "Row":
        """The null pipeline, over 1 s and 6 s."""
        row = Row(binary, "null", [], False, False)
        row.short, row.long = "1", "6"
        row.costs = {"1": [], "6": []}
        return row

    def run(self, duration: str) -> None:
        """One run of `duration` (the 1 ms run with a shorter warm-up), its cost kept."""
        if self.name == "null":
            args = ["null", "--seconds", duration]
        else:
            warmup_for = "0.5 ms" if duration == "1 ms" else "0.1 s"
            warm = ["--set", f"warmup={warmup_for}"] if self.warmup else []
            args = [self.name, "--set", f"duration={duration}", *warm, *self.overrides]
        cost, n, self.unit = measure(self.binary, args, self.instructions)
        self.costs[duration].append(cost)
        self.hops[duration] = n

    def round(self) -> bool:
        """One round: the short and the long run (and, where the run idles between them, the
        1 ms run: see the module's text). False for a packet network, which is not measured."""
        for d in (self.short, self.long):
            self.run(d)
            if self.unit == "packet":
                return False
        if len(self.costs[self.long]) == 1:
            self.from_start = 2 * (self.hops[self.long] - self.hops[self.short]) < self.hops[self.long]
        if self.from_start:
            self.run("1 ms")
        return True

    def _base(self) -> str:
        return "1 ms" if self.from_start else self.short

    def per_hop(self) -> float:
        """The cost of a cell-hop once going: from the medians of the rounds."""
        base = self._base()
        short_cost = statistics.median(self.costs[base])
        return (statistics.median(self.costs[self.long]) - short_cost) / (self.hops[self.long] - self.hops[base])

    def per_hop_in_round(self, k: int) -> float:
        """The cost of a cell-hop in round `k` alone."""
        base = self._base()
        return (self.costs[self.long][k] - self.costs[base][k]) / (self.hops[self.long] - self.hops[base])


def per_hop(binary: str, name: str, sets: list[str], warmup: bool, rounds: int, instructions: bool):
    """(Cost per cell-hop of a built-in once going (see the module's text), whether it carries
    packets too, whether it was taken from a 1 ms run), or None for a packet network."""
    row = Row(binary, name, sets, warmup, instructions)
    for _ in range(1 if instructions else rounds):
        if not row.round():
            return None
    return row.per_hop(), row.unit != "cell", row.from_start


# The pairs that compare two services on one network (target: at most 1.25).
PAIRS = [
    (("A3", " over ABR", ["service=abr"]), ("A3", "", [])),
    (("A5-udp", " over ABR", ["service=abr"]), ("A5-udp", "", [])),
    (("A5-udp", " over ABR at 13 Mbit/s", ["udp_rate=13 Mbit/s", "service=abr"]), ("A5-udp", " at 13 Mbit/s", ["udp_rate=13 Mbit/s"])),
    (("G2", "", []), ("G1", "", [])),
]


def alternate(binary: str, only: list[str] | None, rounds: int) -> None:
    """The targets' ratios, each from runs taken in turn (see the module's text)."""

    def make(name: str, sets: list[str]) -> Row:
        warmup = accepts(binary, name, ["warmup=0.5 ms"])
        return Row(binary, name, sets, warmup, False)

    def ratios(a: Row, b: Row) -> list[float] | str:
        try:
            for _ in range(rounds):
                if not (a.round() and b.round()):
                    return "a packet network: skipped"
        except RunFailed as failed:
            return f"FAILED: {failed}"
        return [a.per_hop_in_round(k) / b.per_hop_in_round(k) for k in range(rounds)]

    def show(label: str, found: list[float] | str) -> None:
        if isinstance(found, str):
            print(f"| {label} | {found} | |", flush=True)
        else:
            print(f"| {label} | {statistics.median(found):.3f} | {min(found):.3f}-{max(found):.3f} |", flush=True)

    print(f"| target (each ratio of CPU per cell-hop, {rounds} rounds alternated) | median | range |")
    print("|---|---|---|")
    for (na, la, sa), (nb, lb, sb) in PAIRS:
        show(f"{na}{la} / {nb}{lb} (≤ 1.25)", ratios(make(na, sa), make(nb, sb)))
    for spec in only or []:
        name, *sets = spec.split(",")
        found = ratios(Row.null(binary), make(name, sets))
        label = f"null / {name}" + (f" with {', '.join(sets)}" if sets else "")
        show(f"{label} (≥ 0.5)", found)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--instructions", action="store_true", help="instructions under callgrind, not CPU time")
    ap.add_argument(
        "--alternate",
        action="store_true",
        help="the targets' ratios, each from runs taken in turn; with --only NAME[,KEY=VALUE...], that built-in against the null pipeline",
    )
    ap.add_argument("--only", action="append", metavar="NAME", help="this built-in only (repeatable; null is always run)")
    ap.add_argument("--without", action="append", metavar="FAST_PATH", default=[], help="turn this fast path off in every run (repeatable)")
    args = ap.parse_args()
    WITHOUT.extend(arg for name in args.without for arg in ("--without", name))
    if args.alternate:
        if args.instructions:
            ap.error("--alternate measures CPU time: instructions do not drift")
        alternate(args.binary, args.only, args.rounds)
        return
    unit = "instructions" if args.instructions else "ns"
    scale = 1.0 if args.instructions else 1e9

    # The null pipeline, its short and long runs alternated as the built-ins' are.
    short_len, long_len = ("0.2", "1.2") if args.instructions else ("1", "6")
    null_runs: dict[str, list[tuple[float, int, str]]] = {short_len: [], long_len: []}
    for _ in range(1 if args.instructions else args.rounds):
        for seconds in (short_len, long_len):
            null_runs[seconds].append(measure(args.binary, ["null", "--seconds", seconds], args.instructions))
    short = statistics.median(c for c, _, _ in null_runs[short_len])
    long = statistics.median(c for c, _, _ in null_runs[long_len])
    null = (long - short) / (null_runs[long_len][0][1] - null_runs[short_len][0][1]) * scale
    print(f"| run | {unit} per cell-hop | null's / this (target ≥ 0.5) |")
    print("|---|---|---|")
    print(f"| null | {null:.1f} | 1.000 |")

    figures = {}

    def row(name: str, label: str, sets: list[str], warmup: bool) -> None:
        try:
            found = per_hop(args.binary, name, sets, warmup, args.rounds, args.instructions)
        except RunFailed as failed:
            print(f"| {name}{label} | FAILED: {failed} | |", flush=True)
            return
        if found is None:
            print(f"| {name}{label} | (a packet network: skipped) | |", flush=True)
            return
        cost, packets, from_start = found
        figures[name + label] = cost * scale
        note = " (with its LANs' packets)" if packets else ""
        note += " (from 1 ms: the run idles between its lengths)" if from_start else ""
        print(f"| {name}{label}{note} | {cost * scale:.1f} | {null / (cost * scale):.3f} |", flush=True)

    for name in args.only or builtins(args.binary):
        warmup = accepts(args.binary, name, ["warmup=0.5 ms"])
        row(name, "", [], warmup)
        if accepts(args.binary, name, ["service=abr"] + (["warmup=0.5 ms"] if warmup else [])):
            row(name, " over ABR", ["service=abr"], warmup)
    if "A5-udp" in figures:
        # Greedy UDP over UBR loses most cells at the first switch's EPD; paced below its fair
        # share (149.76 Mbit/s over 10 sources) it crosses the same hops as over ABR (there
        # with RM cells besides), so the pair compares the services' cost per hop, not two
        # mixes of hops.
        paced = "udp_rate=13 Mbit/s"
        row("A5-udp", " at 13 Mbit/s", [paced], True)
        row("A5-udp", " over ABR at 13 Mbit/s", [paced, "service=abr"], True)
    pairs = [(na + la, nb + lb) for (na, la, _), (nb, lb, _) in PAIRS]
    print("\n| pair | ratio per cell-hop (target ≤ 1.25) |\n|---|---|")
    for a, b in pairs:
        if a in figures and b in figures:
            print(f"| {a} / {b} | {figures[a] / figures[b]:.3f} |")


if __name__ == "__main__":
    main()
