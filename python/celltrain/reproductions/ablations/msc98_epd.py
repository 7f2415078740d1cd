#!/usr/bin/env python3
"""The ablation of MSc98's TCP over UBR+EPD (A3): runs every candidate of
``MSc98-tcp-over-ubr-epd.md`` through the ``celltrain`` command line, one run at a time,
and prints its tables (mean and 95 % Student-t half-width over the seeds).

Standard library only; not imported by the package or its tests. From the repository root:

    python3 python/celltrain/reproductions/ablations/msc98_epd.py              # every table
    python3 python/celltrain/reproductions/ablations/msc98_epd.py --only T1,T4  # some rows
    python3 python/celltrain/reproductions/ablations/msc98_epd.py --json runs.json

``--celltrain PATH`` names the binary (default: ``$CELLTRAIN``, else ``celltrain`` on the
PATH, else ``target/release/celltrain``). Each row is also a command line: the document gives
``celltrain run <scenario> <--set ...> --seed N`` for N = 1..5.
"""

import argparse
import json
import math
import os
import shutil
import statistics
import sys
from pathlib import Path

import ablation_runs

ROOT = Path(__file__).resolve().parents[4]
MSS = 9140  # bytes: MTU 9180 - 40
SEEDS = [1, 2, 3, 4, 5]
TCP = "flow.tcp{i}.app."

# Five-second runs that average the start-up in (candidate 2): no warm-up, synchronised start.
TRANSIENT = ["warmup=\"0 s\"", "start_jitter=\"0 s\""]


def d(sec):
    return f"duration=\"{sec} s\""


