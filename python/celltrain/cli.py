"""``python -m celltrain``: every command of ``celltrain``.

``run``, ``check``, ``list``, ``show``, ``bench`` and the rest are the Rust command line, run
in-process; ``sweep`` and ``reproduce`` are implemented here, in Python. The installed
``celltrain`` command is the Rust binary, which hands these two to ``python -m celltrain``
(crates/celltrain-cli/src/python_front.rs); a development install (``maturin develop``,
``pip install -e .``) installs ``main`` below as the ``celltrain`` script instead.

Exit codes, as in the Rust commands: 0 success, 2 bad input (one ``error:`` line),
1 any other failure, 130 interrupted.
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional, Sequence

from . import _celltrain
from ._errors import guarded


class _Parser(argparse.ArgumentParser):
    """argparse with the Rust commands' manners: one-line errors (exit 2) and clap's help layout
    (description, ``Usage:``, ``Arguments:``, ``Options:``), so that ``celltrain sweep --help``
    reads like ``celltrain run --help``."""

    def error(self, message: str) -> None:  # one line, exit 2, like clap
        self.exit(2, f"error: {message}\n")

    def format_help(self) -> str:
        positionals = [a for a in self._actions if not a.option_strings]
        options = [a for a in self._actions if a.option_strings]
        # The help option last, as clap lists it.
        options.sort(key=lambda a: isinstance(a, argparse._HelpAction))
        rows_args = [(f"<{a.dest.upper()}>", a.help or "") for a in positionals]
        rows_opts = [(_clap_flags(a), "Print help" if isinstance(a, argparse._HelpAction) else a.help or "") for a in options]
        usage = " ".join([f"Usage: {self.prog}", "[OPTIONS]"] + [left for left, _ in rows_args])
        out = [self.description or "", "", usage, ""]
        for title, rows in (("Arguments:", rows_args), ("Options:", rows_opts)):
            if rows:
                width = max(len(left) for left, _ in rows) + 2
                out.append(title)
                out += [f"  {left:<{width}}{_capitalised(text)}".rstrip() for left, text in rows]
                out.append("")
        return "\n".join(out)


def _clap_flags(action: argparse.Action) -> str:
    """``-h, --help`` or ``    --jobs <N>``: long options line up after a short one's place."""
    short = [o for o in action.option_strings if not o.startswith("--")]
    long = [o for o in action.option_strings if o.startswith("--")]
    flags = ", ".join(short + long) if short else "    " + ", ".join(long)
    if action.nargs != 0:
        flags += f" <{action.metavar or action.dest.upper()}>"
    return flags


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def _sweep_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="celltrain sweep",
        description="Run SCENARIO at every point of the grid × seeds, in parallel, storing each "
        "result atomically in the store (re-running skips stored points; an interrupted sweep "
        "resumes). Prints the aggregated table and writes it, and the per-flow table, as Parquet.",
    )
    p.add_argument("scenario", help="a built-in scenario (see `celltrain list`) or a scenario file")
    p.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="NAME=VALUES",
        help="a swept parameter: NAME=V1,V2,… or NAME=A..B[:STEP] (repeatable; the points are the product)",
    )
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a fixed parameter (repeatable)")
    p.add_argument("--seeds", default=None, metavar="SEEDS", help="seeds: 1..3, 1,2,7 or 4 (default: the scenario's)")
    p.add_argument("--store", default=None, metavar="DIR", help="result store directory (resumable)")
    p.add_argument("--jobs", type=int, default=None, metavar="N", help="local worker processes (default: one per core)")
    p.add_argument(
        "--dask",
        default=None,
        metavar="ADDRESS",
        help="run on a Dask cluster: a scheduler address (tcp://host:8786), or 'local' for a LocalCluster",
    )
    p.add_argument(
        "--parquet",
        default=None,
        metavar="DIR",
        help="write aggregate.parquet, flows.parquet, … here (default: STORE/tables when --store is given)",
    )
    p.add_argument(
        "--timeseries",
        action="store_true",
        help="keep each run's time series ([record]) in the store; written as timeseries.parquet / changes.parquet",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar and no table")
    return p


def _reproduce_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="celltrain reproduce",
        description="Run the experiments of the source papers that exist as built-in scenarios, set "
        "celltrain's numbers beside the published ones, check each claim, and write DIR/index.md and a "
        "self-contained DIR/index.html.",
    )
    p.add_argument("target", help="an experiment id (A5), a paper (MSc98, any case, or its letter A), or 'all'")
    p.add_argument("--out", default="results/report", metavar="DIR", help="report directory (default results/report)")
    p.add_argument("--quick", action="store_true", help="short runs and one seed: the whole report in well under a minute")
    p.add_argument("--jobs", type=int, default=None, metavar="N", help="local worker processes (default: one per core)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.add_argument(
        "--seed-offset",
        type=_non_negative,
        default=0,
        metavar="N",
        help="add N to every run's seeds (default 0); N ≥ the largest seed (10) gives a disjoint set of seeds",
    )
    return p


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def _seeds(text: Optional[str]) -> Optional[List[int]]:
    from ._sweep import parse_range

    if text is None:
        return None
    values = parse_range(text)
    if not all(isinstance(v, int) and v >= 0 for v in values):
        raise ValueError(f"--seeds {text}: seeds are non-negative integers")
    return [int(v) for v in values]


