//! HyStart++ on the wire: a sender whose queue at the line grows without bound leaves slow
//! start once the round trip has grown by RttThresh, not at a loss.

use super::cubic::config;
use super::pair::{ms, Pair, Side};
use crate::{CcKind, DelayedAck, TcpConfig};
use celltrain_core::SimDuration;

/// 10 Mbit/s, 50 ms round trip (62.5 segments in flight fill it), an unlimited queue: the
/// time ssthresh was first set, and the window then.
fn exit(cc: CcKind, hystart: bool) -> Option<(u64, u32)> {
    let cfg = TcpConfig { hystart, ..config(cc, DelayedAck::Off) };
    let mut p = Pair::new(cfg.clone(), cfg, SimDuration::from_millis(25));
    p.rate_bps = Some(10_000_000);
    p.write(Side::A, 1 << 40);
    let initial = p.a.ssthresh();
    while p.now < ms(5_000) && p.step() {
        if p.a.ssthresh() != initial {
            return Some(((p.now - ms(0)).as_picos() / 1_000_000_000, p.a.ssthresh()));
        }
    }
    None
}

/// Slow start from 10 segments doubles each round trip; the round whose window passes the
/// 62.5 segments the path holds starts the queue, so the next round's minimum RTT is above
/// the last's by more than RttThresh (50 ms / 8 = 6.25 ms), 145 segments into slow start.
/// Conservative Slow Start then grows a quarter as fast for five rounds (x 1.25 each, the
/// round trips lengthening with the queue) and sets ssthresh to the window: 456 segments at
/// 1.32 s, measured. Without HyStart++ slow start goes on until the queue overflows; here it
/// never does, and ssthresh is never set.
#[test]
fn hystart_sets_ssthresh_from_the_rtt_rise_without_a_loss() {
    for cc in [CcKind::Cubic, CcKind::LinuxReno] {
        let (t_ms, ssthresh) = exit(cc, true).unwrap_or_else(|| panic!("{cc:?}: no exit"));
        assert!(
            (1_200..1_500).contains(&t_ms) && (400_000..500_000).contains(&ssthresh),
            "{cc:?}: {t_ms} ms {ssthresh}"
        );
        assert_eq!(exit(cc, false), None, "{cc:?}");
    }
}
