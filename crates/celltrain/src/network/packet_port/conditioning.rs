//! Token-bucket traffic conditioning at packet ports (packet mode): a policer where a link's
//! packets enter the node at its far end, as Linux's `act_police` with the `drop` action, and a
//! shaper in front of a link, as Linux's token bucket filter queueing discipline (`tbf`), both
//! as the Linux traffic-control manual pages `tc-police(8)` and `tc-tbf(8)` describe them.
//!
//! ```text
//!  port a->c:  offer ─► PacketShaper::admits ─► queue ─► PacketShaper::ready_at ─► link ─►
//!              PacketPolicer::on_packet ─► c forwards it (Conform) / lost (Drop)
//! ```
//! Each conditioner implements a contract ([`PacketPolicer`], [`PacketShaper`]); dispatch is
//! by an enum per kind, declared from a table (`policers!`, `shapers!` below), as the ATM
//! side's ingress policers are (`celltrain_atm::ingress`).
//!
//! Tokens are kept exactly, in integers: a byte is [`UNITS_PER_BYTE`] units and a rate of r
//! bit/s adds r units per picosecond, so no rounding accumulates however long a bucket fills.

use super::PacketQueue;
use celltrain_core::keys::Keys;
use celltrain_core::time::{SimDuration, SimTime};
use celltrain_core::units::BitRate;

/// Token units per byte: 8 bits × 10^12 ps/s, so that r bit/s is r units per picosecond.
pub const UNITS_PER_BYTE: u128 = 8 * 1_000_000_000_000;

/// Octets of the Ethernet header that `tbf` counts with each IP packet (the length of a packet
/// on a Linux Ethernet device's egress queue: destination, source and type fields).
pub const ETHERNET_HEADER_BYTES: u64 = 14;

/// `tbf`'s default queue limit, as a latency (what `tc-tbf(8)` examples use).
pub const DEFAULT_SHAPER_LATENCY: SimDuration = SimDuration::from_millis(50);

/// A conditioner's scenario keys (`police = { rate, burst }`, `shape = { rate, burst, latency }`):
/// a token bucket's `rate` and `burst` (its depth in bytes), both required and positive, the
/// burst at most `max_burst_bytes`.
fn read_bucket<K: Keys>(keys: &K, max_burst_bytes: u64) -> Result<(BitRate, u64), K::Error> {
    // (A rate of zero is refused as the value is read.)
    let rate = keys.rate("rate")?.ok_or_else(|| keys.missing("rate"))?;
    let burst = keys.bytes("burst")?.ok_or_else(|| keys.missing("burst"))?;
    if burst == 0 {
        return Err(keys.key_error("burst", "must be positive (the bucket's depth in bytes)".into()));
    }
    if burst > max_burst_bytes {
        return Err(keys.key_error("burst", format!("{burst} B is too large (max {max_burst_bytes} B)")));
    }
    Ok((rate, burst))
}

/// `active = "yes" | "no"` (default yes): a parameter cannot remove a key, so a scenario that
/// chooses its conditioning by a parameter (`${conditioning|shape=no|police=yes}`) switches the
/// conditioner off with this instead; an inactive one is checked as ever and does nothing.
fn read_active<K: Keys>(keys: &K) -> Result<bool, K::Error> {
    Ok(keys.keyword("active", &["yes", "no"])?.is_none_or(|k| k == "yes"))
}

/// A token bucket of `depth` bytes that fills at `rate`, starting full.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenBucket {
    rate_bps: u64,
    depth_units: u128,
    tokens_units: u128,
    filled_at: SimTime,
}

impl TokenBucket {
    /// # Panics
    /// If `rate` is zero (the scenario refuses it).
    pub fn new(rate: BitRate, depth_bytes: u64) -> Self {
        assert!(rate.as_bps() > 0, "a token bucket fills at a positive rate");
        let depth_units = u128::from(depth_bytes) * UNITS_PER_BYTE;
        TokenBucket { rate_bps: rate.as_bps(), depth_units, tokens_units: depth_units, filled_at: SimTime::ZERO }
    }

