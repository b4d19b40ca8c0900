#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60), one at a time, after
# seeding fuzz/corpus/ (see seed.sh), and prints each target's final stats
# line. Needs the nightly toolchain and cargo-fuzz:
#   rustup toolchain install nightly && cargo install cargo-fuzz
#
#   fuzz/run.sh [SECONDS] [TARGET...]
#
# Targets: tokenize chunked scalar_vs_simd charref encoding warc (and differential, which
# needs html5gum, with FUZZ_DIFFERENTIAL=1 or when named).
#
# Crashes and hangs (> $FUZZ_TIMEOUT s for one input, default 10) land in
# fuzz/artifacts/<target>/; reproduce one with
#   cargo +nightly fuzz run <target> fuzz/artifacts/<target>/<file>
# Logs go to fuzz/target/logs/<target>.log (git-ignored with fuzz/target).
# HTMLTOK_FUZZ_SKIP_STATES=CommentEndDash,... (passed through) makes the
# targets start in Data instead of the listed states: to keep fuzzing past a
# known bug in starting mid-token (see testkit/src/props.rs, `unskipped`).
set -euo pipefail
FUZZ="$(cd "$(dirname "$0")" && pwd)"
SECONDS_EACH="${1:-60}"
shift || true
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
    TARGETS=(tokenize chunked scalar_vs_simd charref encoding warc)
    [ "${FUZZ_DIFFERENTIAL:-0}" = 1 ] && TARGETS+=(differential)
fi
TIMEOUT="${FUZZ_TIMEOUT:-10}"
LOGS="$FUZZ/target/logs"

# Largest input per target. Instrumented (ASan + trace-compares) the
# tokenizer runs at a few MB/s, so 64 KB inputs mean ~50 execs/s; 4 KB
# inputs reach every state (the adversarial tests cover size) and keep the
# rate in the thousands. charref's input is a program that expands.
max_len() {
    case "$1" in
        tokenize) echo 4096 ;;
        chunked) echo 4096 ;;
        scalar_vs_simd) echo 2048 ;;
        charref) echo 256 ;;
        # Past the prescan's 1024 bytes and the 1024 of the UTF-8 guess.
        encoding) echo 8192 ;;
        # A few records of every kind, compressed.
        warc) echo 16384 ;;
        *) echo 4096 ;;
    esac
}

cd "$FUZZ"
"$FUZZ/seed.sh"
# `differential` needs the crate's `differential` feature (html5gum).
features() { [ "$1" = differential ] && echo "--features=differential"; true; }
for t in "${TARGETS[@]}"; do cargo +nightly fuzz build $(features "$t") "$t"; done
mkdir -p "$LOGS"
status=0
summary=()
for t in "${TARGETS[@]}"; do
    echo "== $t: ${SECONDS_EACH}s"
    dict=()
    [ "$t" != charref ] && [ "$t" != warc ] && dict=(-dict="$FUZZ/html.dict")
    set +e
    cargo +nightly fuzz run $(features "$t") "$t" "$FUZZ/corpus/$t" -- \
        -max_total_time="$SECONDS_EACH" -timeout="$TIMEOUT" -max_len="$(max_len "$t")" \
        -print_final_stats=1 "${dict[@]}" > "$LOGS/$t.log" 2>&1
    rc=$?
    set -e
    done_line="$(grep -E '^#[0-9]+[[:space:]]+DONE' "$LOGS/$t.log" | tail -1 || true)"
    execs="$(grep -E '^stat::number_of_executed_units' "$LOGS/$t.log" | awk '{print $2}' || true)"
    if [ $rc -ne 0 ]; then
        status=1
        echo "!! $t failed (exit $rc); see $LOGS/$t.log and $FUZZ/artifacts/$t/"
        grep -E 'panicked|ERROR|Test unit written|SUMMARY' "$LOGS/$t.log" | head -5 || true
        summary+=("$t: FAILED (exit $rc)")
    else
        echo "$done_line"
        summary+=("$t: execs ${execs:-?}: $done_line")
    fi
done
echo "== summary (${SECONDS_EACH}s each)"
printf '%s\n' "${summary[@]}"
exit $status
