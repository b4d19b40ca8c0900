"""htmltok.datatrove.Extractor in datatrove's LocalPipelineExecutor on a
small JSONL input (datatrove and orjson are in the test extras)."""

import gzip
import json


def test_extractor_in_a_local_pipeline(tmp_path):
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import JsonlReader
    from datatrove.pipeline.writers import JsonlWriter

    from htmltok.datatrove import Extractor

    docs = [
        ("a", "<title>A</title><p>One<br>two</p><script>x()</script>", "One\ntwo"),
        ("b", "<div>x &amp; y</div><style>p{}</style><table><tr><td>1<td>2</table>", "x & y\n1\t2"),
        ("c", "<script>only()</script>", None),  # no text: datatrove drops it
    ]
    (tmp_path / "in").mkdir()
    with open(tmp_path / "in" / "docs.jsonl", "w") as f:
        for doc_id, html, _ in docs:
            f.write(json.dumps({"id": doc_id, "text": html}) + "\n")
    LocalPipelineExecutor(
        pipeline=[
            JsonlReader(str(tmp_path / "in")),
            Extractor(),
            JsonlWriter(str(tmp_path / "out"), compression="gzip"),
        ],
        tasks=1,
        logging_dir=str(tmp_path / "logs"),
    ).run()
    out = {}
    for path in (tmp_path / "out").glob("*.jsonl.gz"):
        with gzip.open(path, "rt") as f:
            for line in f:
                doc = json.loads(line)
                out[doc["id"]] = doc["text"]
    assert out == {doc_id: text for doc_id, _html, text in docs if text is not None}