    /// The tokens at `now` (never before the last fill), capped at the depth.
    fn fill(&mut self, now: SimTime) {
        let elapsed_ps = now.saturating_since(self.filled_at).as_picos();
        let added = u128::from(self.rate_bps) * u128::from(elapsed_ps);
        // (Saturating: any rate for any time still only fills the bucket.)
        self.tokens_units = self.tokens_units.saturating_add(added).min(self.depth_units);
        self.filled_at = self.filled_at.max(now);
    }

    /// Whole bytes of tokens at `now` (for tests and reports).
    pub fn tokens_bytes(&mut self, now: SimTime) -> u64 {
        self.fill(now);
        u64::try_from(self.tokens_units / UNITS_PER_BYTE).unwrap_or(u64::MAX)
    }

    /// Takes `bytes` of tokens at `now` if the bucket holds them; leaves it as it was if not.
    pub fn take(&mut self, bytes: u64, now: SimTime) -> bool {
        self.fill(now);
        let need = u128::from(bytes) * UNITS_PER_BYTE;
        if self.tokens_units < need {
            return false;
        }
        self.tokens_units -= need;
        true
    }

    /// The first instant at or after `now` when the bucket holds `bytes` (no later than the
    /// bucket can ever hold them: `bytes` must not exceed the depth).
    pub fn ready_at(&mut self, bytes: u64, now: SimTime) -> SimTime {
        self.fill(now);
        let need = u128::from(bytes) * UNITS_PER_BYTE;
        debug_assert!(need <= self.depth_units, "a packet larger than the bucket never conforms");
        let missing = need.saturating_sub(self.tokens_units);
        let wait_ps = missing.div_ceil(u128::from(self.rate_bps));
        // (Saturating: a tiny rate and a deep bucket may wait past the end of simulated time.)
        SimTime::from_picos(now.as_picos().saturating_add(u64::try_from(wait_ps).unwrap_or(u64::MAX)))
    }
}

/// A policer's answer for one packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Conform,
    Drop,
}

/// The contract of a packet policer.
///
/// - It is shown every packet its link delivers to the node at the link's far end (that node's
///   ingress), in arrival order, at its arrival, with the packet's IP length, and answers
///   conform (the node forwards it) or drop (it is lost there, counted by the caller).
/// - It keeps only its own state (its bucket); a dropped packet leaves that state unchanged.
///
/// A new policer is a type implementing this trait and one line in the table of
/// [`PacketPolicerKind`] (`policers!` below).
pub trait PacketPolicer {
    /// The policer's name in reports.
    const NAME: &'static str;

    fn on_packet(&mut self, now: SimTime, ip_bytes: u64) -> Verdict;
}

/// The contract of a packet shaper.
///
/// - Its port asks it, for each packet offered, whether its queue admits the packet beside the
///   packets already waiting (their IP bytes and count); a refusal is a drop the port counts.
/// - When the port's transmitter is free and a packet is at the head of its queue, the port
///   asks when that packet may start ([`ready_at`](Self::ready_at), never before `now`), waits
///   until then (the line rate still applies after), and tells it when the packet starts
///   ([`sent`](Self::sent)); a shaper may be asked again before a packet is sent (another
///   packet may have come to the head meanwhile).
/// - It keeps only its own state (its bucket).
///
/// A new shaper is a type implementing this trait and one line in the table of
/// [`PacketShaperKind`] (`shapers!` below).
pub trait PacketShaper {
    /// The shaper's name in reports.
    const NAME: &'static str;

    fn admits(&self, queued_ip_bytes: u64, queued_packets: u64, ip_bytes: u64) -> bool;
    fn ready_at(&mut self, now: SimTime, ip_bytes: u64) -> SimTime;
    fn sent(&mut self, now: SimTime, ip_bytes: u64);
}

/// Linux's `act_police` with `conform-exceed drop`: a bucket of `burst` bytes filling at
/// `rate`, full at the start; a packet of L IP bytes conforms if the bucket holds L (which it
/// then takes), and is dropped otherwise, leaving the bucket as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenPolicer {
    bucket: TokenBucket,
}

impl TokenPolicer {
    /// The policer a link's `police` table describes (`rate`, `burst`, `active`); none when
    /// it is inactive.
    pub fn read<K: Keys>(keys: &K, max_burst_bytes: u64) -> Result<Option<Self>, K::Error> {
        let (rate, burst) = read_bucket(keys, max_burst_bytes)?;
        Ok(read_active(keys)?.then(|| TokenPolicer::new(rate, burst)))
    }

