"""The compiled half of celltrain (crates/celltrain-py). Use the ``celltrain`` package instead."""

from typing import Callable, Dict, List, Optional, Tuple

__version__: str

#: The reasons a port drops cells (``buffer_full``, ``epd``, ...), in the order of the
#: ``dropped_<reason>`` columns of ``ports.csv``.
DROP_REASONS: Tuple[str, ...]

class ScenarioError(ValueError):
    """A scenario is invalid. ``args`` = (message, file, line, key, detail)."""

    file: Optional[str]
    line: Optional[int]
    key: Optional[str]

def main(argv: List[str]) -> int:
    """Runs the Rust command line (``argv[0]`` is the program name); returns the exit code."""

def run_json(
    scenario: str,
    overrides: List[Tuple[str, str]],
    seed: Optional[int] = None,
    is_text: bool = False,
    cancel: Optional["RunCancel"] = None,
) -> str:
    """Runs a scenario (path, built-in name, or TOML text when ``is_text``); returns the
    summary as compact JSON. Releases the interpreter lock while it runs. With ``cancel``,
    the run stops with KeyboardInterrupt once the token is cancelled."""

class RunCancel:
    """A cancellation shared by the runs it is given to (``run_json(..., cancel=token)``):
    ``cancel()`` stops them within milliseconds, from any thread."""

    def __init__(self) -> None: ...
    def cancel(self) -> None: ...
    @property
    def cancelled(self) -> bool: ...

def check(
    scenario: str,
    overrides: List[Tuple[str, str]],
    seed: Optional[int] = None,
    is_text: bool = False,
) -> List[str]:
    """Validates a scenario; raises :class:`ScenarioError` if it is invalid; returns its
    warnings (``file:line: key: message``)."""

def cancel_runs() -> None:
    """Stops every run in progress, and every later one, with KeyboardInterrupt, and waits
    (up to 2 s) until they have stopped (called as the interpreter exits)."""

def scenarios() -> List[Tuple[str, str, str]]:
    """The built-in scenarios as ``(name, paper, title)``; ``paper`` is the paper's short id."""

def papers() -> List[Tuple[str, str, str, str, str, str]]:
    """The reproduced papers as ``(id, number, letter, authors, year, title)``."""

def run_with_series(
    scenario: str,
    overrides: list[tuple[str, str]],
    seed: Optional[int] = None,
    is_text: bool = False,
    pcap_dir: Optional[str] = None,
    reference: bool = False,
    progress: Optional[Callable[[float, float], None]] = None,
    cancel: Optional["RunCancel"] = None,
) -> tuple[str, Optional[str], Optional[str]]:
    """As :func:`run_json`, plus the recorded time series as CSV text (``None`` when the
    scenario's ``[record]`` table asks for no sampling) and the change records in long form
    (``time_s,subject,quantity,value``; ``None`` unless ``[record] on_change = true``). With
    ``pcap_dir``, the pcap captures the ``[record]`` table asks for are written there
    (``OSError`` if they cannot be). With ``reference``, no fast path is taken: every cell by events (same results, more events).
    With ``cancel``, as in :func:`run_json`."""
    ...


def result_files(
    summary_json: str, series_csv: Optional[str] = None, changes_csv: Optional[str] = None
) -> List[Tuple[str, str]]:
    """The result files ``celltrain run --out`` writes, as ``(file name, text)`` pairs in
    writing order (``timeseries.csv`` when ``series_csv`` is given, ``flows.csv``,
    ``vcs.csv``, ``ports.csv``, ``timeseries_changes.csv`` when ``changes_csv`` is given,
    ``summary.json`` last), from a run's summary JSON (as
    :func:`run_json` returns it). Raises ``ValueError`` if the JSON is not a summary."""

def gcra_train(
    scr: str,
    mbs: int,
    gap: Optional[str] = None,
    mtu: Optional[int] = None,
    cells_per_pdu: Optional[int] = None,
    pcr: str = "155.52 Mbit/s",
    inter_pdu: Optional[str] = None,
) -> Dict[str, Optional[float]]:
    """BKD97's packet-train model (``celltrain gcra train``) for PDUs of ``mtu`` bytes
    (or ``cells_per_pdu`` cells) sent at the PCR with ``gap`` of idle between them, or every
    ``inter_pdu`` (the host's inter-PDU time, start to start; at most one of the two):
    cells_per_pdu, t_pcr_s, t_scr_s, tau_scr_s, idle_s, train_pdus (eq. 2; None if
    unbounded), train_min_gap_s, train_min_spacing_s (eq. 3; None if one PDU exceeds the
    MBS), train_recovery_s."""

def cac_convolution(
    classes: List[Tuple[int, float, float, Optional[float]]], capacity_bps: float
) -> Tuple[float, float, float]:
    """The bufferless model of ``(count, peak_bps, activity, mean_on_s)`` classes: (mean rate,
    P(rate > C), fluid CLR). Raises ``ValueError`` on a bad descriptor."""

def cac_effective_bandwidth(
    peak_bps: float, activity: float, mean_on_s: float, buffer_bits: float, target: float
) -> float:
    """Guérin et al.'s effective bandwidth (bit/s) of one on/off source with a buffer."""

def cac_aggregate(
    classes: List[Tuple[int, float, float, Optional[float]]], buffer_bits: float, target: float, method: str
) -> float:
    """The capacity the classes need with one buffer: ``fluid``, ``gaussian`` or ``min``."""

def cac_admits(
    rule: str,
    rt: List[Tuple[int, float, float, Optional[float]]],
    nrt: List[Tuple[int, float, float, Optional[float]]],
    capacity_bps: float,
    rt_buffer_bits: float,
    nrt_buffer_bits: float,
    target: float,
    criterion: str = "clr",
    method: str = "fluid",
) -> bool:
    """Does ``rule`` (peak, convolution, linear, rt, nrt, combined) admit the mix?"""

def cac_boundary(
    rule: str,
    rt: Tuple[float, float, float],
    nrt: Tuple[float, float, float],
    n_rt_max: int,
    limit: int,
    capacity_bps: float,
    rt_buffer_bits: float,
    nrt_buffer_bits: float,
    target: float,
    criterion: str = "clr",
    method: str = "fluid",
) -> List[Optional[int]]:
    """For n_rt = 0..n_rt_max, the largest n_nrt ≤ limit that ``rule`` admits with every smaller one."""
