//! Fingerprints the simulator's sources (the library crates and the built-in scenarios) into
//! `CELLTRAIN_SOURCE_ID`, so that a result records exactly which code produced it and a sweep
//! store never reuses a result of other code under an unchanged version number.

use std::fs;
use std::path::{Path, PathBuf};

const ROOTS: [&str; 5] =
    ["src", "../celltrain-core/src", "../celltrain-atm/src", "../celltrain-tcp/src", "../../scenarios"];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else if matches!(path.extension().and_then(|e| e.to_str()), Some("rs" | "toml")) {
            out.push(path);
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let mut all = Vec::new();
    for root in ROOTS {
        let dir = manifest.join(root);
        println!("cargo:rerun-if-changed={}", dir.display());
        files(&dir, &mut all);
    }
    let mut named: Vec<(String, PathBuf)> = all
        .into_iter()
        .map(|p| (p.strip_prefix(&manifest).unwrap_or(&p).to_string_lossy().replace('\\', "/"), p))
        .collect();
    named.sort();
    // FNV-1a over (relative name, contents) of every file, in name order.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for (name, path) in &named {
        feed(name.as_bytes());
        feed(&[0]);
        feed(&fs::read(path).unwrap_or_default());
        feed(&[0xff]);
    }
    println!("cargo:rustc-env=CELLTRAIN_SOURCE_ID={:012x}", hash >> 16);
}
