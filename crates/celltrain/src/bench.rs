//! Reference networks for measuring simulation speed.

use crate::network::{Adaptation, BuildError, Network, NetworkBuilder, VcSpec};
use celltrain_atm::port::PortConfig;
use celltrain_atm::ServiceCategory;
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::units::BitRate;

/// The longest null pipeline: a VC crosses at most 255 hops.
pub const MAX_HOPS: u32 = 255;
/// The longest null pipeline run, simulated seconds (a day).
pub const MAX_SECONDS: f64 = 86_400.0;

/// The null pipeline: one greedy source whose cells cross a chain of `hops` FIFO links
/// (hops − 1 switches, no discard policy) at 149.76 Mbit/s, for `seconds` of simulated time.
pub fn null_pipeline(hops: u32, seconds: f64) -> Result<Network, BuildError> {
    use crate::network::Field;
    if hops == 0 || hops > MAX_HOPS {
        return Err(BuildError::new(
            Field::Path,
            format!("--hops {hops}: must be 1 to {MAX_HOPS} (a VC's longest route)"),
        ));
    }
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= MAX_SECONDS) {
        return Err(BuildError::new(
            Field::Duration,
            format!("--seconds {seconds}: must be above 0 and at most {MAX_SECONDS}"),
        ));
    }
    let duration = SimDuration::from_secs_f64_round(seconds);
    let mut b = NetworkBuilder::new(0, duration, SimDuration::ZERO);
    let rate = BitRate::from_bps(149_760_000);
    let src = b.add_host("src", 1 << 16)?;
    let mut path = vec![src];
    for i in 1..hops {
        path.push(b.add_switch(&format!("sw{i}"), PortConfig::fifo(1 << 16))?);
    }
    path.push(b.add_host("dst", 1 << 16)?);
    for w in path.windows(2) {
        b.add_link(w[0], w[1], rate, SimDuration::from_micros(50))?;
    }
    let vc = b.add_route(
        VcSpec { name: "vc".into(), path, category: ServiceCategory::Ubr, pcr: None, contract: None, vc_name: None },
        Adaptation::Aal5,
    )?;
    b.add_udp("udp", vc, 9140, None, SimTime::ZERO)?;
    b.build()
}

#[cfg(test)]
mod tests {
    #[test]
    fn null_pipeline_moves_cells_over_every_hop() {
        let mut net = super::null_pipeline(4, 0.01).unwrap();
        net.run(&mut |_| {});
        // 0.01 s at 149.76 Mbit/s is 3532 cell slots per link; the last hops lag by the
        // propagation delay of the links before them.
        let hops = net.cell_hops();
        assert!(hops > 4 * 3400 && hops <= 4 * 3533, "cell-hops {hops}");
        assert!(net.events() < 3 * hops, "events {} for {hops} cell-hops", net.events());
    }

    #[test]
    fn null_pipeline_flags_are_checked_before_building() {
        for (hops, seconds) in
            [(0, 1.0), (256, 1.0), (u32::MAX, 1.0), (4, f64::INFINITY), (4, f64::NAN), (4, -1.0), (4, 0.0), (4, 1e9)]
        {
            let e = super::null_pipeline(hops, seconds).err().unwrap_or_else(|| panic!("{hops} {seconds} accepted"));
            assert!(e.message.contains("must be"), "{}", e.message);
        }
    }
}