    pub fn new(rate: BitRate, burst_bytes: u64) -> Self {
        TokenPolicer { bucket: TokenBucket::new(rate, burst_bytes) }
    }
}

impl PacketPolicer for TokenPolicer {
    const NAME: &'static str = "police";

    #[inline]
    fn on_packet(&mut self, now: SimTime, ip_bytes: u64) -> Verdict {
        if self.bucket.take(ip_bytes, now) {
            Verdict::Conform
        } else {
            Verdict::Drop
        }
    }
}

/// Linux's `tbf` without a peak rate: a bucket of `burst` bytes filling at `rate`; a packet
/// leaves when the bucket holds its length on an Ethernet device (IP bytes +
/// [`ETHERNET_HEADER_BYTES`]). Its queue holds at most `limit_bytes` of such lengths, the
/// latency given turned into bytes as `tc` does (rate × latency + burst); a packet longer than
/// the bucket is refused, as `tbf` refuses one longer than its largest size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tbf {
    bucket: TokenBucket,
    burst_bytes: u64,
    limit_bytes: u64,
}

impl Tbf {
    /// The shaper a link's `shape` table describes (`rate`, `burst`, `latency`, `active`);
    /// none when it is inactive.
    pub fn read<K: Keys>(keys: &K, max_burst_bytes: u64) -> Result<Option<Self>, K::Error> {
        let (rate, burst) = read_bucket(keys, max_burst_bytes)?;
        let latency = keys.duration("latency")?.unwrap_or(DEFAULT_SHAPER_LATENCY);
        Ok(read_active(keys)?.then(|| Tbf::new(rate, burst, latency)))
    }

    pub fn new(rate: BitRate, burst_bytes: u64, latency: SimDuration) -> Self {
        Tbf {
            bucket: TokenBucket::new(rate, burst_bytes),
            burst_bytes,
            limit_bytes: Self::limit(rate, burst_bytes, latency),
        }
    }

    /// `tc`'s queue limit for a latency: the bytes the rate sends in that time (rounded down),
    /// plus the burst.
    pub fn limit(rate: BitRate, burst_bytes: u64, latency: SimDuration) -> u64 {
        let sent = u128::from(rate.as_bps()) * u128::from(latency.as_picos()) / UNITS_PER_BYTE;
        u64::try_from(sent).unwrap_or(u64::MAX).saturating_add(burst_bytes)
    }

    pub fn limit_bytes(&self) -> u64 {
        self.limit_bytes
    }

    const fn framed(ip_bytes: u64) -> u64 {
        ip_bytes + ETHERNET_HEADER_BYTES
    }
}

impl PacketShaper for Tbf {
    const NAME: &'static str = "tbf";

    #[inline]
    fn admits(&self, queued_ip_bytes: u64, queued_packets: u64, ip_bytes: u64) -> bool {
        let backlog = queued_ip_bytes + queued_packets * ETHERNET_HEADER_BYTES;
        Self::framed(ip_bytes) <= self.burst_bytes && backlog + Self::framed(ip_bytes) <= self.limit_bytes
    }

    #[inline]
    fn ready_at(&mut self, now: SimTime, ip_bytes: u64) -> SimTime {
        self.bucket.ready_at(Self::framed(ip_bytes), now)
    }

    #[inline]
    fn sent(&mut self, now: SimTime, ip_bytes: u64) {
        let taken = self.bucket.take(Self::framed(ip_bytes), now);
        debug_assert!(taken, "a packet is sent only when its tokens are there");
    }
}

/// Declares [`PacketPolicerKind`], one variant per policer.
macro_rules! policers {
    ($($variant:ident($t:ty)),+ $(,)?) => {
        /// The policer at the far end of one packet link.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum PacketPolicerKind {
            $($variant($t),)+
        }

        impl PacketPolicerKind {
            #[inline]
            pub fn on_packet(&mut self, now: SimTime, ip_bytes: u64) -> Verdict {
                match self {
                    $(Self::$variant(p) => PacketPolicer::on_packet(p, now, ip_bytes),)+
                }
            }

            /// The policer's name in reports.
            pub fn name(&self) -> &'static str {
                match self {
                    $(Self::$variant(_) => <$t as PacketPolicer>::NAME,)+
                }
            }
        }
    };
}

