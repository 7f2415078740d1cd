//! External check: a synthetic TCP conversation read back by tshark (Wireshark's dissectors),
//! when tshark is installed. Skipped, with a message, when it is not.

use super::super::pcap::{PacketRecord, PcapWriter};
use celltrain_core::{SimDuration, SimTime};
use celltrain_tcp::{Flags, SackBlock, Segment, SeqNum};
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};
use std::process::Command;

const CLIENT: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 1);
const SERVER: Ipv4Addr = Ipv4Addr::new(10, 0, 0, 2);
/// Ports with no Wireshark dissector registered, so the zero payload is shown as plain data.
const CPORT: u16 = 40_001;
const SPORT: u16 = 47_999;
/// Frame number (1-based) of the one retransmission in [`conversation`].
const RETRANSMITTED_FRAME: u32 = 11;

/// Handshake, four data segments with the third "lost" downstream, a duplicate ACK with SACK,
/// a timeout retransmission of the third segment, the cumulative ACK, and a FIN exchange.
/// Sequence numbers start at 1000 (client) and 5000 (server).
fn conversation() -> Vec<(SimTime, PacketRecord)> {
    let ms = |m: u64| SimTime::ZERO + SimDuration::from_millis(m);
    let mut out: Vec<(SimTime, PacketRecord)> = Vec::new();
    let mut id = [0u16; 2];
    let mut push = |t: SimTime, from_client: bool, mut seg: Segment, ts: (u32, u32)| {
        let (src, dst) = if from_client { (CLIENT, SERVER) } else { (SERVER, CLIENT) };
        (seg.src_port, seg.dst_port) = if from_client { (CPORT, SPORT) } else { (SPORT, CPORT) };
        seg.options.timestamps = Some(ts);
        let side = usize::from(!from_client);
        id[side] += 1;
        out.push((t, PacketRecord { ip_id: id[side], ..PacketRecord::tcp(src, dst, seg) }));
    };
    let seg = |seq: u32, ack: u32, flags: Flags, len: u32| Segment {
        seq: SeqNum(seq),
        ack: SeqNum(ack),
        flags,
        window: 1024, // ×2^6 after the handshake: 64 KiB
        payload_len: len,
        ..Segment::default()
    };
    let mut syn = seg(1000, 0, Flags::SYN, 0);
    syn.options.mss = Some(1460);
    syn.options.window_scale = Some(6);
    syn.options.sack_permitted = true;
    syn.window = 65_535;
    let mut synack = syn;
    (synack.seq, synack.ack, synack.flags) = (SeqNum(5000), SeqNum(1001), Flags::SYN | Flags::ACK);
    let a = Flags::ACK;
    let pa = Flags::PSH | Flags::ACK;
    push(ms(0), true, syn, (100, 0));
    push(ms(10), false, synack, (500, 100));
    push(ms(20), true, seg(1001, 5001, a, 0), (110, 500));
    push(ms(20), true, seg(1001, 5001, pa, 1000), (110, 500));
    push(ms(21), true, seg(2001, 5001, pa, 1000), (111, 500));
    push(ms(22), true, seg(3001, 5001, pa, 1000), (112, 500)); // lost after the capture point
    push(ms(23), true, seg(4001, 5001, pa, 1000), (113, 500));
    push(ms(30), false, seg(5001, 2001, a, 0), (520, 110));
    push(ms(31), false, seg(5001, 3001, a, 0), (521, 111));
    let mut dup = seg(5001, 3001, a, 0);
    dup.options.push_sack(SackBlock { left: SeqNum(4001), right: SeqNum(5001) });
    push(ms(33), false, dup, (523, 111));
    push(ms(250), true, seg(3001, 5001, pa, 1000), (340, 523)); // RTO retransmission
    push(ms(260), false, seg(5001, 5001, a, 0), (750, 340));
    push(ms(270), true, seg(5001, 5001, Flags::FIN | Flags::ACK, 0), (360, 750));
    push(ms(280), false, seg(5001, 5002, Flags::FIN | Flags::ACK, 0), (770, 360));
    push(ms(290), true, seg(5002, 5002, a, 0), (380, 770));
    out
}

