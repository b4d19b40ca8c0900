"""A datatrove extractor whose ``extract`` is ``htmltok.text``.

>>> from datatrove.executor import LocalPipelineExecutor           # doctest: +SKIP
>>> from datatrove.pipeline.readers import JsonlReader             # doctest: +SKIP
>>> from datatrove.pipeline.writers import JsonlWriter             # doctest: +SKIP
>>> from htmltok.datatrove import Extractor                        # doctest: +SKIP
>>> LocalPipelineExecutor(pipeline=[JsonlReader("in/"), Extractor(), JsonlWriter("out/")]).run()  # doctest: +SKIP

datatrove is not a dependency of htmltok: importing this module needs it
installed (``pip install datatrove``).
"""

from datatrove.pipeline.extractors.base import BaseExtractor

import htmltok


class Extractor(BaseExtractor):
    """The page's title and text by htmltok's rules (``htmltok.text``):
    scripts, styles and hidden markup left out, line breaks at ``<br>`` and
    blocks, tabs between table cells, whitespace collapsed outside
    ``<pre>``.

    Args:
        title: put the page's title first, on its own line (when it has one).
        timeout: datatrove's per-document timeout, in seconds.
    """

    name = "htmltok"

    def __init__(self, title: bool = False, timeout: float = 1):
        super().__init__(timeout)
        self.title = title

    def extract(self, text: str) -> str:
        page = htmltok.text(text)
        if self.title and page.title:
            return page.title + "\n" + page.text
        return page.text