/// Declares [`PacketShaperKind`], one variant per shaper.
macro_rules! shapers {
    ($($variant:ident($t:ty)),+ $(,)?) => {
        /// The shaper in front of one packet link.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum PacketShaperKind {
            $($variant($t),)+
        }

        impl PacketShaperKind {
            #[inline]
            pub fn admits(&self, queued_ip_bytes: u64, queued_packets: u64, ip_bytes: u64) -> bool {
                match self {
                    $(Self::$variant(s) => PacketShaper::admits(s, queued_ip_bytes, queued_packets, ip_bytes),)+
                }
            }

            #[inline]
            pub fn ready_at(&mut self, now: SimTime, ip_bytes: u64) -> SimTime {
                match self {
                    $(Self::$variant(s) => PacketShaper::ready_at(s, now, ip_bytes),)+
                }
            }

            #[inline]
            pub fn sent(&mut self, now: SimTime, ip_bytes: u64) {
                match self {
                    $(Self::$variant(s) => PacketShaper::sent(s, now, ip_bytes),)+
                }
            }

            /// The shaper's name in reports.
            pub fn name(&self) -> &'static str {
                match self {
                    $(Self::$variant(_) => <$t as PacketShaper>::NAME,)+
                }
            }
        }
    };
}

policers! { Police(TokenPolicer) }
shapers! { Tbf(Tbf) }

/// What a scenario asks of one direction of a packet link (builder input).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conditioning {
    /// Applied where the link's packets enter its far end.
    pub police: Option<PacketPolicerKind>,
    /// Applied to the link's output port.
    pub shape: Option<PacketShaperKind>,
}

/// The conditioning of a packet port: its queue asks its shaper and its link's policer here.
impl PacketQueue {
    /// A port with a policer at its link's far end and/or a shaper in front of its link.
    pub fn with_conditioning(mut self, conditioning: Conditioning) -> Self {
        self.policer = conditioning.police;
        self.shaper = conditioning.shape;
        self
    }

    pub fn policer(&self) -> Option<&PacketPolicerKind> {
        self.policer.as_ref()
    }

    pub fn shaper(&self) -> Option<&PacketShaperKind> {
        self.shaper.as_ref()
    }

    /// Whether the shaper's queue limit refuses a packet of `ip_bytes` (counted as dropped).
    #[inline]
    pub(super) fn shaper_refuses(&mut self, ip_bytes: u64) -> bool {
        if self.shaper_admits(ip_bytes) {
            return false;
        }
        self.stats.dropped += 1;
        self.stats.shape_dropped += 1;
        true
    }

    /// Whether a packet of `ip_bytes` arriving at the idle port is settled at once by
    /// [`pass`](Self::pass): sent, or refused (a refusal comes before any wait for tokens).
    #[inline]
    pub(super) fn settled_on_arrival(&mut self, ip_bytes: u64, now: SimTime) -> bool {
        if self.shaper.is_none() {
            return true;
        }
        let refused = !self.shaper_admits(ip_bytes) || !self.fits(ip_bytes);
        refused || self.clear_to_send(ip_bytes, now)
    }

    /// Whether the shaper's queue (if any) admits a packet of `ip_bytes` beside those waiting.
    #[inline]
    fn shaper_admits(&self, ip_bytes: u64) -> bool {
        self.shaper.as_ref().is_none_or(|s| s.admits(self.queued_bytes(), self.held() as u64, ip_bytes))
    }

    /// Whether a packet of `ip_bytes` may start now on a free transmitter: always, but on a
    /// shaped port whose bucket does not hold it yet; the transmitter then waits for the
    /// tokens (`busy_until` becomes the instant they are there).
    #[inline]
    pub(super) fn clear_to_send(&mut self, ip_bytes: u64, now: SimTime) -> bool {
        let Some(shaper) = &mut self.shaper else { return true };
        let ready = shaper.ready_at(now, ip_bytes);
        if ready <= now {
            return true;
        }
        self.busy_until = ready;
        self.waited_for_tokens = true;
        false
    }

