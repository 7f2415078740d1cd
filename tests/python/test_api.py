"""The Python front and the console script, as a user meets them."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import celltrain
from conftest import SHORT, SHORT_E1

GOOD_MINIMAL = Path(__file__).parents[1] / "good-minimal.toml"


def test_run_builtin_returns_a_result_with_the_summary():
    r = celltrain.run("A1-udp", params=SHORT)
    assert isinstance(r, celltrain.Result)
    s = r.summary
    for field in (
        "scenario", "title", "version", "seed", "params", "duration_s", "warmup_s", "aggregate",
        "flows", "vcs", "ports", "categories", "events", "wall_s", "trace_hash",
    ):  # fmt: skip
        assert field in s, field
    assert set(s["aggregate"]) == {
        "goodput_bps", "max_goodput_bps", "efficiency", "fairness_index", "bottleneck", "mean_clr", "mean_clr_reverse"
    }
    assert s["scenario"] == r.scenario == "A1-udp"
    assert s["version"] == celltrain.__version__
    assert s["params"]["duration"] == "0.3 s" and r.params is s["params"]
    assert s["duration_s"] == pytest.approx(0.3) and s["warmup_s"] == pytest.approx(0.1)
    # MSc98 Table 5.1: 134.513 Mbit/s, within 0.1 %.
    assert s["aggregate"]["goodput_bps"] == pytest.approx(134.513e6, rel=1e-3)
    assert s["aggregate"]["max_goodput_bps"] == pytest.approx(134.5132e6, rel=1e-6)
    assert [f["name"] for f in s["flows"]] == ["udp1"]
    for port in s["ports"]:
        identity = port["cells_out"] + port["dropped_total"] + port["queued_at_end"] - port["queued_at_start"]
        assert port["cells_in"] == identity, port["name"]
    assert r.timeseries is None  # not recorded by the simulator yet
    assert r.out is None
    assert "A1-udp" in repr(r)


def test_result_dataframes_have_columns_and_dtypes():
    r = celltrain.run("A4", params=SHORT)
    flows, vcs, ports, cats = r.flows, r.vcs, r.ports, r.categories
    assert list(flows.columns[:9]) == [
        "name", "kind", "vc", "goodput_bps", "packets_sent", "packets_delivered", "packets_lost",
        "packet_loss_ratio", "bytes_delivered",
    ]  # fmt: skip
    # TCP counters, when the simulator reports them, are null for UDP flows.
    for col in ("segments_sent", "segments_retransmitted", "timeouts", "fast_retransmits"):
        if col in flows.columns:
            assert str(flows[col].dtype) == "Int64" and flows[col].isna().all(), col
    assert len(flows) == 5 and list(flows["name"]) == [f"udp{i}" for i in range(1, 6)]
    assert pd.api.types.is_string_dtype(flows["name"]) and pd.api.types.is_string_dtype(flows["vc"])
    assert isinstance(flows["kind"].dtype, pd.CategoricalDtype)
    for col in ("packets_sent", "packets_delivered", "packets_lost", "bytes_delivered"):
        assert flows[col].dtype == "int64", col
    for col in ("goodput_bps", "packet_loss_ratio"):
        assert flows[col].dtype == "float64", col
    assert flows["goodput_bps"].sum() == pytest.approx(r.aggregate["goodput_bps"])

    assert {"name", "category", "cells_sent", "cells_dropped", "clr", "flr", "corrupted_pdus"} <= set(vcs.columns)
    assert isinstance(vcs["category"].dtype, pd.CategoricalDtype)
    assert vcs["cells_sent"].dtype == "int64" and vcs["clr"].dtype == "float64"

    for col in ("dropped_buffer_full", "dropped_epd", "dropped_ppd", "dropped_total", "cells_in", "rate_bps"):
        assert ports[col].dtype == "int64", col
    assert (ports["dropped_buffer_full"] + ports["dropped_epd"] + ports["dropped_ppd"] == ports["dropped_total"]).all()
    assert ports["utilization"].dtype == "float64"
    assert len(ports) == len(r.summary["ports"])

    assert list(cats.columns[:4]) == ["category", "cells_sent", "cells_dropped", "clr"]
    assert list(cats["category"]) == ["ubr"] and cats["cells_dropped"].dtype == "int64"
    # Cell transfer delay, flattened from the summary's `delay` objects: typed, never objects.
    for frame in (vcs, cats):
        assert frame["delay_cells"].dtype == "int64" and frame["delay_p999_s"].dtype == "float64"
        assert (frame["delay_min_s"] <= frame["delay_p50_s"]).all() and (frame["delay_p999_s"] <= frame["delay_max_s"]).all()
    assert vcs["delay_cells"].sum() == cats["delay_cells"].sum()
    assert not any(str(t) == "object" for t in vcs.dtypes)


def test_tcp_flows_have_integer_counters():
    r = celltrain.run("A1-tcp", params={"duration": "1 s", "warmup": "0.5 s"})
    flows = r.flows
    assert list(flows["kind"]) == ["tcp"]
    assert flows["goodput_bps"].iloc[0] == pytest.approx(134.5e6, rel=0.01)
    if "segments_sent" in flows.columns:
        assert flows["segments_sent"].dtype == "int64" and flows["segments_sent"].iloc[0] > 0
        assert flows["retransmission_ratio"].dtype == "float64"


def test_run_out_writes_the_files_the_cli_writes(tmp_path, cli):
    py_dir, cli_dir = tmp_path / "py", tmp_path / "cli"
    r = celltrain.run("E1-mux", params=SHORT_E1, out=py_dir)
    assert r.out == py_dir
    res = cli("run", "E1-mux", "--set", "duration=2 s", "--set", "warmup=0.5 s", "--out", str(cli_dir), "--quiet")
    assert res.returncode == 0, res.stderr
    names = sorted(p.name for p in cli_dir.iterdir())
    listing = [".celltrain-files", "flows.csv", "ports.csv", "summary.json", "vcs.csv"]
    assert names == sorted(p.name for p in py_dir.iterdir()) == listing
    assert (py_dir / ".celltrain-files").read_bytes() == (cli_dir / ".celltrain-files").read_bytes()
    for name in ("flows.csv", "vcs.csv", "ports.csv"):
        assert (py_dir / name).read_bytes() == (cli_dir / name).read_bytes(), name

    def without_wall(p):
        return [line for line in p.read_text().splitlines() if '"wall_s"' not in line]

    assert without_wall(py_dir / "summary.json") == without_wall(cli_dir / "summary.json")
    assert json.loads((py_dir / "summary.json").read_text())["trace_hash"] == r.summary["trace_hash"]
    assert not [p for p in py_dir.iterdir() if p.name.endswith(".tmp")]


def test_result_files_come_from_the_simulators_writer():
    from celltrain import _celltrain

    r = celltrain.run("A4", params=SHORT)
    files = _celltrain.result_files(r._json)
    assert [name for name, _ in files] == ["flows.csv", "vcs.csv", "ports.csv", "summary.json"]
    text = dict(files)
    assert json.loads(text["summary.json"]) == r.summary and text["summary.json"].endswith("}\n")
    header = text["ports.csv"].splitlines()[0].split(",")
    drops = [f"dropped_{reason}" for reason in _celltrain.DROP_REASONS]
    at = header.index("dropped_total") + 1
    assert header[at : at + len(drops)] == drops and "dropped_clp1" in drops
    # The port frame has the same drop columns, in the same order.
    assert [c for c in r.ports.columns if c.startswith("dropped_") and c != "dropped_total"] == drops
    # A recorded time series comes first; the summary is always last.
    names = [name for name, _ in _celltrain.result_files(r._json, "time_s\n0\n")]
    assert names[0] == "timeseries.csv" and names[-1] == "summary.json"
    with pytest.raises(ValueError):
        _celltrain.result_files('{"scenario": "A4"}')


def test_run_from_toml_text_and_seed_determinism():
    toml = GOOD_MINIMAL.read_text()
    a = celltrain.run(toml, seed=3)
    b = celltrain.run(toml, seed=3)
    assert a.summary["trace_hash"] == b.summary["trace_hash"]
    assert a.summary["flows"][0]["packets_delivered"] > 0
    c = celltrain.run(str(GOOD_MINIMAL), seed=3)  # the same scenario as a file
    assert c.summary["trace_hash"] == a.summary["trace_hash"]


def test_reference_mode_gives_the_same_results_with_more_events():
    params = {"duration": "0.3 s", "warmup": "0.1 s"}
    fast = celltrain.run("A4", params=params)
    reference = celltrain.run("A4", params=params, reference=True)
    assert reference.summary["events"] > fast.summary["events"]
    for s in (fast.summary, reference.summary):
        for key in ("events", "trace_hash", "wall_s"):
            s.pop(key)
    assert fast.summary == reference.summary


def test_runs_in_threads_overlap_and_agree():
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda s: celltrain.run("A4", params=SHORT, seed=s), [1, 2, 1]))
    assert results[0].summary["trace_hash"] == results[2].summary["trace_hash"]


def test_scenario_error_carries_file_line_and_key():
    bad = '[scenario]\nid = "x"\ntitle = "y"\n[simulation]\nduration = "1 parsec"\n'
    with pytest.raises(celltrain.ScenarioError) as info:
        celltrain.run(bad)
    err = info.value
    assert err.file == "<string>"
    assert err.line == 5
    assert err.key == "simulation.duration"
    assert "bad duration" in str(err)
    with pytest.raises(celltrain.ScenarioError):
        celltrain.check("A4", params={"no_such_param": 1})
    celltrain.check("A4", params={"n_sources": 3})
    with pytest.raises(celltrain.ScenarioError):
        celltrain.run("no-such-scenario")


def test_scenarios_and_show():
    names = [s["name"] for s in celltrain.scenarios()]
    assert {"A1-udp", "A4", "A5-udp", "E1-mux"} <= set(names)
    for s in celltrain.scenarios():
        assert set(s) == {"name", "paper", "title"}
    text = celltrain.show("A5-udp")
    assert 'id = "A5-udp"' in text and "[params]" in text
    # The text runs like the built-in itself.
    a = celltrain.run(text, params=SHORT)
    b = celltrain.run("A5-udp", params=SHORT)
    assert a.summary["trace_hash"] == b.summary["trace_hash"]
    with pytest.raises(celltrain.ScenarioError):
        celltrain.show("nope")


def test_console_script(tmp_path):
    # pip puts the script beside the interpreter that installed the package (a virtual
    # environment's bin/, which is on PATH only once the environment is activated).
    exe = shutil.which("celltrain", path=str(Path(sys.executable).parent)) or shutil.which("celltrain")
    assert exe, "the celltrain console script is installed"
    out = subprocess.run([exe, "list"], capture_output=True, text=True, check=True)
    assert "E1-mux" in out.stdout
    res = subprocess.run(
        [exe, "run", "E1-mux", "--set", "duration=2 s", "--set", "warmup=0.5 s", "--out", str(tmp_path), "--quiet"],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr
    summary = json.loads((tmp_path / "summary.json").read_text())
    cats = {c["category"]: c for c in summary["categories"]}
    assert set(cats) == {"rt-vbr", "nrt-vbr"}
    assert cats["rt-vbr"]["cells_sent"] > 0
    bad = subprocess.run([exe, "run", "A4", "--set", "buffer=-3 cells"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert len(bad.stderr.strip().splitlines()) == 1


def test_help_lists_the_python_commands(cli):
    out = cli("--help")
    assert out.returncode == 0
    for command in ("run", "check", "list", "show", "bench", "sweep", "reproduce"):
        assert command in out.stdout, command
    assert cli("sweep", "--help").returncode == 0
    assert "--grid" in cli("sweep", "--help").stdout
    assert "--quick" in cli("reproduce", "--help").stdout


def test_python_commands_help_is_laid_out_as_the_rust_commands(cli):
    """clap's layout: usage line, Arguments:, Options: with `<VALUE>` placeholders, help last."""
    rust = cli("run", "--help").stdout
    for command, argument in (("sweep", "<SCENARIO>"), ("reproduce", "<TARGET>")):
        out = cli(command, "--help").stdout
        lines = out.splitlines()
        assert f"Usage: celltrain {command} [OPTIONS] {argument}" in lines, out
        assert "Arguments:" in lines and "Options:" in lines, out
        assert lines.index("Arguments:") < lines.index("Options:")
        assert any(line.startswith(f"  {argument}  ") for line in lines), out
        assert "      --jobs <N>" in out and "  -h, --help" in out, out
        options = lines[lines.index("Options:") + 1 :]
        assert [line for line in options if line.strip()][-1].startswith("  -h, --help"), "help is listed last"
    # The same section titles as the Rust commands' help.
    for title in ("Usage: celltrain run [OPTIONS] <SCENARIO>", "Arguments:", "Options:"):
        assert title in rust


