"""BN01's G2 (workstation traffic over GFR.1, per-VC queues): why the 10 Mbit/s VCs stay below
their expected goodput. Runs the variants of the ablation `BN01-G2-expected-goodput.md` through
the `celltrain` command (or the one `$CELLTRAIN` names) and prints its tables, then the
slow-start model. Not imported by the package; run it as a script:

    python3 reproductions/ablations/bn01_g2.py [variant ...]   (from the repository root)
"""

import statistics as st
import sys

import ablation_runs

SEEDS = (1, 2, 3)
MCR_MBPS = [2, 4, 6, 8, 10] * 2  # vc1-vc5 at 15 ms, vc6-vc10 at 30 ms (BN01, Table 1)
MSS_BYTES = 9140  # MTU 9180 B
FILE_BYTES = 1_000_000

# (scenario, --set overrides) per variant.
VARIANTS = {
    "G1 simple switch": ("G1", []),
    "G2 per-VC threshold (320 cells)": ("G2", []),
    "G2, vc_threshold 1200 cells": ("G2", ["vc_threshold=1200 cells"]),
    "G2, vc_threshold 2400 cells": ("G2", ["vc_threshold=2400 cells"]),
    "G2, frame-level RED": ("G2", ["design=frame-red"]),
    "G2, WF2Q+": ("G2", ["scheduler=wfq"]),
    "G1, one-way delay 15 / 30 ms end to end": ("G1", ["short_delay=5 ms", "long_delay=20 ms"]),
    "G2, one-way delay 15 / 30 ms end to end": ("G2", ["short_delay=5 ms", "long_delay=20 ms"]),
    "G1, endless transfers": ("G1", ["file=1000 MB", "duration=60 s"]),
    "G2, endless transfers": ("G2", ["file=1000 MB", "duration=60 s"]),
    "G2, endless, vc_threshold 2400 cells": ("G2", ["file=1000 MB", "duration=60 s", "vc_threshold=2400 cells"]),
}


def run(scenario, sets, seed):
    return ablation_runs.run(scenario, dict(s.split("=", 1) for s in sets), seed)


def ratios(summary):
    """Each VC's goodput over its expected goodput (the bottleneck's maximum × MCR / ΣMCR)."""
    max_bps = summary["aggregate"]["max_goodput_bps"]
    return [f["goodput_bps"] / (max_bps * m / sum(MCR_MBPS)) for f, m in zip(summary["flows"], MCR_MBPS)]


def table(names):
    print("| variant | mean deviation | efficiency | goodput / expected, 15 ms (MCR 2..10) | 30 ms (MCR 2..10) | timeouts (sum) |")
    print("|---|---|---|---|---|---|")
    for name in names:
        scenario, sets = VARIANTS[name]
        runs = [run(scenario, sets, seed) for seed in SEEDS]
        r = [st.mean(x) for x in zip(*(ratios(s) for s in runs))]
        dev = st.mean(st.mean(abs(x - 1) for x in ratios(s)) for s in runs)
        eff = st.mean(sum(f["goodput_bps"] for f in s["flows"]) / s["aggregate"]["max_goodput_bps"] for s in runs)
        tos = st.mean(sum(f["timeouts"] for f in s["flows"]) for s in runs)
        fmt = lambda xs: " ".join(f"{x:.2f}" for x in xs)
        print(f"| {name} | {dev:.3f} | {eff * 100:.1f} % | {fmt(r[:5])} | {fmt(r[5:])} | {tos:.0f} |", flush=True)


def slow_start_model(max_goodput_bps):
    """One file per connection: a handshake, then slow start with BSD delayed ACKs (the window
    grows by half each round trip) until a round trip's window carries the VC's share, then the
    rest at the share; no loss and no queueing (so the model is an upper bound)."""
    segments = -(-FILE_BYTES // MSS_BYTES)
    cell_bits = 192 * 53 * 8  # one 9180-byte frame
    print("| delay | MCR | RTT | window at the share | file time | at the share | ratio |")
    print("|---|---|---|---|---|---|---|")
    for access_delay_s in (15e-3, 30e-3):
        for mcr in (2, 4, 6, 8, 10):
            share = max_goodput_bps * mcr / sum(MCR_MBPS)
            rtt = 2 * (access_delay_s + 10e-3) + cell_bits / 66.7e6 + 2 * cell_bits / 149.76e6
            per_rtt = share * rtt / 8 / MSS_BYTES
            t, sent, cwnd = rtt, 0.0, 1.0
            while sent < segments and cwnd < per_rtt:
                sent += min(cwnd, segments - sent)
                t += rtt
                cwnd *= 1.5
            t += (segments - sent) * MSS_BYTES * 8 / share
            ideal = segments * MSS_BYTES * 8 / share
            print(f"| {access_delay_s * 1e3:.0f} ms | {mcr} Mbit/s | {rtt * 1e3:.1f} ms | {per_rtt:.1f} segments | {t:.3f} s | {ideal:.3f} s | {ideal / t:.2f} |")


if __name__ == "__main__":
    names = sys.argv[1:] or list(VARIANTS)
    table(names)
    print()
    slow_start_model(run("G2", ["duration=1 s"], 1)["aggregate"]["max_goodput_bps"])