    /// The shaper's tokens for a packet of `ip_bytes` that starts now.
    #[inline]
    pub(super) fn shaper_sends(&mut self, ip_bytes: u64, now: SimTime) {
        if let Some(shaper) = &mut self.shaper {
            shaper.sent(now, ip_bytes);
            if std::mem::take(&mut self.waited_for_tokens) {
                self.stats.shape_delayed += 1;
            }
        }
    }

    /// The policer's verdict on a packet of `ip_bytes` reaching the link's far end at `now`
    /// (conform without a policer).
    #[inline]
    pub(super) fn police(&mut self, ip_bytes: u64, now: SimTime) -> Verdict {
        let Some(policer) = &mut self.policer else { return Verdict::Conform };
        let verdict = policer.on_packet(now, ip_bytes);
        match verdict {
            Verdict::Conform => self.stats.police_conforming += 1,
            Verdict::Drop => self.stats.police_dropped += 1,
        }
        verdict
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RATE: BitRate = BitRate::from_bps(8_000_000); // 1 byte per µs
    fn us(x: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_micros(x)
    }

    /// A bucket of 3000 bytes at 1 byte/µs, full at the start, admits 3000 bytes back to back
    /// (two 1500-byte packets at t = 0), then one 1500-byte packet per 1500 µs; a packet that
    /// does not conform leaves the tokens unchanged.
    #[test]
    fn policer_admits_the_burst_then_one_packet_per_l_over_rate() {
        let mut p = PacketPolicerKind::Police(TokenPolicer::new(RATE, 3000));
        assert_eq!(p.on_packet(us(0), 1500), Verdict::Conform);
        assert_eq!(p.on_packet(us(0), 1500), Verdict::Conform);
        assert_eq!(p.on_packet(us(0), 1500), Verdict::Drop, "the bucket is empty");
        // At 1499 µs the bucket holds 1499 bytes: not enough, and the refusal takes nothing.
        assert_eq!(p.on_packet(us(1499), 1500), Verdict::Drop);
        let PacketPolicerKind::Police(inner) = &mut p;
        assert_eq!(inner.bucket.tokens_bytes(us(1499)), 1499, "a drop leaves the tokens unchanged");
        assert_eq!(p.on_packet(us(1500), 1500), Verdict::Conform, "exactly L/rate after the burst");
        assert_eq!(p.on_packet(us(2999), 1500), Verdict::Drop);
        assert_eq!(p.on_packet(us(3000), 1500), Verdict::Conform);
        // A 40-byte packet fits in what 40 µs bring.
        assert_eq!(p.on_packet(us(3040), 40), Verdict::Conform);
        assert_eq!(p.on_packet(us(3040), 1), Verdict::Drop);
        // The bucket never holds more than its depth: after a long idle, the burst again.
        for _ in 0..2 {
            assert_eq!(p.on_packet(us(1_000_000), 1500), Verdict::Conform);
        }
        assert_eq!(p.on_packet(us(1_000_000), 1), Verdict::Drop);
        assert_eq!(p.name(), "police");
    }

    /// Exact integer tokens: a rate that is no whole number of bytes per picosecond (10 Mbit/s:
    /// 1.25 bytes per µs) takes exactly 1.2 ms per 1500 bytes, at every packet, with no drift.
    #[test]
    fn tokens_do_not_drift() {
        let mut b = TokenBucket::new(BitRate::from_bps(10_000_000), 1500);
        let mut t = SimTime::ZERO;
        for _ in 0..10_000 {
            assert_eq!(b.ready_at(1500, t), t);
            assert!(b.take(1500, t));
            t = b.ready_at(1500, t);
        }
        assert_eq!(t, SimTime::ZERO + SimDuration::from_micros(1200 * 10_000));
        // Rounded up to the picosecond: 1 byte at 3 bit/s takes 8/3 s.
        let mut slow = TokenBucket::new(BitRate::from_bps(3), 1);
        assert!(slow.take(1, SimTime::ZERO));
        assert_eq!(slow.ready_at(1, SimTime::ZERO).as_picos(), 2_666_666_666_667);
    }

    /// `tbf` at 1 byte/µs, burst 3028 (two framed 1500-byte packets), latency 10 ms: its
    /// limit is 10 000 + 3028 bytes; the burst leaves at once, then each framed packet
    /// (1514 bytes) 1514 µs after the one before.
    #[test]
    fn tbf_departures_and_its_latency_limit() {
        let mut s = PacketShaperKind::Tbf(Tbf::new(RATE, 3028, SimDuration::from_millis(10)));
        let PacketShaperKind::Tbf(inner) = &s;
        assert_eq!(inner.limit_bytes(), 13_028);
        let mut t = SimTime::ZERO;
        let mut departures = Vec::new();
        for _ in 0..4 {
            t = s.ready_at(t, 1500);
            s.sent(t, 1500);
            departures.push(t);
        }
        assert_eq!(departures, [us(0), us(0), us(1514), us(3028)]);
        // The limit counts framed bytes: 8 packets (12 112 bytes) queued leave room for a ninth
        // of at most 13 028 − 12 112 − 14 = 902 IP bytes.
        assert!(s.admits(8 * 1500, 8, 902));
        assert!(!s.admits(8 * 1500, 8, 903));
        // A packet longer than the bucket is refused even into an empty queue.
        let small = PacketShaperKind::Tbf(Tbf::new(RATE, 1000, SimDuration::from_millis(50)));
        assert!(small.admits(0, 0, 986) && !small.admits(0, 0, 987));
        assert_eq!(s.name(), "tbf");
    }

    fn packet(ip_bytes: u64) -> crate::packet::Packet {
        crate::packet::Packet {
            flow: celltrain_core::ids::FlowId(0),
            payload: crate::packet::Payload::Udp { seq: 0 },
            app_bytes: ip_bytes - 28,
            ip_bytes,
            sent_at: SimTime::ZERO,
            route: celltrain_core::ids::RouteId(0),
            hop: 0,
            counted: true,
        }
    }

    /// A shaped port at 1 Gbit/s (12 µs per 1500-byte packet), `tbf` at 1 byte/µs with a burst
    /// of two framed packets and a 10 ms latency: of ten packets offered at once, eight fit
    /// the limit (8 × 1514 = 12 112 ≤ 13 028, a ninth would make 13 626); the first two
    /// start back to back on the line, then one per 1514 µs of tokens; the packets that
    /// waited for tokens are counted.
    #[test]
    fn a_shaped_port_starts_its_packets_when_the_tokens_are_there() {
        use crate::network::PacketQueue;
        let shaper = PacketShaperKind::Tbf(Tbf::new(RATE, 3028, SimDuration::from_millis(10)));
        let conditioning = Conditioning { police: None, shape: Some(shaper) };
        let mut q = PacketQueue::new(BitRate::from_bps(1_000_000_000), 1_000_000, None).with_conditioning(conditioning);
        let refused = (0..10).filter(|_| q.offer(packet(1500), SimTime::ZERO).is_err()).count();
        assert_eq!((refused, q.stats.shape_dropped, q.stats.dropped), (2, 2, 2));
        // The network's loop: a free transmitter takes the head when it is clear to send,
        // else waits until `busy_until`, when the tokens are there.
        let (mut now, mut starts) = (SimTime::ZERO, Vec::new());
        while let Some(bytes) = q.head_bytes() {
            if !q.clear_to_send(bytes, now) {
                assert!(q.busy_until > now);
                now = q.busy_until;
                continue;
            }
            q.take(now).expect("a head");
            starts.push(now);
            q.busy_until = now + q.tx_time(bytes);
            now = q.busy_until;
        }
        let expected: Vec<SimTime> = [0, 12, 1514, 3028, 4542, 6056, 7570, 9084].into_iter().map(us).collect();
        assert_eq!(starts, expected);
        assert_eq!((q.stats.packets_out, q.stats.shape_delayed), (8, 6));
        // An idle port with a full bucket again passes a packet at once.
        let later = us(1_000_000);
        assert!(q.settled_on_arrival(1500, later) && q.pass(&packet(1500), later));
    }

    /// `tc`'s limit for 10 Mbit/s and 50 ms: 62 500 bytes plus the burst.
    #[test]
    fn tbf_limit_from_latency() {
        assert_eq!(Tbf::limit(BitRate::from_bps(10_000_000), 10_000, DEFAULT_SHAPER_LATENCY), 72_500);
        assert_eq!(Tbf::limit(BitRate::from_bps(10_000_000), 10_000, SimDuration::ZERO), 10_000);
    }
}
