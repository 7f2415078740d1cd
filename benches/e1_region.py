"""Benchmark: LRP97's E1 region measured by bisection (celltrain.region) for N_rt = 0..10
at a target CLR of 1e-4 on local cores, with every CAC boundary, and how many cells each
point needed. Usage:

    python benches/e1_region.py [--jobs 2] [--store DIR] [--out DIR] [--duration "100 s"]

Writes DIR/e1_region.png (Fig. 3 with every boundary), DIR/e1_region_rows.csv (one row per
N_rt) and DIR/e1_region_points.csv (one row per simulated point), and prints both tables
and the wall time.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import time
from pathlib import Path

from celltrain import cac, region

LINK_BPS, PEAK_BPS, ON_S, OFF_S = 149.76e6, 31.1e6, 0.020, 0.080
RT_CELLS, NRT_CELLS, TARGET = 48, 4000, 1e-4


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--store", default="results/e1-region")
    ap.add_argument("--out", default="results/e1-region-report")
    ap.add_argument("--duration", default="100 s", help="simulated time of one replication")
    ap.add_argument("--max-replications", type=int, default=32)
    ap.add_argument("--n-rt-max", type=int, default=10)
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    source = cac.OnOff.from_periods(PEAK_BPS, ON_S, OFF_S)
    # No more sources than the link carries on average: the search's upper end.
    limit = int(LINK_BPS // source.peak_bps // source.activity)
    settings = region.RegionSettings(target=TARGET, confidence=0.95, first_replications=2,
                                     max_replications=args.max_replications)  # fmt: skip
    started = time.perf_counter()
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        run = region.sweep_runner("E1-mux", params={"duration": args.duration, "warmup": "1 s"},
                                  store=args.store, executor=pool)  # fmt: skip
        rows, points = region.measured_region(range(args.n_rt_max + 1), limit, run, settings, parallel=args.n_rt_max + 1)
    wall = time.perf_counter() - started
    rows.to_csv(out / "e1_region_rows.csv", index=False)
    points.to_csv(out / "e1_region_points.csv", index=False)
    port = cac.DelayPriorityPort(LINK_BPS, RT_CELLS * 424, NRT_CELLS * 424, TARGET)
    fig = region.plot(rows, port, source, source, limit)
    fig.savefig(out / "e1_region.png", dpi=120, bbox_inches="tight")
    print(rows.to_string(index=False))
    print()
    print(points.sort_values(["n_rt", "n_nrt"]).to_string(index=False))
    print(f"\nwall {wall:.1f} s on {args.jobs} jobs; {int(rows['cells'].sum()):,} cells simulated in all")


if __name__ == "__main__":
    main()
