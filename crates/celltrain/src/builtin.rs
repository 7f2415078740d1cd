//! The built-in scenarios, one per experiment id of the reproduction catalogue
//! (`python/celltrain/reproductions/catalogue.toml`, `docs/references.md#reproduced-papers`), compiled into
//! the library so that `celltrain run A4` works from anywhere.

/// A scenario shipped with celltrain.
#[derive(Clone, Copy, Debug)]
pub struct Builtin {
    /// The name it runs by (the experiment id, with a suffix where one experiment has
    /// several scenarios).
    pub name: &'static str,
    /// The id of the paper it reproduces (`MSc98`; see `crate::papers`).
    pub source: &'static str,
    pub title: &'static str,
    /// The scenario file's text.
    pub text: &'static str,
}

macro_rules! builtin {
    ($name:literal, $source:literal, $title:literal) => {
        Builtin {
            name: $name,
            source: $source,
            title: $title,
            text: include_str!(concat!("../../../scenarios/", $name, ".toml")),
        }
    };
}

const ALL: &[Builtin] = &[
    builtin!("V1", "BKD97", "TCP over a policed VBR VC, no shaping, 500 ms timer granularity, delayed ACK on"),
    builtin!("V2", "BKD97", "Packet-train model: measured bursts against eq. (2), 500 ms timer"),
    builtin!("V3", "BKD97", "200 ms timer granularity, 50 ms delayed-ACK timer"),
    builtin!("V4", "BKD97", "10 ms timer granularity, delayed ACK disabled"),
    builtin!("V5", "BKD97", "The adapter shapes to the SCR (10 Mbit/s cell rate), 500 ms timer"),
    builtin!("V6", "BKD97", "AAL5 with and without a reassembly timer: merged PDUs after a lost last cell"),
    builtin!("V7", "BKD97", "Several TCP connections in one VBR VC, 500 ms timer"),
    builtin!("A1-udp", "MSc98", "One UDP source over UBR, end-to-end ATM, two-node (RTT 10 ms)"),
    builtin!(
        "A1-tcp",
        "MSc98",
        "One TCP Reno source over UBR, end-to-end ATM, two-node (RTT 10 ms, window 20 segments)"
    ),
    builtin!("A2-ubr", "MSc98", "Zero-loss (unbounded) switch buffers, 5 and 10 TCP sources over UBR: queue growth"),
    builtin!("A3", "MSc98", "5 TCP sources over UBR+EPD, end-to-end ATM, two-node"),
    builtin!("A4", "MSc98", "5 UDP sources over UBR+EPD, end-to-end ATM, two-node"),
    builtin!("A5-tcp", "MSc98", "N TCP sources over UBR+EPD, end-to-end ATM, two-node (N = 5, 10, 15, 20)"),
    builtin!("A5-udp", "MSc98", "N UDP sources over UBR+EPD, end-to-end ATM, two-node (N = 5, 10, 15, 20)"),
    builtin!("A6", "MSc98", "5 TCP sessions with background VBR load, two-node, UBR+EPD or ABR"),
    builtin!(
        "A7-tcp",
        "MSc98",
        "Multiple-node configuration 1: TCP Reno sources, N congested links (3), UBR+EPD or ABR"
    ),
    builtin!(
        "A7-udp",
        "MSc98",
        "Multiple-node configuration 1: greedy UDP sources, N congested links (3), UBR+EPD or ABR"
    ),
    builtin!(
        "A9",
        "MSc98",
        "Multiple-node configuration 2: 10 TCP sources, 100 Mbit/s VBR downstream, UBR+EPD or ABR"
    ),
    builtin!("A10-tcp", "MSc98", "Internetwork, two-node, one TCP source per edge router, UBR+EPD or ABR"),
    builtin!("A10-udp", "MSc98", "Internetwork, two-node, one UDP source per edge router, UBR+EPD or ABR"),
    builtin!(
        "A12-ubr",
        "MSc98",
        "Internetwork, 5 TCP flows multiplexed in router 1 + 4 single-flow routers, UBR+EPD"
    ),
    builtin!(
        "A13",
        "MSc98",
        "Internetwork on multiple-node configuration 1: TCP through edge routers, N congested links (3)"
    ),
    builtin!(
        "A13-udp",
        "MSc98",
        "Internetwork on multiple-node configuration 1: greedy UDP through edge routers, N congested links (3)"
    ),
    builtin!("T1", "AD97", "TCP-Lite over ATM vs packet network, topology 1 of AD97 (switch buffer varied)"),
    builtin!(
        "T5",
        "AD97",
        "Short transfers over ATM vs packet network, topology 1 of AD97 (transfer size varied)"
    ),
    builtin!(
        "T1-topo2",
        "AD97",
        "TCP over ATM vs packet network, topology 2 of AD97 (two bottlenecks, switch buffer varied)"
    ),
    builtin!(
        "E2",
        "LRP97",
        "TCP over plain UBR: 2 sessions into a 37.44 Mbit/s bottleneck, switch buffer and MTU varied"
    ),
    builtin!(
        "E3",
        "LRP97",
        "TCP over UBR with EPD: threshold = buffer - b·MTU, excess capacity b varied (b = 0 is PPD)"
    ),
    builtin!(
        "E4",
        "LRP97",
        "Delayed ACKs (SunOS) on and off, with PPD or EPD: goodput and fairness of 2 TCP sessions"
    ),
    builtin!("E1-mux", "LRP97", "On/off sources into a delay-priority port (rt-VBR 48 cells, nrt-VBR 4000 cells)"),
    builtin!(
        "G1",
        "BN01",
        "Workstation traffic over GFR.2: simple switch (one FIFO, low threshold 2000 cells), MBS 2000, 10 VCs of MCR 2-10 Mbit/s"
    ),
    builtin!(
        "G2",
        "BN01",
        "Workstation traffic over GFR.1: per-VC queues with Virtual Spacing, per-VC thresholds, MBS 320"
    ),
    builtin!(
        "G3",
        "BN01",
        "Internetwork traffic over GFR.2: 20 LANs x 10 workstations behind routers, simple switch, MBS 320"
    ),
    builtin!(
        "G4",
        "BN01",
        "Internetwork traffic over GFR.1: per-VC queues with Virtual Spacing, per-VC thresholds, MBS 320"
    ),
    builtin!("L1", "L", "Today's Linux TCP through a token-bucket policer (packet network)"),
    builtin!("L1-atm", "L", "Today's Linux TCP over a policed VBR VC (ATM)"),
];

/// Every built-in scenario, in catalogue order.
pub fn all() -> &'static [Builtin] {
    ALL
}

/// The built-in scenario called `name` (case-insensitive).
pub fn find(name: &str) -> Option<Builtin> {
    ALL.iter().copied().find(|b| b.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_matches_the_files() {
        for b in all() {
            assert!(b.text.contains(&format!("id = \"{}\"", b.name)), "{}: id differs from its name", b.name);
            // A title may follow the parameters (`${service|ubr=UBR+EPD|...}`): with the
            // defaults it reads as listed.
            let compiled = crate::scenario::compile(b.name, &[], None).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(compiled.meta.title, b.title, "{}: title differs from the file", b.name);
        }
        assert!(find("a4").is_some());
        assert!(find("nope").is_none());
    }
}
