"""Shared helpers of the ablation scripts: run a built-in through the `celltrain` command
(or the one `$CELLTRAIN` names) over seeds and summarise a measure as a mean with its 95 %
confidence interval (Student t over the seeds). Not imported by the package."""

import json
import math
import os
import statistics as st
import subprocess

CELLTRAIN = os.environ.get("CELLTRAIN", "celltrain")

# Two-sided 95 % Student t quantiles by degrees of freedom.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}


def run(scenario, sets, seed, celltrain=None):
    """The summary (JSON) of `celltrain run scenario --set k=v ... --seed seed`."""
    cmd = [celltrain or CELLTRAIN, "run", scenario, "--seed", str(seed), "--json", "--quiet"]
    for k, v in sets.items():
        cmd += ["--set", f"{k}={v}"]
    return json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)


def mean_ci(values):
    """(mean, half-width of the 95 % interval); the half-width is NaN for fewer than two values
    (no interval), and both are NaN when the mean is."""
    m = st.fmean(values)
    if len(values) < 2 or math.isnan(m):
        return m, float("nan")
    return m, T95.get(len(values) - 1, 1.96) * st.stdev(values) / math.sqrt(len(values))


def fmt(values, scale=1.0, digits=2):
    """`mean ± half-width`, scaled; "n/a" without a mean, the mean alone without an interval."""
    m, h = mean_ci([v * scale for v in values])
    if math.isnan(m):
        return "n/a"
    return f"{m:.{digits}f}" if math.isnan(h) else f"{m:.{digits}f} ± {h:.{digits}f}"


def command(scenario, sets, seeds):
    args = " ".join(f"--set {k}={v!r}" if " " in str(v) else f"--set {k}={v}" for k, v in sets.items())
    return f"celltrain run {scenario} {args} --seed N  (N = {seeds[0]}..{seeds[-1]})"
