"""BKD97's policed TCP at large MBS (V1, V3) and the MBS 2000 dip (V4): the candidates of the
ablation `BKD97-policed-tcp.md`, each over the reproduction's ten seeds. Run from the
repository root (the `celltrain` command on the path, or `CELLTRAIN=...`):

    python3 reproductions/ablations/bkd97.py [v1|v3|v4|v4-fine ...]
"""

import sys

from ablation_runs import command, fmt, run

SEEDS = list(range(1, 11))
HOST = {"552 B": "305 us", "1500 B": "370 us", "4832 B": "600 us", "9188 B": "900 us"}  # the sender's inter-PDU time
BASE = {"processing_jitter": 0.25, "bytes": "4 MiB", "duration": "600 s"}


def candidates(mtu):
    sender = HOST[mtu]
    return {
        "as built": {},
        "receiver pays the sender's per-packet time": {"recv_processing": sender},
        "fixed host times (no jitter)": {"processing_jitter": 0},
        "delayed ACK off": {"delayed_ack": "off"},
        "4.4BSD-Lite timeout (srtt + 4 rttvar)": {"rto": "lite"},
    }


def v_table(scenario, mbs_values, mtus):
    print(f"\n{scenario}: transfer throughput, Mbit/s, mean ± 95 % interval over seeds 1-10; timeouts; mean idle before a retransmission, s")
    print("| candidate | MTU | " + " | ".join(f"MBS {m}" for m in mbs_values) + " | timeouts (last MBS) | idle (last MBS) |")
    print("|---|---|" + "---|" * len(mbs_values) + "---|---|")
    for mtu in mtus:
        for name, extra in candidates(mtu).items():
            cells, last = [], None
            for mbs in mbs_values:
                sets = {**BASE, "mtu": mtu, "processing": HOST[mtu], "mbs": mbs, **extra}
                runs = [run(scenario, sets, s)["flows"][0] for s in SEEDS]
                cells.append(fmt([f["transfer_throughput_bps"] for f in runs], 1e-6))
                last = runs
            tos = fmt([f["timeouts"] for f in last], 1, 1)
            idle = fmt([f["mean_timeout_idle_s"] or 0.0 for f in last], 1, 2)
            print(f"| {name} | {mtu} | " + " | ".join(cells) + f" | {tos} | {idle} |", flush=True)
    print("\ncommand of a cell:", command(scenario, {**BASE, "mtu": "9188 B", "processing": "900 us", "mbs": 4000}, SEEDS))


def v4_fine():
    """V4 around MBS 2000 in steps of 100 cells, with and without host jitter: a race that
    depends on the timers' phase would show as a dip at some MBS."""
    mbs_values = list(range(1500, 2600, 100))
    print("\nV4, MTU 9188 B: transfer throughput, Mbit/s, by MBS (mean ± 95 % interval, seeds 1-10)")
    print("| host times | " + " | ".join(str(m) for m in mbs_values) + " |")
    print("|---|" + "---|" * len(mbs_values))
    for name, jitter in (("±25 % jitter (as built)", 0.25), ("fixed", 0)):
        cells = []
        for mbs in mbs_values:
            sets = {**BASE, "processing_jitter": jitter, "mtu": "9188 B", "processing": "900 us", "mbs": mbs}
            cells.append(fmt([run("V4", sets, s)["flows"][0]["transfer_throughput_bps"] for s in SEEDS], 1e-6))
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    which = sys.argv[1:] or ["v1", "v3", "v4"]
    if "v1" in which:
        v_table("V1", [3000, 4000], ["552 B", "1500 B", "4832 B", "9188 B"])
    if "v3" in which:
        v_table("V3", [3000, 4000], ["1500 B", "4832 B", "9188 B"])
    if "v4" in which:
        v_table("V4", [1000, 1500, 2000, 2500, 3000], ["9188 B"])
    if "v4-fine" in which:
        v4_fine()
