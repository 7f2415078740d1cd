//! Per-pool and per-class queue columns of the recorded ports (`[record] queues`).

use super::{Network, Port};
use celltrain_atm::ServiceCategory;
use celltrain_core::ids::PortId;

/// How much of a recorded port's queue the time series shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum QueueDetail {
    /// The whole queue only (`queues = "total"`, the default).
    #[default]
    Total,
    /// Also each buffer pool, where the port has reserved pools (`queues = "pools"`).
    Pools,
    /// Also each priority class, where classes have their own queues (`queues = "classes"`).
    Classes,
}

impl QueueDetail {
    /// The keywords of `[record] queues`.
    pub const KEYWORDS: [&'static str; 3] = ["total", "pools", "classes"];

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "total" => Some(Self::Total),
            "pools" => Some(Self::Pools),
            "classes" => Some(Self::Classes),
            _ => None,
        }
    }
}

/// One part of a port's queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueuePart {
    /// A buffer pool (0: the shared pool).
    Pool(usize),
    /// The queues of a priority class.
    Class(usize),
}

fn category_of_class(class: usize) -> Option<ServiceCategory> {
    ServiceCategory::ALL.into_iter().find(|c| c.priority() == class)
}

/// The parts of the recorded ports that `detail` adds, with their column names: pools as
/// `<port>.<shared|category>.pool_cells`, classes as `<port>.<category>.queue_cells`. A port
/// with one pool (or one class queue) adds nothing: its total says it all.
pub fn port_parts(detail: QueueDetail, recorded: &[PortId], ports: &[Port]) -> Vec<(PortId, QueuePart, String)> {
    let mut parts = Vec::new();
    for &p in recorded {
        let port = &ports[p.index()];
        if port.packets.is_some() {
            continue;
        }
        let q = &port.queue;
        // (pool, class) of every VC slot, to name pools by the class that draws on them.
        let slots: Vec<(usize, usize)> = (0..q.slot_count()).map(|s| q.slot_pool_and_class(s as u32)).collect();
        match detail {
            QueueDetail::Total => {}
            QueueDetail::Pools => {
                let pools = q.pool_capacities().count();
                for k in (0..pools).filter(|_| pools > 1) {
                    let name = match slots.iter().find(|s| s.0 == k).and_then(|s| category_of_class(s.1)) {
                        _ if k == 0 => "shared".to_string(),
                        Some(cat) => cat.name().to_string(),
                        None => format!("pool{k}"),
                    };
                    parts.push((p, QueuePart::Pool(k), format!("{}.{name}.pool_cells", port.name)));
                }
            }
            QueueDetail::Classes => {
                let mut classes: Vec<usize> = slots.iter().map(|s| s.1).collect();
                classes.sort_unstable();
                classes.dedup();
                if q.queue_count() < 2 || classes.len() < 2 {
                    continue;
                }
                for class in classes {
                    let cat =
                        category_of_class(class).map_or_else(|| format!("class{class}"), |c| c.name().to_string());
                    parts.push((p, QueuePart::Class(class), format!("{}.{cat}.queue_cells", port.name)));
                }
            }
        }
    }
    parts
}

impl Network {
    /// The cells in one part of a recorded port's queue now.
    pub(super) fn part_cells(&mut self, p: PortId, part: QueuePart) -> f64 {
        self.settle_port(p);
        let q = &self.ports[p.index()].queue;
        f64::from(match part {
            QueuePart::Pool(k) => q.pool_cells(k),
            QueuePart::Class(c) => q.class_cells(c),
        })
    }
}