# (id, group, title, scenario, [--set ...])
CANDIDATES = [
    ("B", "base", "A3 as built (6 s, 1 s warm-up, starts within 10 ms)", "A3", []),
    # 1. tried before
    ("F", "1", "switch fabric of §4.2 (640 Mbit/s core, 4096 cells)", "examples/A3-fabric.toml", []),
    ("R1", "1", "max RTO 0.5 s", "A3", [TCP + "max_rto=\"0.5 s\""]),
    ("P", "1", "300 us host processing", "A3", ["processing=\"300 us\""]),
    ("D", "1", "receiver discards out-of-order segments", "A3", [TCP + "out_of_order=\"discard\""]),
    # 2. start-up transient averaged in
    ("T6", "2", "no warm-up, synchronised start, 6 s", "A3", TRANSIENT),
    ("T1", "2", "no warm-up, synchronised start, 1 s", "A3", [d(1)] + TRANSIENT),
    ("T2", "2", "no warm-up, synchronised start, 2 s", "A3", [d(2)] + TRANSIENT),
    ("T3", "2", "no warm-up, synchronised start, 3 s", "A3", [d(3)] + TRANSIENT),
    ("T4", "2", "no warm-up, synchronised start, 4 s", "A3", [d(4)] + TRANSIENT),
    ("T5", "2", "no warm-up, synchronised start, 5 s", "A3", [d(5)] + TRANSIENT),
    ("T1I24", "2", "T1 with initial RTO 2.4 s", "A3", [d(1)] + TRANSIENT + ["initial_rto=\"2.4 s\""]),
    ("T3j", "2", "no warm-up, starts within 10 ms, 3 s", "A3", [d(3), "warmup=\"0 s\""]),
    # 3. losses at other points of the network
    ("N3840", "3", "source adapters of 3840 cells (one window)", "A3", ["host.src{i}.nic_buffer=\"3840 cells\""]),
    ("N1000", "3", "source adapters of 1000 cells", "A3", ["host.src{i}.nic_buffer=\"1000 cells\""]),
    ("N500", "3", "source adapters of 500 cells", "A3", ["host.src{i}.nic_buffer=\"500 cells\""]),
    ("RV2", "3", "reverse path: receivers' adapters of 2 cells (one ACK)", "A3", ["host.dst{i}.nic_buffer=\"2 cells\""]),
    # 5. the TCP parameters read again
    ("W19", "5", "window 19 segments (178 KB < 20 x 9140 B)", "A3", ["window_segments=19"]),
    ("I12", "5", "initial RTO 1.2 s (0 + 2 x 3 x 200 ms)", "A3", ["initial_rto=\"1.2 s\""]),
    ("I24", "5", "initial RTO 2.4 s (0 + 4 x 3 x 200 ms)", "A3", ["initial_rto=\"2.4 s\""]),
    ("RT", "5", "RTO formula tahoe (srtt + 2 rttvar)", "A3", [TCP + "rto=\"tahoe\""]),
    ("G250", "5", "250 ms ticks (minimum RTO 0.5 s)", "A3", ["timer_granularity=\"250 ms\""]),
    ("EX", "5", "exact timers, RFC 6298 (minimum RTO 1 s)", "A3", ["timer_granularity=\"exact\""]),
    ("EX5", "5", "exact timers, RTO held at 0.5 s (min = max = 0.5 s)", "A3",
     ["timer_granularity=\"exact\"", TCP + "max_rto=\"0.5 s\""]),
    ("VL", "5", "variant lite (4.4BSD-Lite2's Reno code)", "A3", ["variant=\"lite\""]),
    ("DA", "5", "delayed ACKs as BSD (against §4.3)", "A3", [TCP + "delayed_ack=\"bsd\""]),
    # 6. EPD semantics
    ("E50", "6", "EPD threshold 50 % of the pool (4096 cells)", "A3", ["switch.sw1.epd_threshold=\"50 %\""]),
    ("E3MTU", "6", "EPD threshold B - 3 MTU (7616 cells)", "A3", ["switch.sw1.epd_excess=3"]),
    ("FIFO", "6", "one FIFO per class instead of per-VC queues", "A3", ["switch.sw1.queueing=\"fifo\""]),
    ("V6553", "6", "per-VC EPD threshold 6553 cells", "A3",
     ["switch.sw1.discard=\"per-vc-threshold\"", "switch.sw1.low_threshold=\"0 cells\"",
      "switch.sw1.high_threshold=\"0 cells\"", "switch.sw1.vc_threshold=\"6553 cells\""]),
    ("V1310", "6", "per-VC EPD threshold 1310 cells (0.8 x 8192 / 5)", "A3",
     ["switch.sw1.discard=\"per-vc-threshold\"", "switch.sw1.low_threshold=\"0 cells\"",
      "switch.sw1.high_threshold=\"0 cells\"", "switch.sw1.vc_threshold=\"1310 cells\""]),
    ("PPD", "6", "PPD without EPD", "A3", ["discard=\"ppd\""]),
    ("TD", "6", "tail drop (no frame discard)", "A3", ["discard=\"tail-drop\""]),
    # combinations
    ("T4D", "C", "T4 + receiver discarding out-of-order segments", "A3",
     [d(4)] + TRANSIENT + [TCP + "out_of_order=\"discard\""]),
    ("T6D", "C", "T6 + receiver discarding out-of-order segments", "A3",
     TRANSIENT + [TCP + "out_of_order=\"discard\""]),
    ("T3PPD", "C", "T3 + PPD without EPD", "A3", [d(3)] + TRANSIENT + ["discard=\"ppd\""]),
    ("T4PPDD", "C", "T4 + PPD + discarding receiver", "A3",
     [d(4)] + TRANSIENT + ["discard=\"ppd\"", TCP + "out_of_order=\"discard\""]),
]

# The same root in the other experiments: as built, and with the start-up transient averaged in
# (4 s, no warm-up, synchronised start), the one candidate that moves efficiency.
T4 = [d(4)] + TRANSIENT
FAMILY = []
for n in (5, 10, 15, 20):
    FAMILY.append((f"A5-{n}", "A", f"A5-tcp, N = {n}, as built", "A5-tcp", [f"n_sources={n}"]))
    FAMILY.append((f"A5-{n}-T4", "A", f"A5-tcp, N = {n}, T4", "A5-tcp", [f"n_sources={n}"] + T4))
