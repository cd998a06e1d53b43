"""A small Markdown-to-HTML converter for the service's own documents (``rules.md``): the
subset they are written in, and nothing else.

Blocks: headings (``#`` to ``####``), paragraphs, lists (``- ``, continued by indented
lines). Inline: ``code``, ``**bold**``, ``*emphasis*``, ``[text](url)``. Every character
of the source is escaped before any markup is made, so no HTML in the source reaches
the page as HTML; a link goes only to a path of this server (``/...``), an anchor
(``#...``) or an ``https://`` address.

A heading gets an anchor: a level-3 heading its first word (``### C-1 One deck`` is
``id="C-1"``: the entries of the rules are linked as ``/docs/rules#C-1``), any other its
words in lower case joined by ``-``. ``link_words``: words of the text (outside code)
that become links to their anchors on the same page.

>>> html = to_html("### P-1 Playing\\n\\nA <b> card, see P-1 and `P-1`.", {"P-1"})
>>> print(html, end="")
<h3 id="P-1">P-1 Playing</h3>
<p>A &lt;b&gt; card, see <a href="#P-1">P-1</a> and <code>P-1</code>.</p>
"""

import html
import re

_HEADING = re.compile(r"(#{1,4}) +(.+)")
_ITEM = re.compile(r"- +(.*)")
_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_EM = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_SAFE_URL = re.compile(r"(?:/(?!/)|#|https://)[^\s\"'<>]*")
_WORD = re.compile(r"[A-Za-z][\w-]*")


def anchor(level: int, text: str) -> str:
    """The ``id`` of a heading of ``level`` reading ``text`` (see the module's doc)."""
    if level == 3:
        return text.split()[0]
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def headings(source: str) -> list[tuple[int, str, str]]:
    """(level, anchor, text) of every heading of ``source``, in order."""
    out = []
    for line in source.splitlines():
        m = _HEADING.fullmatch(line.rstrip())
        if m:
            level, text = len(m.group(1)), m.group(2).strip()
            out.append((level, anchor(level, text), text))
    return out


def inline(text: str, link_words: frozenset | set = frozenset()) -> str:
    """One run of text, escaped, with its inline markup made HTML."""
    parts = _CODE.split(text)  # odd parts: code spans, left as they are (escaped)
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"<code>{html.escape(part)}</code>")
        else:
            out.append(_prose(part, link_words))
    return "".join(out)


def _prose(text: str, link_words) -> str:
    links: list[str] = []

    def keep(m: re.Match) -> str:  # a link is made whole, then put back by its number
        label, url = m.group(1), m.group(2)
        if not _SAFE_URL.fullmatch(url):
            return m.group(0)
        links.append(f'<a href="{html.escape(url)}">{_marks(html.escape(label))}</a>')
        return f"\0{len(links) - 1}\0"

    text = _LINK.sub(keep, text)
    s = _marks(html.escape(text, quote=False))
    if link_words:
        s = _WORD.sub(
            lambda m: (
                f'<a href="#{m.group(0)}">{m.group(0)}</a>'
                if m.group(0) in link_words
                else m.group(0)
            ),
            s,
        )
    return re.sub("\0(\\d+)\0", lambda m: links[int(m.group(1))], s)


def _marks(s: str) -> str:
    s = _BOLD.sub(r"<strong>\1</strong>", s)
    return _EM.sub(r"<em>\1</em>", s)


def to_html(source: str, link_words: frozenset | set = frozenset()) -> str:
    """The HTML of ``source``'s blocks (no page around them)."""
    out: list[str] = []
    para: list[str] = []
    items: list[list[str]] = []

    def flush() -> None:
        if para:
            out.append(f"<p>{inline(' '.join(para), link_words)}</p>")
            para.clear()
        if items:
            lis = "".join(f"<li>{inline(' '.join(it), link_words)}</li>" for it in items)
            out.append(f"<ul>{lis}</ul>")
            items.clear()

    for raw in source.splitlines():
        line = raw.strip()
        heading = _HEADING.fullmatch(raw.rstrip())
        item = _ITEM.fullmatch(raw.rstrip())
        if not line:
            flush()
        elif heading:
            flush()
            level, text = len(heading.group(1)), heading.group(2).strip()
            out.append(
                f'<h{level} id="{html.escape(anchor(level, text))}">{inline(text)}</h{level}>'
            )
        elif item:
            if para:
                flush()
            items.append([item.group(1)])
        elif items and raw[:1].isspace():
            items[-1].append(line)
        else:
            if items:
                flush()
            para.append(line)
    flush()
    return "\n".join(out) + "\n"