def _sets(specs: Sequence[str]) -> dict:
    out = {}
    for spec in specs:
        name, sep, value = spec.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--set {spec}: expected NAME=VALUE")
        out[name.strip()] = value.strip()
    return out


#: Seconds to wait for a Dask scheduler before giving up (Dask's own default is 30 s).
DASK_CONNECT_TIMEOUT_S = 10


def _connect_dask(client_class, address: str):  # noqa: ANN001, ANN202
    """A client of the scheduler at ``address``; an unreachable one fails fast as an OSError."""
    try:
        return client_class(address, timeout=DASK_CONNECT_TIMEOUT_S)
    except (OSError, TimeoutError) as e:
        raise OSError(f"cannot reach the Dask scheduler at {address}: {e}") from None


def sweep_main(argv: Sequence[str]) -> int:
    from ._celltrain import ScenarioError
    from ._store import StoreError
    from ._sweep import parse_grid, sweep

    args = _sweep_parser().parse_args(list(argv))
    try:
        grid = parse_grid(args.grid)
        seeds = _seeds(args.seeds)
        fixed = _sets(args.set)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    client = cluster = None
    try:
        if args.dask:
            from distributed import Client, LocalCluster

            if args.dask == "local":
                cluster = LocalCluster(n_workers=args.jobs or None, threads_per_worker=1, processes=True)
                client = Client(cluster)
            else:
                client = _connect_dask(Client, args.dask)
        result = sweep(
            args.scenario,
            grid=grid,
            seeds=seeds,
            store=args.store,
            executor=client,
            jobs=args.jobs,
            progress=not args.quiet,
            params=fixed,
            timeseries=args.timeseries,
        )
    except ScenarioError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except (StoreError, ValueError, TypeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    parquet = args.parquet or (f"{args.store}/tables" if args.store else None)
    if parquet:
        result.to_parquet(parquet)
    if not args.quiet:
        replicated = result.aggregate.groupby(["scenario", *result.params], observed=True).size().max() > 1
        if replicated:
            print(_replication_text(result))
        else:
            cols = [*result.params, "seed", "goodput_bps", "efficiency", "fairness_index", "mean_plr"]
            table = result.aggregate[[c for c in cols if c in result.aggregate.columns]].copy()
            table["goodput_bps"] = table["goodput_bps"] / 1e6
            table = table.rename(columns={"goodput_bps": "goodput_Mbps"})
            print(table.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    s = result.stats
    print(
        f"{s['total']} runs: {s['reused']} reused from the store, {s['computed']} computed"
        + (f" ({s['recomputed']} invalid stored results replaced)" if s["recomputed"] else "")
        + (f"; tables in {parquet}" if parquet else ""),
        file=sys.stderr if args.quiet else sys.stdout,
    )
    return 0


def _replication_text(result) -> str:
    """The sweep table with several seeds per point: each measure as mean ± half-width of its
    95 % confidence interval over the seeds (Student t)."""
    measures = {"goodput_bps": ("goodput_Mbps", 1e-6), "efficiency": ("efficiency", 1.0),
                "fairness_index": ("fairness_index", 1.0), "mean_plr": ("mean_plr", 1.0),
                "mean_clr": ("mean_clr", 1.0)}  # fmt: skip
    rep = result.replications(list(measures))
    table = rep[[*result.params, "replications"]].copy()
    for m, (label, scale) in measures.items():
        if f"{m}_mean" in rep.columns:
            table[f"{label} (±95% CI)"] = [
                "-" if mean != mean else f"{mean * scale:.4f}" + ("" if half != half else f" ± {half * scale:.4f}")
                for mean, half in zip(rep[f"{m}_mean"], rep[f"{m}_ci95"])
            ]
    return table.to_string(index=False)


def reproduce_main(argv: Sequence[str]) -> int:
    from .reproduce import UnknownTarget, reproduce

    args = _reproduce_parser().parse_args(list(argv))
    try:
        report = reproduce(
            args.target, out=args.out, quick=args.quick, jobs=args.jobs, progress=not args.quiet, seed_offset=args.seed_offset
        )
    except UnknownTarget as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    counts = report.verdict_counts()
    print(
        f"report: {report.html}  (and {report.markdown})\n"
        f"{len(report.experiments)} experiments run, {len(report.not_runnable)} not yet runnable; claims: "
        + ", ".join(f"{n} {v}" for v, n in counts.items())
    )
    return 0


def main(argv: Optional[Sequence[str]] = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args[0] if args else None
    try:
        if command == "sweep":
            code = guarded(sweep_main, args[1:])
        elif command == "reproduce":
            code = guarded(reproduce_main, args[1:])
        else:
            sys.stdout.flush()
            # (Its top-level help lists sweep and reproduce too.)
            code = _celltrain.main(["celltrain", *args])
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        code = 130
    sys.exit(code)


if __name__ == "__main__":
    main()