FAMILY += [
    ("A7", "A", "A7-tcp (3 links), as built", "A7-tcp", []),
    ("A7-T4", "A", "A7-tcp (3 links), T4", "A7-tcp", T4),
    ("A9", "A", "A9, as built", "A9", []),
    ("A9-T4", "A", "A9, T4", "A9", T4),
]
PAPER_FAMILY = {"A5-5": 0.817, "A5-10": 0.733, "A5-15": 0.669, "A5-20": 0.6075, "A7": 0.7345, "A9": 0.6005}

# What each column is (see the document): all fractions except fi and timeouts.
COLUMNS = [
    ("efficiency", "effic. %", 100, 1),
    ("eff_excl", "effic. excl. retx %", 100, 1),
    ("mean_plr", "mean PLR %", 100, 2),
    ("mean_clr", "mean CLR %", 100, 2),
    ("retrans", "Retrans %", 100, 2),
    ("fi", "FI", 1, 3),
    ("lu", "LU %", 100, 1),
    ("timeouts", "timeouts", 1, 0),
    ("plr_rx", "PLR incl. rx %", 100, 2),
]

PAPER = {"efficiency": 0.817, "mean_plr": 0.075, "mean_clr": 0.065, "retrans": 0.0989, "fi": 0.89, "lu": 0.971}


def find_celltrain(arg):
    for cand in [arg, os.environ.get("CELLTRAIN"), shutil.which("celltrain"), str(ROOT / "target/release/celltrain")]:
        if cand and Path(cand).exists():
            return cand
    sys.exit("celltrain not found: give --celltrain PATH or build it (cargo build --release -p celltrain-cli)")


def command(scenario, sets, seed):
    parts = ["celltrain", "run", scenario] + [f"--set '{s}'" for s in sets] + [f"--seed {seed}"]
    return " ".join(parts)


def measures(summary):
    """One run's measures, from its summary.json."""
    agg = summary["aggregate"]
    window = summary["duration_s"] - summary["warmup_s"]
    flows = [f for f in summary["flows"] if f["kind"] == "tcp"]
    port = next(p for p in summary["ports"] if p["name"] == agg["bottleneck"])
    retx_bits = sum(f["segments_retransmitted"] for f in flows) * MSS * 8
    plr_rx = []
    for f in flows:
        read = f["goodput_bps"] * window / 8 / MSS  # segments the application read
        unread = max(0.0, f["packets_delivered"] - read)  # delivered, never read (receiver discards)
        sent = f["packets_sent"]
        plr_rx.append((f["packets_lost"] + unread) / sent if sent else 0.0)
    others = {p["name"]: p["dropped_total"] for p in summary["ports"]
              if p["name"] != agg["bottleneck"] and p["dropped_total"]}
    # Goodput less every retransmitted segment (§3.3's reading); only where every flow crosses
    # the bottleneck (A7's aggregate goodput sums flows of other links).
    every_flow_crosses = abs(agg["goodput_bps"] - port["goodput_bps"]) <= 1e-9 * agg["goodput_bps"]
    eff_excl = agg["efficiency"] - retx_bits / window / agg["max_goodput_bps"] if every_flow_crosses else math.nan
    return {
        "efficiency": agg["efficiency"],
        "eff_excl": eff_excl,
        "mean_plr": statistics.fmean(f["packet_loss_ratio"] for f in flows),
        "mean_clr": agg["mean_clr"],
        "retrans": statistics.fmean(f["retransmission_ratio"] for f in flows),
        "fi": agg["fairness_index"],
        "lu": port["utilization"],
        "timeouts": sum(f["timeouts"] for f in flows),
        "plr_rx": statistics.fmean(plr_rx),
        "ppd_drops": port["dropped"].get("ppd", 0),
        "buffer_full_drops": port["dropped"].get("buffer_full", 0),
        "max_queue": port["max_queue_cells"],
        "other_drops": others,
        "max_queue_src_nic": max([p["max_queue_cells"] or 0 for p in summary["ports"] if p["name"].startswith("src")],
                                 default=0),
        "max_queue_reverse": max([p["max_queue_cells"] or 0 for p in summary["ports"]
                                  if p["name"].startswith("dst") or p["name"] == "sw2->sw1"], default=0),
    }


