"""LRP97's PPD/EPD results on the Fore testbed (E3, E4): the candidates of the ablation
`LRP97-ppd-epd.md`, each over the reproduction's ten seeds. Run from the repository root
(the `celltrain` command on the path, or `CELLTRAIN=...`):

    python3 reproductions/ablations/lrp97.py [e3|e4 ...]
"""

import sys

from ablation_runs import fmt, run

SEEDS = list(range(1, 11))
HOSTS = {"processing": "899 us", "processing_jitter": 0.25}  # as the reproduction's runs
TCP = "flow.tcp{i}.app."

CANDIDATES = {
    "as built": {},
    "receivers pay the senders' per-packet time": {"recv_processing": "899 us"},
    "fixed host times (no jitter)": {"processing_jitter": 0},
    "no fast retransmit (SunOS 4.1.3's incomplete one)": {TCP + "dupack_threshold": 1000},
    "windows 61 KB (more overload)": {"window": "61 KB"},
    "refused frames lose their last cell too": {"switch.fore.epd_keep_eom": "false"},
    "sessions start together (no start jitter)": {TCP + "start_jitter": "0 s"},
}


def efficiency(scenario, sets):
    return [run(scenario, {**HOSTS, **sets}, s)["aggregate"]["efficiency"] for s in SEEDS]


def e3():
    bs = [0.0, 0.5, 1.0, 2.0]
    print("\nE3, 1088 cells: efficiency, %, mean ± 95 % interval over seeds 1-10 (b = 0 is PPD)")
    print("| candidate | plain UBR (tail drop) | " + " | ".join(f"b = {b}" for b in bs) + " | best PPD/EPD over plain UBR |")
    print("|---|---|" + "---|" * len(bs) + "---|")
    for name, extra in CANDIDATES.items():
        plain_extra = {k: v for k, v in extra.items() if not k.startswith("switch.")}
        plain = efficiency("E2", {"discard": "tail-drop", "buffer": 1088, **plain_extra})
        per_b = [efficiency("E3", {"buffer": 1088, "epd_excess": b, **extra}) for b in bs]
        best = max(sum(v) / len(v) for v in per_b) / (sum(plain) / len(plain))
        cells = " | ".join(fmt(v, 100, 1) for v in per_b)
        print(f"| {name} | {fmt(plain, 100, 1)} | {cells} | {best:.2f} |", flush=True)


def e4():
    buffers = [1360, 1496, 1632]
    print("\nE4, no delayed ACK: Jain fairness of the 2 sessions, mean ± 95 % interval over seeds 1-10")
    print("| candidate | scheme | " + " | ".join(f"{b} cells" for b in buffers) + " |")
    print("|---|---|" + "---|" * len(buffers))
    for name, extra in CANDIDATES.items():
        if name.startswith("refused"):
            continue
        for scheme, b in (("PPD", 0.0), ("EPD b = 1", 1.0), ("EPD b = 0.5", 0.5), ("EPD b = 2", 2.0)):
            cells = []
            for buf in buffers:
                sets = {**HOSTS, "buffer": buf, "epd_excess": b, "delayed_ack": "off", **extra}
                cells.append(fmt([run("E4", sets, s)["aggregate"]["fairness_index"] for s in SEEDS], 1, 3))
            print(f"| {name} | {scheme} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    which = sys.argv[1:] or ["e3", "e4"]
    if "e3" in which:
        e3()
    if "e4" in which:
        e4()
