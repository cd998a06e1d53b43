"""Markdown to HTML for the service's own documents (``rules.md``), by markdown-it-py
(CommonMark), set up for a page this server serves:

- raw HTML in the source is text (markdown-it's ``html`` option off), and so is a
  character reference (``&amp;`` reads as written), so no markup but Markdown's reaches
  the page;
- a link goes only to a path of this server (``/...``), an anchor (``#...``) or an
  ``https://`` address whose text has no quote, angle bracket or space; any other stays
  the text it was written as (markdown-it's ``validateLink``);
- a heading gets an anchor: a level-3 heading its first word (``### C-1 One deck`` is
  ``id="C-1"``: the entries of the rules are linked as ``/docs/rules#C-1``), any other its
  words in lower case joined by ``-``;
- ``link_words``: words of the text (outside code, links and headings) that become links
  to their anchors on the same page.

>>> html = to_html("### P-1 Playing\\n\\nA <b> card, see P-1 and `P-1`.", {"P-1"})
>>> print(html, end="")
<h3 id="P-1">P-1 Playing</h3>
<p>A &lt;b&gt; card, see <a href="#P-1">P-1</a> and <code>P-1</code>.</p>
"""

import re
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

_SAFE_URL = re.compile(r"(?:/(?!/)|#|https://)[^\s\"'<>]*")
_WORD = re.compile(r"[A-Za-z][\w-]*")


def anchor(level: int, text: str) -> str:
    """The ``id`` of a heading of ``level`` reading ``text`` (see the module's doc)."""
    if level == 3:
        return text.split()[0]
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _safe_link(url: str) -> bool:
    """markdown-it's link check, given the address as it will be written (percent-encoded):
    read back, it is one of this server's paths, an anchor or an https address."""
    return bool(_SAFE_URL.fullmatch(unquote(url)))


def _heading_anchors(state: StateCore) -> None:
    """Each heading's ``id`` from its text."""
    tokens = state.tokens
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            tok.attrSet("id", anchor(int(tok.tag[1:]), tokens[i + 1].content))


def _word_links(state: StateCore) -> None:
    """The words of ``state.env["link_words"]`` in the text, each made a link to its anchor;
    not in a heading, a code span or another link's text."""
    words = state.env.get("link_words")
    if not words:
        return
    in_heading = False
    for tok in state.tokens:
        if tok.type in ("heading_open", "heading_close"):
            in_heading = tok.type == "heading_open"
        elif tok.type == "inline" and not in_heading and tok.children:
            tok.children = _linked(tok.children, words)


def _linked(children: list[Token], words) -> list[Token]:
    out: list[Token] = []
    in_link = 0
    for child in children:
        if child.type == "link_open":
            in_link += 1
        elif child.type == "link_close":
            in_link -= 1
        if child.type != "text" or in_link:
            out.append(child)
            continue
        at = 0
        for m in _WORD.finditer(child.content):
            if m.group(0) not in words:
                continue
            if m.start() > at:
                out.append(_text(child.content[at : m.start()]))
            link = Token("link_open", "a", 1)
            link.attrSet("href", "#" + m.group(0))
            out += [link, _text(m.group(0)), Token("link_close", "a", -1)]
            at = m.end()
        out.append(_text(child.content[at:]) if at else child)
    return out


def _text(content: str) -> Token:
    tok = Token("text", "", 0)
    tok.content = content
    return tok


_MD = MarkdownIt("commonmark", {"html": False}).disable("entity")
_MD.validateLink = _safe_link
_MD.core.ruler.push("heading_anchors", _heading_anchors)
_MD.core.ruler.push("word_links", _word_links)


def headings(source: str) -> list[tuple[int, str, str]]:
    """(level, anchor, text) of every heading of ``source``, in order."""
    tokens = _MD.parse(source)
    return [
        (int(tok.tag[1:]), tok.attrGet("id"), tokens[i + 1].content)
        for i, tok in enumerate(tokens)
        if tok.type == "heading_open"
    ]


def to_html(source: str, link_words: frozenset | set = frozenset()) -> str:
    """The HTML of ``source``'s blocks (no page around them)."""
    return _MD.render(source, {"link_words": link_words})


def inline_html(text: str) -> str:
    """The HTML of one run of text (a summary, a table's cell): its inline markup only.

    >>> print(inline_html("**Bold** `<i>` and [a link](/docs)"))
    <strong>Bold</strong> <code>&lt;i&gt;</code> and <a href="/docs">a link</a>
    """
    return _MD.renderInline(text)