def run(celltrain, scenario, sets, seed):
    path = str(ROOT / scenario) if scenario.endswith(".toml") else scenario
    return measures(ablation_runs.run(path, dict(s.split("=", 1) for s in sets), seed, celltrain))


def cell(values, scale, digits):
    return ablation_runs.fmt(values, scale, digits)


def arithmetic():
    """Candidate 8: whether Table 5.3's UBR+EPD row holds together under the thesis's definitions."""
    cells_s = 149.76e6 / 424  # OC-3c cells per second
    seg_s = cells_s / 192  # 192 cells per 9140-byte segment
    maxg = seg_s * MSS * 8
    eff, lu, clr, plr, rtx = 0.817, 0.971, 0.065, 0.075, 0.0989
    g = eff * seg_s
    x = lu * seg_s
    s = x / (1 - clr)
    r, lost = rtx * s, plr * s
    frag = lost - clr * s
    ga, gb = s - r, s - r - lost
    out = [
        f"link: {cells_s:.1f} cells/s = {seg_s:.2f} segments/s; maximum goodput {maxg / 1e6:.3f} Mbit/s",
        f"goodput 110 Mbit/s = {110e6 / (MSS * 8):.1f} segments/s = {110e6 / maxg:.2%} (table 81.7 %)",
        f"(1) LU 97.1 %: {x:.1f} segments/s cross the link; goodput 81.7 %: {g:.1f}; "
        f"not goodput: {x - g:.1f}/s = {(x - g) / x:.2%} of what the link carries",
        f"(2) losses only at sw1, before the link: sent S = {x:.1f} / (1 - 0.065) = {s:.1f}/s; "
        f"retransmitted 9.89 % = {r:.1f}/s; lost 7.5 % = {lost:.1f}/s, of which "
        f"{clr * s:.1f} frame-equivalents of cells dropped, {frag:.1f} crossed the link as fragments",
        f"(3a) goodput = every unique segment delivered (steady state): {ga:.1f}/s = {ga / seg_s:.2%}",
        f"(3b) goodput excludes every retransmission (§3.3) and every first transmission lost: "
        f">= {gb:.1f}/s = {gb / seg_s:.2%}",
        f"(4a) for 81.7 % under (3a), Retrans would be {1 - g / s:.2%} (table 9.89 %); "
        f"or, with 9.89 %, LU {g / (1 - rtx) * (1 - clr) / seg_s:.2%} (table 97.1 %)",
        f"(4b) for 81.7 % under (3b), Retrans would be {(s - g - lost) / s:.2%}; "
        f"or, with 9.89 %, LU {g / (1 - rtx - plr) * (1 - clr) / seg_s:.2%}",
        f"(5) undelivered at the end: at most 5 x 20 segments in flight; the gap of (3a) "
        f"({ga - g:.1f}/s) fits only a run shorter than {100 / (ga - g):.2f} s, that of (3b) "
        f"({gb - g:.1f}/s) one shorter than {100 / (gb - g):.2f} s",
        f"Table 5.5, N = 5..20: " + ", ".join(f"{gp} Mbit/s = {gp * 1e6 / maxg:.2%} (table {e} %)" for gp, e in
                                            [(110, 81.7), (98.71, 73.3), (90.21, 66.9), (85.3, 60.75)]),
        f"Table 5.12, UBR+EPD: 20.2 + 40.58 = {20.2 + 40.58:.2f} Mbit/s = {60.78e6 / maxg:.2%} (table 60.05 %); "
        f"60.05 % would be {0.6005 * maxg / 1e6:.2f} Mbit/s",
    ]
    bdp = 2 * (5e-3 + 2 * 50e-6) * cells_s
    epd = 6553
    w_loss = (bdp + epd) / 192 / 5
    out.append(f"Reno estimate: loss at the port needs {bdp:.0f} (round trip) + {epd} (EPD threshold) cells in flight "
               f"= {(bdp + epd) / 192:.1f} segments, {w_loss:.1f} a connection; the periodic square-root model "
               f"p = 8 / (3 W^2) gives {8 / (3 * w_loss ** 2):.2%}; at p = 7.5 % its window at loss "
               f"is {math.sqrt(8 / (3 * 0.075)):.1f} segments ({5 * math.sqrt(8 / (3 * 0.075)) * 192:.0f} cells for 5)")
    print("\n".join(out))


