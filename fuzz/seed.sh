#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ from the crate's own corpus (corpus/**/*.html)
# and, when $HTMLTOK_CORPUS names a directory of pages (CI names its page
# corpus), those pages too. Copies are made at run time only: fuzz/corpus is
# git-ignored and must never be committed.
#
# Big pages are cut into pieces of at most $SEED_PIECE bytes (default 4096),
# at most $SEED_PIECES per page (default 6, evenly spread), so the seeds
# cover page bodies and not only the first bytes of every <head>.
#
# Targets that read an option header get one (Options::decode in
# testkit/src/props.rs): for `tokenize` and `scalar_vs_simd` every piece is
# seeded twice, standalone with errors and driven without; for `chunked`
# the header is followed by three split points (arbitrary's Vec<u16>
# encoding: a 0x01 "more" byte before each element, 0x00 to end);
# `differential` reads a one-byte header; `encoding` a transport byte then
# split points.
set -euo pipefail
FUZZ="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(dirname "$FUZZ")"
SHARED="${HTMLTOK_CORPUS:-}"
PIECE="${SEED_PIECE:-4096}"
PIECES="${SEED_PIECES:-6}"
TARGETS=(tokenize chunked scalar_vs_simd charref differential encoding)

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Cut every source page into pieces under $tmp/pieces.
mkdir -p "$tmp/pieces"
n=0
add_page() {
    local page="$1" size count step i
    size=$(stat -c %s "$page")
    n=$((n + 1))
    if [ "$size" -le "$PIECE" ]; then
        cp "$page" "$tmp/pieces/$n.html"
        return
    fi
    count=$(( (size + PIECE - 1) / PIECE ))
    [ "$count" -gt "$PIECES" ] && count="$PIECES"
    step=$(( (size - PIECE) / (count > 1 ? count - 1 : 1) ))
    for ((i = 0; i < count; i++)); do
        dd if="$page" of="$tmp/pieces/$n-$i.html" bs=1 skip=$((i * step)) count="$PIECE" status=none 2>/dev/null \
            || tail -c +$((i * step + 1)) "$page" | head -c "$PIECE" > "$tmp/pieces/$n-$i.html"
    done
}

while IFS= read -r -d '' page; do
    add_page "$page"
done < <(find "$ROOT/corpus" -name '*.html' -type f -print0 | sort -z)
if [ -n "$SHARED" ] && [ -d "$SHARED" ]; then
    while IFS= read -r -d '' page; do
        add_page "$page"
    done < <(find "$SHARED" -maxdepth 1 -name '*.html' -type f -print0 | sort -z)
else
    echo "seed.sh: no page directory in HTMLTOK_CORPUS${SHARED:+ ($SHARED)}; seeding from corpus/ only" >&2
fi

for t in "${TARGETS[@]}"; do
    mkdir -p "$FUZZ/corpus/$t"
done
for piece in "$tmp"/pieces/*.html; do
    base="seed-$(basename "$piece" .html)"
    # tokenize, scalar_vs_simd: standalone with errors; driven without errors.
    for t in tokenize scalar_vs_simd; do
        { printf '\x00\x00\x00'; cat "$piece"; } > "$FUZZ/corpus/$t/$base-standalone"
        { printf '\x03\x00\x00'; cat "$piece"; } > "$FUZZ/corpus/$t/$base-driven"
    done
    # chunked: standalone with errors, splits at 1, 7 and 300 (mod len+1).
    { printf '\x00\x00\x00\x01\x01\x00\x01\x07\x00\x01\x2c\x01\x00'; cat "$piece"; } > "$FUZZ/corpus/chunked/$base"
    # encoding: no transport charset, splits at 1, 7 and 300.
    { printf '\x00\x01\x01\x00\x01\x07\x00\x01\x2c\x01\x00'; cat "$piece"; } > "$FUZZ/corpus/encoding/$base"
    # differential: one header byte, 0 = Data, no last start tag.
    { printf '\x00'; cat "$piece"; } > "$FUZZ/corpus/differential/$base"
    # charref: the bytes as a program (cheap, and varied).
    head -c 512 "$piece" > "$FUZZ/corpus/charref/$base"
done
# Hand-made charref programs: every opcode a few times.
for i in $(seq 0 15); do
    printf "\\x00\\x$(printf %02x "$i")\\x01\\x02\\xff\\x$(printf %02x $((i + 16)))\\x07\\x05\\x0b\\x09\\x03\\x00" \
        > "$FUZZ/corpus/charref/op-$i"
done
# warc: archives of every kind, written by testkit's writer.
(cd "$FUZZ" && cargo run -q --example warc_seeds -- "$FUZZ/corpus/warc")
echo "seeded $(ls "$tmp/pieces" | wc -l) pieces into $FUZZ/corpus/{$(IFS=,; echo "${TARGETS[*]}")}"
