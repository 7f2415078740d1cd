//! A `[[switch]]`'s output-port configuration: buffer, reserved pools, discard policy (tail
//! drop, PPD, EPD and its thresholds, the GFR designs), queueing and the CLP = 1 threshold.

use super::model::positive_u32;
use super::{ScenarioError, TableView};
use celltrain_atm::aal5;
use celltrain_atm::port::buffer::{DiscardConfig, EpdConfig, EpdThreshold};
use celltrain_atm::port::PortConfig;
use celltrain_atm::ServiceCategory;

/// Default switch output buffer (MSc98: 8192 cells).
const DEFAULT_BUFFER_CELLS: u64 = 8192;
/// Default IP MTU for EPD thresholds written in MTUs (Classical IP over ATM, RFC 1626).
const DEFAULT_MTU_BYTES: u64 = 9180;

/// The output-port configuration of a switch: `buffer`, `discard`, `epd_threshold`,
/// `epd_excess`, `mtu`, `queueing`, `reserved`.
pub(super) fn port_config(v: &TableView<'_>) -> Result<PortConfig, ScenarioError> {
    let buffer = positive_u32(v, "buffer", v.opt_cells("buffer")?.unwrap_or(DEFAULT_BUFFER_CELLS))?;
    let mtu = v.opt_bytes("mtu")?.unwrap_or(DEFAULT_MTU_BYTES);
    if mtu == 0 || mtu + aal5::LLC_SNAP_BYTES > aal5::MAX_PAYLOAD_BYTES {
        return Err(v.key_error("mtu", format!("{mtu} bytes does not fit an AAL5 frame")));
    }
    let mtu_cells = u32::try_from(aal5::cells_for_ip_datagram(mtu)).unwrap_or(u32::MAX);
    let discard = v
        .opt_keyword("discard", &["tail-drop", "ppd", "epd", "gfr-fifo", "per-vc-threshold", "frame-red"])?
        .unwrap_or("tail-drop");
    if super::gfr::DESIGNS.contains(&discard) {
        let per_vc_queues =
            if v.contains("queueing") { per_vc(v)? } else { super::gfr::queues_per_vc_by_default(discard) };
        return Ok(PortConfig {
            buffer_cells: buffer,
            reserved: reserved(v)?,
            discard: super::gfr::discard(v, discard, buffer, mtu_cells)?,
            per_vc_queues,
            clp1_threshold: clp1_threshold(v, buffer)?,
        });
    }
    let threshold = v.opt_str("epd_threshold")?;
    let excess = v.opt_float("epd_excess")?;
    let discard = match (discard, threshold, excess) {
        ("epd", Some(_), Some(_)) => {
            return Err(v.key_error("epd_excess", "give either epd_threshold or epd_excess, not both"))
        }
        ("epd", None, Some(b)) => {
            if b.is_nan() || b < 0.0 {
                return Err(v.key_error("epd_excess", "must be ≥ 0 (MTUs below the buffer size)"));
            }
            EpdThreshold::ExcessMtus { b, mtu_cells }
        }
        ("epd", Some("auto") | None, None) => EpdThreshold::MSc98 { mtu_cells },
        ("epd", Some(text), None) => {
            let node = v.req("epd_threshold")?;
            if text.trim_end().ends_with('%') {
                EpdThreshold::Fraction(node.fraction()?)
            } else {
                EpdThreshold::Cells(u32::try_from(node.cells()?).unwrap_or(u32::MAX))
            }
        }
        (_, Some(_), _) => return Err(v.key_error("epd_threshold", "only applies with discard = \"epd\"")),
        (_, _, Some(_)) => return Err(v.key_error("epd_excess", "only applies with discard = \"epd\"")),
        (other, None, None) => {
            if v.opt_bool("epd_keep_eom")?.is_some() {
                return Err(v.key_error("epd_keep_eom", "only applies with discard = \"epd\""));
            }
            return Ok(PortConfig {
                buffer_cells: buffer,
                reserved: reserved(v)?,
                discard: if other == "ppd" { DiscardConfig::Ppd } else { DiscardConfig::TailDrop },
                per_vc_queues: per_vc(v)?,
                clp1_threshold: clp1_threshold(v, buffer)?,
            });
        }
    };
    super::epd_pools::check(v, discard, buffer)?;
    Ok(PortConfig {
        buffer_cells: buffer,
        reserved: reserved(v)?,
        discard: match v.opt_bool("epd_keep_eom")? {
            // The Fore switch of LRP97 keeps a refused frame's last cell (EOM).
            Some(true) => DiscardConfig::EpdWith(EpdConfig { threshold: discard, keep_refused_eom: true }),
            _ => DiscardConfig::Epd(discard),
        },
        per_vc_queues: per_vc(v)?,
        clp1_threshold: clp1_threshold(v, buffer)?,
    })
}

/// `clp1_threshold = "6000 cells"`: CLP = 1 cells are refused from that occupancy on.
fn clp1_threshold(v: &TableView<'_>, buffer: u32) -> Result<Option<u32>, ScenarioError> {
    let Some(cells) = v.opt_cells("clp1_threshold")? else { return Ok(None) };
    if cells > u64::from(buffer) {
        return Err(v.key_error("clp1_threshold", format!("{cells} cells is above the buffer of {buffer} cells")));
    }
    Ok(Some(u32::try_from(cells).expect("at most the buffer")))
}

fn per_vc(v: &TableView<'_>) -> Result<bool, ScenarioError> {
    // "priority" is what a cell port does with "fifo" (one FIFO per class, strict priority);
    // it differs only at packet ports (`super::packet_mode::packet_priority`).
    Ok(v.opt_keyword("queueing", &["fifo", "per-vc", "priority"])?.unwrap_or("fifo") == "per-vc")
}

/// `reserved = { nrt-vbr = "1500 cells", ... }`: categories with a pool of their own.
fn reserved(v: &TableView<'_>) -> Result<Vec<(ServiceCategory, u32)>, ScenarioError> {
    let Some(t) = v.opt_table("reserved")? else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (key, node) in t.entries() {
        let cat = ServiceCategory::parse(&key.name).ok_or_else(|| {
            t.key_error(&key.name, "unknown service category (use cbr, rt-vbr, nrt-vbr, abr, gfr or ubr)")
        })?;
        let cells = positive_u32(&t, &key.name, node.cells()?)?;
        out.push((cat, cells));
    }
    Ok(out)
}
