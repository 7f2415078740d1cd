#!/usr/bin/env bash
# The differential test's soak (`soak_random_variants_of_every_built_in`, crates/celltrain/tests/
# fast_paths.rs): random variants of the built-ins, each against the reference, by the thousand.
# Not part of the test command; run it after a change to places, pipes, trains or a fast path.
#
#   scripts/soak.sh [--tries N] [--only NAME,NAME] SEED [SEED...]
#
# Builds the optimised test binary once, then runs the seeds on every core, one seed a core at a
# time (about 7 minutes a seed of 3 000 draws on this machine class). Prints each seed's line
# ("soak seed S: R of N variants ran; ...") or the variant that differs from the reference, with
# its log under target/soak/; exits 1 if any seed found one.
set -euo pipefail
cd "$(dirname "$0")/.."

tries=3000
only=""
seeds=()
while [ $# -gt 0 ]; do
    case "$1" in
        --tries) tries="$2"; shift 2 ;;
        --only) only="$2"; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        -*) echo "soak.sh: unknown option $1" >&2; exit 2 ;;
        *) seeds+=("$1"); shift ;;
    esac
done
if [ ${#seeds[@]} -eq 0 ]; then
    echo "soak.sh: name at least one seed (e.g. scripts/soak.sh 2001 2002)" >&2
    exit 2
fi

# The test binary, as cargo names it (the last "executable" line of the build's messages).
binary=$(cargo test --release -p celltrain --test fast_paths --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
if [ -z "$binary" ]; then
    echo "soak.sh: the test binary did not build (cargo test --release -p celltrain --test fast_paths --no-run)" >&2
    exit 1
fi
logs=target/soak
mkdir -p "$logs"

# One seed: its line, or where it stopped.
soak_one() {
    local seed=$1 log="$logs/seed-$1.log"
    # (The test reads the built-ins relative to its crate, as cargo runs it.)
    if (cd crates/celltrain && CELLTRAIN_SOAK_SEED="$seed" CELLTRAIN_SOAK_TRIES="$tries" CELLTRAIN_SOAK_ONLY="$only" \
        "$binary" soak_random_variants_of_every_built_in --ignored --nocapture) >"$log" 2>&1; then
        grep -h "^soak seed" "$log"
    else
        # (The panic's message: the variant and what differed, or why the test stopped.)
        echo "soak seed $seed: FAILED (log: $log)"
        grep -h -m 1 -A 1 "panicked" "$log" || true
        return 1
    fi
}

jobs=$(nproc 2>/dev/null || echo 2)
failed=0
running=0
for seed in "${seeds[@]}"; do
    soak_one "$seed" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n || failed=1
        running=$((running - 1))
    fi
done
while [ "$running" -gt 0 ]; do
    wait -n || failed=1
    running=$((running - 1))
done
exit "$failed"