def test_python_dash_m():
    out = subprocess.run([sys.executable, "-m", "celltrain", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("celltrain ")


def test_timeseries_is_a_dataframe_when_recorded(tmp_path):
    from pathlib import Path

    toml = (Path(__file__).parents[1] / "good-minimal.toml").read_text()
    toml += '\n[record]\ninterval = "10 ms"\nports = ["h1->sw1"]\n'
    r = celltrain.run(toml)
    ts = r.timeseries
    assert list(ts.columns) == ["time_s", "h1->sw1.queue_cells"]
    assert len(ts) == 101  # 0 s to 1 s every 10 ms
    assert ts["time_s"].iloc[1] == 0.01
    r.write(tmp_path)
    assert (tmp_path / "timeseries.csv").read_text().startswith("time_s,h1->sw1.queue_cells\n")
    assert celltrain.run("A4", params={"duration": "0.2 s", "warmup": "0.1 s"}).timeseries is None


def test_run_out_writes_the_pcaps_the_cli_writes(tmp_path, cli):
    toml = GOOD_MINIMAL.read_text()
    toml = toml.replace('duration = "1 s"', 'duration = "20 ms"')
    toml += '\n[record]\npcap = ["h2"]\npcap_links = ["sw1->h2"]\n'
    scenario = tmp_path / "captured.toml"
    scenario.write_text(toml)
    r = celltrain.run(str(scenario), out=tmp_path / "py")
    res = cli("run", str(scenario), "--out", str(tmp_path / "cli"), "--quiet")
    assert res.returncode == 0, res.stderr
    delivered = r.summary["flows"][0]["packets_delivered"]
    assert delivered > 10
    for name in ("h2.pcap", "sw1_h2.pcap"):
        data = (tmp_path / "py" / name).read_bytes()
        assert data == (tmp_path / "cli" / name).read_bytes(), name
        # The pcap header (24 bytes), then one 16-byte record header per packet, each followed by
        # its captured bytes: count the records.
        records, at = 0, 24
        while at < len(data):
            at += 16 + int.from_bytes(data[at + 8 : at + 12], "little")
            records += 1
        assert at == len(data) and records >= delivered, (name, records, delivered)
    with pytest.raises(OSError):
        celltrain.run(str(scenario), out=tmp_path / "py" / "h2.pcap" / "inside")


BAD_DURATION = '[scenario]\nid = "x"\ntitle = "y"\n[simulation]\nduration = "1 parsec"\n'


def _assert_bad_duration(err):
    assert type(err) is celltrain.ScenarioError
    assert (err.file, err.line, err.key) == ("<string>", 5, "simulation.duration")
    assert str(err).startswith('<string>:5: simulation.duration: bad duration "1 parsec"')


def test_scenario_error_survives_pickling_and_worker_processes():
    import multiprocessing
    import pickle
    from concurrent.futures import ProcessPoolExecutor

    from celltrain._worker import run_point

    assert (celltrain.ScenarioError.__module__, celltrain.ScenarioError.__qualname__) == (
        "celltrain._celltrain", "ScenarioError",
    )  # fmt: skip
    with pytest.raises(celltrain.ScenarioError) as info:
        celltrain.run(BAD_DURATION)
    _assert_bad_duration(pickle.loads(pickle.dumps(info.value)))
    # Unpickled by a fresh interpreter (which imports celltrain to find the class).
    code = (
        "import pickle, sys; e = pickle.loads(sys.stdin.buffer.read()); "
        "print(type(e).__module__, type(e).__name__, e.file, e.line, e.key, sep='|')"
    )
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(info.value), capture_output=True, check=True)
    assert out.stdout.decode().strip() == "celltrain._celltrain|ScenarioError|<string>|5|simulation.duration"
    # Raised in the worker processes of a sweep (sweep itself validates first, so run the
    # function its workers run), forked and spawned.
    for method in ("fork", "spawn"):
        if method not in multiprocessing.get_all_start_methods():
            continue
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context(method)) as pool:
            with pytest.raises(celltrain.ScenarioError) as info:
                pool.submit(run_point, BAD_DURATION, [], None).result()
        _assert_bad_duration(info.value)