fn tshark(args: &[&str]) -> String {
    let out = Command::new("tshark").args(args).output().expect("tshark runs");
    assert!(out.status.success(), "tshark {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("tshark prints UTF-8")
}

/// Runs the field query and returns, per frame, the tab-separated fields after frame.number.
fn fields(file: &Path, prefs: &[String], names: &[&str]) -> Vec<Vec<String>> {
    let mut args = vec!["-n", "-r", file.to_str().unwrap()];
    args.extend(prefs.iter().map(String::as_str));
    args.extend_from_slice(&["-T", "fields", "-E", "separator=/t", "-e", "frame.number"]);
    for n in names {
        args.extend_from_slice(&["-e", n]);
    }
    let text = tshark(&args);
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            let mut cols: Vec<String> = line.split('\t').map(str::to_string).collect();
            assert_eq!(cols[0], (i + 1).to_string(), "one line per frame, in order:\n{text}");
            cols.remove(0);
            cols.resize(names.len(), String::new()); // trailing empty fields may be omitted
            cols
        })
        .collect()
}

/// Deletes the capture when dropped, so a failing assertion leaves no file behind.
struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn tshark_reads_a_synthetic_conversation_cleanly() {
    if Command::new("tshark").arg("--version").output().is_err() {
        println!("SKIPPED tshark_reads_a_synthetic_conversation_cleanly: tshark is not installed");
        return;
    }
    // Checksum verification is off by default; turn it on where this version has the prefs.
    let defaults = tshark(&["-G", "defaultprefs"]);
    let mut prefs: Vec<String> = Vec::new();
    for p in ["ip.check_checksum", "tcp.check_checksum"] {
        if defaults.contains(&format!("{p}:")) {
            prefs.extend(["-o".to_string(), format!("{p}:TRUE")]);
        } else {
            println!("note: this tshark has no preference {p}; checksums are not verified by it");
        }
    }
    let conv = conversation();
    for snap_payload in [true, false] {
        let file = TempFile(
            std::env::temp_dir().join(format!("trace_scratch_conv_{}_{snap_payload}.pcap", std::process::id())),
        );
        let path = &file.0;
        let mut w = PcapWriter::create(path).unwrap();
        w.set_snap_payload(snap_payload);
        for (t, r) in &conv {
            w.write(*t, r).unwrap();
        }
        w.finish().unwrap();

        let names = [
            "tcp.analysis.retransmission",
            "_ws.malformed",
            "_ws.expert.severity",
            "ip.checksum.status",
            "tcp.checksum.status",
            "tcp.len",
            "frame.time_epoch",
        ];
        let rows = fields(path, &prefs, &names);
        let expert = tshark(&["-n", "-q", "-r", path.to_str().unwrap(), "-z", "expert"]);
        println!("snap_payload={snap_payload}:");
        for (i, r) in rows.iter().enumerate() {
            println!("  {:>2} {}", i + 1, r.join(" | "));
        }
        println!("{expert}");

        assert_eq!(rows.len(), conv.len(), "every record is a frame");
        let retrans: Vec<u32> = (1..).zip(&rows).filter(|(_, r)| !r[0].is_empty()).map(|(n, _)| n).collect();
        assert_eq!(retrans, [RETRANSMITTED_FRAME], "exactly the one retransmission is flagged");
        for (n, r) in (1..).zip(&rows) {
            assert!(r[1].is_empty(), "frame {n} is malformed");
            for sev in r[2].split(',').filter(|s| !s.is_empty()) {
                // Wireshark's PI_WARN is 0x0060_0000: chats and notes are fine, nothing above.
                assert!(sev.parse::<u32>().unwrap() < 0x0060_0000, "frame {n}: expert severity {sev}");
            }
            assert_eq!(r[5], conv[n - 1].1.payload_len.to_string(), "frame {n}: tcp.len from the IP length");
            // 0 = bad, 1 = good, 2 = unverified. With the payload captured and the prefs on,
            // both must be verified good; without it Wireshark cannot verify TCP's.
            assert_ne!(r[3], "0", "frame {n}: bad IP checksum");
            assert_ne!(r[4], "0", "frame {n}: bad TCP checksum");
            if !prefs.is_empty() {
                assert_eq!(r[3], "1", "frame {n}: IP checksum not verified");
            }
            if snap_payload && prefs.len() == 4 {
                assert_eq!(r[4], "1", "frame {n}: TCP checksum not verified");
            }
        }
        assert!(!expert.contains("Malformed"), "expert info reports malformed packets:\n{expert}");
        assert!(!expert.contains("Errors (") && !expert.contains("Warnings ("), "expert info:\n{expert}");
        assert!(!expert.to_lowercase().contains("checksum"), "expert info mentions checksums:\n{expert}");
    }
}