GROUPS = {"base": "Baseline", "1": "1. Tried before", "2": "2. The start-up transient averaged in",
          "3": "3. Losses at other points of the network", "5": "5. The TCP parameters read again",
          "6": "6. EPD semantics", "C": "Combinations", "A": "The other experiments of the family"}


def print_tables(results, family):
    """One Markdown table per group: the command of each row, then its measures."""
    head = "| id | candidate | command (N: each seed) | " + " | ".join(c[1] for c in COLUMNS) + " |"
    rule = "|" + "---|" * (len(COLUMNS) + 3)
    paper = ("| paper | Table 5.3, UBR+EPD | | " + " | ".join(
        f"{PAPER[k] * s:.{dg}f}" if k in PAPER else "" for k, _, s, dg in COLUMNS) + " |")
    group = None
    for cid, r in results.items():
        if r["group"] != group:
            group = r["group"]
            print(f"\n{GROUPS.get(group, group)}\n\n{head}\n{rule}")
            if not family:
                print(paper)
        cells = [cell([x[k] for x in r["runs"]], s, dg) for k, _, s, dg in COLUMNS]
        ref = f" (paper {PAPER_FAMILY[cid] * 100:.2f} %)" if cid in PAPER_FAMILY else ""
        print(f"| {cid} | {r['title']}{ref} | `{r['command']}` | " + " | ".join(cells) + " |")
    seeds = next(iter(results.values()))["seeds"] if results else []
    print(f"\nSeeds {seeds}; ± is the 95 % Student-t half-width over the seeds.")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--celltrain")
    ap.add_argument("--seeds", default="1-5", help="e.g. 1-5 or 1,2,3")
    ap.add_argument("--only", help="comma-separated row ids")
    ap.add_argument("--json", help="write every run's measures here")
    ap.add_argument("--family", action="store_true", help="the A5/A7/A9 table instead of A3's candidates")
    ap.add_argument("--from-json", help="print the tables of a --json file without running")
    ap.add_argument("--arithmetic", action="store_true", help="print candidate 8's bound and stop")
    args = ap.parse_args()
    if args.arithmetic:
        arithmetic()
        return
    if "-" in args.seeds:
        a, b = args.seeds.split("-")
        seeds = list(range(int(a), int(b) + 1))
    else:
        seeds = [int(s) for s in args.seeds.split(",")]
    only = set(args.only.split(",")) if args.only else None
    if args.from_json:
        results = json.loads(Path(args.from_json).read_text())
        print_tables({k: v for k, v in results.items() if not only or k in only}, args.family)
        return
    results = {}
    celltrain = find_celltrain(args.celltrain)
    for cid, group, title, scenario, sets in (FAMILY if args.family else CANDIDATES):
        if only and cid not in only:
            continue
        runs = [run(celltrain, scenario, sets, s) for s in seeds]
        results[cid] = {"group": group, "title": title, "scenario": scenario, "sets": sets, "seeds": seeds,
                        "runs": runs, "command": command(scenario, sets, "N")}
        print(f"{cid}: done", file=sys.stderr)
    print_tables(results, args.family)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