TYPED_RUNS = [
    ("A1-tcp", {"duration": "0.3 s", "warmup": "0.1 s"}),
    ("A1-udp", {"duration": "0.3 s", "warmup": "0.1 s"}),
    ("V1", {"duration": "20 s"}),
    ("T1", {"mode": "packet", "duration": "0.3 s", "warmup": "0.1 s"}),
]
STRING_COLUMNS = {"scenario", "name", "vc", "bottleneck", "trace_hash", "scenario_sha256", "version", "key"}
CATEGORY_COLUMNS = {"kind", "category", "policy"}


def _assert_typed(df: pd.DataFrame, what: str, params: frozenset = frozenset()) -> None:
    for col, dtype in df.dtypes.items():
        where = f"{what}.{col} ({dtype})"
        if col in STRING_COLUMNS:
            assert pd.api.types.is_string_dtype(dtype), where
        elif col in CATEGORY_COLUMNS:
            assert isinstance(dtype, pd.CategoricalDtype), where
        elif col in params:  # "0.3 s" or 5: text or a number
            assert dtype != object, where
            assert pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_string_dtype(dtype), where
        else:
            assert dtype != object and pd.api.types.is_numeric_dtype(dtype), where


def test_every_numeric_column_has_a_numeric_dtype():
    from celltrain._frames import tidy_tables

    results = [celltrain.run(name, params=params) for name, params in TYPED_RUNS]
    kinds = set()
    for (name, _p), r in zip(TYPED_RUNS, results):
        for table in ("flows", "vcs", "ports", "categories"):
            _assert_typed(getattr(r, table), f"{name} {table}")
        kinds |= set(r.flows["kind"])
    assert kinds == {"tcp", "udp"}
    tcp, udp, v1, packet = results
    assert tcp.flows["bursts"].dtype == "int64" and tcp.flows["mean_idle_s"].dtype == "float64"
    assert udp.flows["bursts"].dtype == "Int64" and udp.flows["bursts"].isna().all()
    assert udp.flows["completion_s"].dtype == "float64" and udp.flows["completion_s"].isna().all()
    assert tcp.ports["packets_in"].dtype == "Int64" and tcp.ports["mean_queue_bytes"].isna().all()
    assert packet.ports["packets_in"].dtype == "int64" and (packet.ports["packets_in"] > 0).any()
    assert packet.ports["max_queue_bytes"].dtype == "int64" and packet.ports["mean_queue_bytes"].dtype == "float64"
    assert v1.vcs["cells_policed"].dtype == "int64"
    # The tidy tables of a sweep mixing them (nulls where a scenario lacks a measure).
    tables = tidy_tables([({}, r.summary, str(i)) for i, r in enumerate(results)])
    params = frozenset(p for r in results for p in r.params) | {"seed"}
    for table, df in tables.items():
        _assert_typed(df, f"sweep {table}", params)
    assert tables["vcs"]["n_senders"].dtype == "Int64"  # T1 (packet mode) has no VCs: null throughout


def test_the_typed_stub_declares_exactly_the_compiled_modules_names():
    import ast
    import inspect

    from celltrain import _celltrain

    stub = ast.parse((Path(celltrain.__file__).parent / "_celltrain.pyi").read_text())
    declared = {}
    for node in stub.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            declared[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            declared[node.target.id] = node
        elif isinstance(node, ast.Assign):
            declared.update((t.id, node) for t in node.targets if isinstance(t, ast.Name))
    public = {n for n in dir(_celltrain) if not (n.startswith("__") and n.endswith("__"))} | {"__version__"}
    assert set(declared) == public
    # And each function with the compiled one's parameters, in order.
    for name, node in declared.items():
        if isinstance(node, ast.FunctionDef):
            args = node.args
            stub_params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
            assert stub_params == list(inspect.signature(getattr(_celltrain, name)).parameters), name
