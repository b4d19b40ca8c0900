"""A datatrove extractor whose ``extract`` is ``htmltok.text``.

>>> from datatrove.executor import LocalPipelineExecutor           # doctest: +SKIP
>>> from datatrove.pipeline.readers import JsonlReader             # doctest: +SKIP
>>> from datatrove.pipeline.writers import JsonlWriter             # doctest: +SKIP
>>> from htmltok.datatrove import Extractor                        # doctest: +SKIP
>>> LocalPipelineExecutor(pipeline=[JsonlReader("in/"), Extractor(main=True), JsonlWriter("out/")]).run()  # doctest: +SKIP

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

    A text corpus wants ``main=True``: the page's main content (the
    article, post or documentation body) without its navigation, banners,
    sidebars, related links, footers and comments, as the extractors of
    corpus pipelines give it. The default stays all the page's text, as
    this extractor has always given it.

    Args:
        title: put the page's title first, on its own line (when it has one).
        timeout: datatrove's per-document timeout, in seconds.
        main: the page's main content instead of all its text.
        comments: keep the comment section in the main content.
        markdown: the main content as Markdown (headings, lists, pipe
            tables, fenced code).
        links: links as ``[text](href)`` in the Markdown.

    ``comments`` and ``markdown`` need ``main``, ``links`` needs
    ``markdown``: otherwise a ``ValueError``, as from ``htmltok.text``.
    """

    name = "htmltok"

    def __init__(
        self,
        title: bool = False,
        timeout: float = 1,
        main: bool = False,
        comments: bool = False,
        markdown: bool = False,
        links: bool = False,
    ):
        super().__init__(timeout)
        self.title = title
        self.options = {"main": main, "comments": comments, "markdown": markdown, "links": links}
        # Wrong options fail here, once, rather than on every document.
        htmltok.text("", **self.options)

    def extract(self, text: str) -> str:
        page = htmltok.text(text, **self.options)
        if self.title and page.title:
            return page.title + "\n" + page.text
        return page.text
