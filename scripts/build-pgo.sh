#!/usr/bin/env bash
# Builds the command-line binary with profile-guided optimisation (PGO): an instrumented build
# runs every built-in scenario and the three benchmark workloads, and the final build is laid
# out and inlined for the paths those runs took. Results are identical to the plain release
# build (same integer arithmetic, no fast-math); only speed differs (see benches/README.md).
#
#   bash scripts/build-pgo.sh            # -> target/pgo/release/celltrain
#   bash scripts/build-pgo.sh --profile  # the profile only; prints its path (the Python wheel's
#                                        # build, packaging/pgo_backend.py, builds with it)
#
# Needs rustup's llvm-tools component (installed here if missing) for llvm-profdata: the one
# that matches this rustc's LLVM (another version's llvm-profdata may write a format rustc
# cannot read).
set -euo pipefail
cd "$(dirname "$0")/.."

profile_only=""
case "${1:-}" in
    "") ;;
    --profile) profile_only=1 ;;
    *) echo "usage: bash scripts/build-pgo.sh [--profile]" >&2; exit 2 ;;
esac

host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
    rustup component add llvm-tools >&2
fi

data=$(pwd)/target/pgo-data
rm -rf "$data"
mkdir -p "$data"

echo "build-pgo: instrumented build" >&2
RUSTFLAGS="${RUSTFLAGS:-} -Cprofile-generate=$data" \
    cargo build --quiet --release -p celltrain-cli --target-dir target/pgo-gen
gen=target/pgo-gen/release/celltrain

echo "build-pgo: training runs" >&2
# Each once at its defaults, and once more for each of the model's other paths its parameters
# choose: over ABR (no built-in runs over ABR by default, and a profile without it lays out the
# ABR end systems, RM cells and explicit-rate ports as cold code: the installed command ran
# MSc98's networks over ABR slower than the plain build did), and under each other scheduler.
# Over ABR, MSc98's UDP networks (`-udp`) alone: they take the end systems', RM cells' and
# explicit-rate ports' paths, and the TCP ones added weight to TCP's shared code with ABR's
# dynamics (the packet twin ran 5 % slower, the runs over ABR 1-2 % faster).
# (The list ends at its first blank line; the papers follow.)
for scenario in $("$gen" list | awk 'NR > 1 && NF == 0 { exit } NR > 1 { print $1 }'); do
    "$gen" run "$scenario" > /dev/null
    params=$("$gen" show "$scenario" | sed -n '/^\[params\]/,/^\[/p')
    if [[ "$scenario" == *-udp ]] && grep -q '^service *=' <<< "$params"; then
        "$gen" run "$scenario" --set service=abr > /dev/null
    fi
    default=$(sed -n 's/^scheduler *= *"\([a-z-]*\)".*/\1/p' <<< "$params")
    for scheduler in ${default:+priority wfq virtual-spacing wrr}; do
        [ "$scheduler" = "$default" ] || "$gen" run "$scenario" --set scheduler=$scheduler --set "duration=10 s" > /dev/null
    done
done
"$gen" bench null --hops 8 --seconds 0.5 --repeat 1 > /dev/null
"$gen" bench A4 --set "duration=1 s" --repeat 1 > /dev/null
"$gen" bench E1-mux --set "duration=10 s" --repeat 1 > /dev/null
# The peer twins (benches/twins): the workloads speed is measured on against other simulators.
# (Absent from a source distribution that leaves out benches/: the built-ins still train.)
for twin in benches/twins/*.toml; do
    [ -e "$twin" ] || continue
    "$gen" run "$twin" --set "duration=5 s" > /dev/null
done

"$profdata" merge -o "$data/merged.profdata" "$data"/*.profraw
if [ -n "$profile_only" ]; then
    echo "$data/merged.profdata"
    exit 0
fi

echo "build-pgo: optimised build" >&2
# Linked statically on Linux with glibc, as the wheel's command is (packaging/native_command.py);
# dynamically where that fails.
optimised() {
    RUSTFLAGS="${RUSTFLAGS:-} -Cprofile-use=$data/merged.profdata" \
        cargo rustc --quiet --release -p celltrain-cli --bin celltrain --target-dir target/pgo "$@"
}
if [ "$(uname -s)" = Linux ] && ldd --version 2>&1 | grep -qi -e glibc -e "gnu libc" && [ "${CELLTRAIN_STATIC:-1}" != 0 ]; then
    optimised -- -C target-feature=+crt-static || { echo "build-pgo: linked dynamically (no static C library?)" >&2; optimised; }
else
    optimised
fi
echo "target/pgo/release/celltrain"
