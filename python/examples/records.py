"""Token records saved by htmltok, read back in Python: the start tags of
a page with their attributes, one per line (``NAME<TAB>ATTR=VALUE...``,
each value as JSON).

    python records.py page.records [--no-numpy]

The file is what ``TokenTable.to_bytes()`` writes, or the Rust library's
``Records::to_bytes`` (``cargo run --example records -- page.html
page.records``). Its layout is all a reader needs (no htmltok here): a
32-byte header, the 44-byte token records, the 24-byte attribute records,
then the page's text and the rewritten strings (UTF-8), every integer a
little-endian ``u32``. With numpy the records are read where they lie,
one array per kind of record; with ``--no-numpy`` (or no numpy), ``struct``
reads them one by one. ``htmltok.TokenTable.from_bytes(data)`` reads the
same bytes into a token table.
"""

import json
import struct
import sys

#: magic, version, token records, attribute records, text and extra bytes.
HEADER = struct.Struct("<8s6I")
#: start, end, s0/s1/s2 (off, len), first_attr, n_attrs; kind, flags, padding.
TOKEN = struct.Struct("<10I2B2x")
#: name (off, len), value (off, len), name_start, value_start.
ATTR = struct.Struct("<6I")
START_TAG = 1

TOKEN_DTYPE = [
    ("start", "<u4"), ("end", "<u4"),
    ("s0_off", "<u4"), ("s0_len", "<u4"), ("s1_off", "<u4"), ("s1_len", "<u4"),
    ("s2_off", "<u4"), ("s2_len", "<u4"),
    ("first_attr", "<u4"), ("n_attrs", "<u4"),
    ("kind", "u1"), ("flags", "u1"), ("_pad", "V2"),
]
ATTR_DTYPE = [(name, "<u4") for name in ("name_off", "name_len", "value_off", "value_len", "name_start", "value_start")]


def layout(data):
    """Where the parts of the saved records ``data`` lie: (token count,
    attribute count, tokens' offset, attributes' offset, the strings'
    bytes: text then extra, one address space)."""
    if len(data) < HEADER.size:
        raise ValueError("not htmltok records: too short")
    magic, version, n_tokens, n_attrs, text_len, extra_len, _ = HEADER.unpack_from(data, 0)
    if magic != b"htmltokR" or version != 1:
        raise ValueError("not htmltok records of version 1")
    tokens_at = HEADER.size
    attrs_at = tokens_at + n_tokens * TOKEN.size
    text_at = attrs_at + n_attrs * ATTR.size
    end = text_at + text_len + extra_len
    if len(data) < end:
        raise ValueError(f"htmltok records cut short: {len(data)} bytes of {end}")
    return n_tokens, n_attrs, tokens_at, attrs_at, bytes(data[text_at:end])


def start_tags_numpy(data):
    """Each start tag's name and attributes, the records read by numpy in
    place (``frombuffer`` at their offset: no alignment needed)."""
    import numpy as np

    n_tokens, n_attrs, tokens_at, attrs_at, strings = layout(data)
    tokens = np.frombuffer(data, dtype=TOKEN_DTYPE, count=n_tokens, offset=tokens_at)
    attrs = np.frombuffer(data, dtype=ATTR_DTYPE, count=n_attrs, offset=attrs_at)

    def string(off, length):
        return strings[off : off + length].decode("utf-8")

    for t in tokens[tokens["kind"] == START_TAG]:
        first = int(t["first_attr"])
        pairs = [
            (string(int(a["name_off"]), int(a["name_len"])), string(int(a["value_off"]), int(a["value_len"])))
            for a in attrs[first : first + int(t["n_attrs"])]
        ]
        yield string(int(t["s0_off"]), int(t["s0_len"])), pairs


def start_tags_struct(data):
    """The same with ``struct``, record by record (no numpy)."""
    n_tokens, n_attrs, tokens_at, attrs_at, strings = layout(data)
    view = memoryview(data)
    tokens = TOKEN.iter_unpack(view[tokens_at : tokens_at + n_tokens * TOKEN.size])
    attrs = list(ATTR.iter_unpack(view[attrs_at : attrs_at + n_attrs * ATTR.size]))

    def string(off, length):
        return strings[off : off + length].decode("utf-8")

    for start, end, s0_off, s0_len, *_rest, first, count, kind, flags in tokens:
        if kind != START_TAG:
            continue
        pairs = [(string(no, nl), string(vo, vl)) for no, nl, vo, vl, _ns, _vs in attrs[first : first + count]]
        yield string(s0_off, s0_len), pairs


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    with open(argv[0], "rb") as f:
        data = f.read()
    read = start_tags_struct
    if "--no-numpy" not in argv:
        try:
            import numpy  # noqa: F401

            read = start_tags_numpy
        except ImportError:
            pass
    out = sys.stdout
    for name, pairs in read(data):
        out.write(name + "".join(f"\t{n}={json.dumps(v, ensure_ascii=False)}" for n, v in pairs) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
