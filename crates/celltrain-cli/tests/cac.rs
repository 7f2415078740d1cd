//! `celltrain cac …` as a user meets it: the textbook answers, and bad input as one line
//! with exit code 2.

use std::process::{Command, Output};

fn celltrain(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_celltrain")).args(args).output().expect("runs")
}

fn ok(args: &[&str]) -> String {
    let out = celltrain(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn peak_convolution_and_effective_answers() {
    let peak = ok(&["cac", "peak", "--class", "0 x 10 Mbit/s, rho 1", "--largest"]);
    assert!(peak.contains("largest count of the last class: 14"), "{peak}");
    let conv = ok(&["cac", "convolution", "--class", "40 x 10 Mbit/s, rho 0.1"]);
    assert!(conv.contains("P(rate > C) 3.4806e-6") && conv.contains("fluid CLR 1.9559e-7"), "{conv}");
    assert!(conv.ends_with("refused\n"), "{conv}");
    let largest = |criterion| {
        ok(&["cac", "convolution", "--class", "1 x 10 Mbit/s, rho 0.1", "--criterion", criterion, "--largest"])
    };
    assert!(largest("overflow").contains("last class: 36"));
    assert!(largest("clr").contains("last class: 44"));
    let eb = ok(&["cac", "effective", "--class", "50 x 10 Mbit/s, rho 0.1, on 100 ms", "--buffer", "1 Mbit"]);
    assert!(eb.contains("ĉ 9.282393 Mbit/s each") && eb.contains("Gaussian 157.735393"), "{eb}");
    let nrt = ok(&[
        "cac",
        "effective",
        "--class",
        "20 x 10 Mbit/s, rho 0.1, on 100 ms",
        "--class",
        "0 x 2 Mbit/s, on 50 ms, off 50 ms",
        "--buffer",
        "10 Mbit",
        "--method",
        "fluid",
        "--largest",
    ]);
    assert!(nrt.contains("last class: 67"), "{nrt}");
}

#[test]
fn region_table_of_lrp97() {
    let table = ok(&["cac", "region", "--n-rt-max", "6"]);
    let rows: Vec<Vec<&str>> = table.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows[0], ["n_rt", "peak", "convolution", "linear", "rt", "nrt", "combined"]);
    assert_eq!(rows.len(), 8);
    // No rt source: peak allocation fits floor(149.76 / 31.1) = 4 sources.
    assert_eq!(rows[1][1], "4");
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    for args in [
        vec!["cac", "peak", "--class", "3 x bogus"],
        vec!["cac", "convolution", "--class", "3 x 1 Mbit/s, rho 0.1", "--target", "2"],
        vec!["cac", "convolution", "--class", "3 x 1 Mbit/s, rho 0.1", "--criterion", "median"],
        vec!["cac", "effective", "--class", "3 x 1 Mbit/s, rho 0.1", "--buffer", "1 Mbit"],
        vec!["cac", "effective", "--class", "3 x 1 Mbit/s, rho 0.1, on 1 ms", "--buffer", "1 parsec"],
        vec!["cac", "region", "--rt", "31.1 Mbit/s, on 20 ms"],
        vec!["cac", "peak", "--class", "three x 1 Mbit/s, rho 0.1"],
    ] {
        let out = celltrain(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: --"), "{args:?}: names the flag: {err}");
        assert!(out.stdout.is_empty());
    }
}

/// Runs `celltrain` for at most `limit`; None when it was still running (then killed).
fn within(args: &[&str], limit: std::time::Duration) -> Option<Output> {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_celltrain"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let started = std::time::Instant::now();
    while child.try_wait().expect("waits").is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    Some(child.wait_with_output().expect("output"))
}

#[test]
fn huge_questions_fail_at_once_naming_the_limit() {
    let three_classes = [
        "cac",
        "convolution",
        "--class",
        "100000 x 10 Mbit/s, rho 0.1",
        "--class",
        "100000 x 2 Mbit/s, rho 0.1",
        "--class",
        "100000 x 1.5 Mbit/s, rho 0.1",
    ];
    let scans = [
        vec!["cac", "region", "--n-rt-max", "100000", "--limit", "100000"],
        vec!["cac", "convolution", "--class", "1 x 1 kbit/s, rho 0.1", "--largest"],
    ];
    for (args, limit_s) in std::iter::once((three_classes.to_vec(), 5)).chain(scans.into_iter().map(|a| (a, 120))) {
        let out =
            within(&args, std::time::Duration::from_secs(limit_s)).unwrap_or_else(|| panic!("{args:?}: still running"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: --") && err.contains("100000000 terms of work (the limit)"), "{err}");
        assert!(out.stdout.is_empty(), "no partial table");
    }
}

#[test]
fn gaussian_admits_one_source_below_the_capacity() {
    // m + α'σ alone asks 304 Mbit/s for one 100 Mbit/s source; the peak sum caps it.
    let one = ok(&[
        "cac",
        "effective",
        "--class",
        "1 x 100 Mbit/s, rho 0.5, on 10 ms",
        "--buffer",
        "0",
        "--method",
        "gaussian",
        "--capacity",
        "155 Mbit/s",
    ]);
    assert!(one.contains("Gaussian 100.000000 Mbit/s") && one.ends_with("admitted\n"), "{one}");
}
