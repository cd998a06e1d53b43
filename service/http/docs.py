"""``/docs``: the OpenAPI document as one self-contained HTML page (no script, nothing
fetched from anywhere), with an anchor per operation, schema and problem type; and
``/docs/rules``: the rules reference (``rules.md``, beside this module, which
docs/rules.md links to) as such a page, with an anchor per rule ID."""

import html
import re
from importlib.resources import files

from . import markdown
from .problems import PROBLEM_TYPES

_CSS = """
body{font:15px/1.5 system-ui,sans-serif;max-width:62rem;margin:2rem auto;padding:0 1rem;color:#222}
code,pre{font:13px ui-monospace,monospace;background:#f4f4f4;border-radius:3px;padding:0 .2em}
h2{border-bottom:1px solid #ddd;margin-top:2.5rem}
.op{border:1px solid #ddd;border-radius:6px;padding:.6rem 1rem;margin:1rem 0}
.m{font-weight:bold;display:inline-block;min-width:4rem}
.GET{color:#0a6}.POST{color:#06c}
table{border-collapse:collapse;margin:.4rem 0}td,th{border:1px solid #ddd;padding:.2rem .5rem;
text-align:left;vertical-align:top}nav a{margin-right:1rem}
"""


def _e(s) -> str:
    return html.escape(str(s))


def _md(text: str) -> str:
    return markdown.to_html(text)


def _inline(s: str) -> str:
    return markdown.inline_html(s)


def _type(schema: dict) -> str:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        return f'<a href="#schema-{_e(name)}">{_e(name)}</a>'
    union = schema.get("oneOf") or schema.get("anyOf")
    if union:
        return " or ".join(_type(s) for s in union)
    if "const" in schema:
        return f"<code>{_e(schema['const'])}</code>"
    kinds = schema.get("type", "any")
    names = []
    for kind in kinds if isinstance(kinds, list) else [kinds]:
        if kind == "array":
            names.append(f"array of {_type(schema.get('items', {}))}")
        elif kind != "null":
            names.append(_e(kind))
    t = " or ".join(names) or "null"
    if "enum" in schema:
        t += " (" + " | ".join(_e(x) for x in schema["enum"]) + ")"
    if "null" in (kinds if isinstance(kinds, list) else [kinds]) and names:
        t += " or null"
    return t


def _fields(schema: dict) -> str:
    props = schema.get("properties", {})
    if not props:
        return ""
    required = set(schema.get("required", []))
    rows = "".join(
        f"<tr><td><code>{_e(name)}</code>{' *' if name in required else ''}</td>"
        f"<td>{_type(p)}</td><td>{_inline(p.get('description', ''))}</td></tr>"
        for name, p in props.items()
    )
    extra = " More fields may appear." if schema.get("additionalProperties") is True else ""
    if schema.get("additionalProperties") is False:
        extra = " Other fields are refused (400)."
    return f"<table><tr><th>field</th><th>type</th><th></th></tr>{rows}</table>" + (
        f"<p><small>* required.{extra}</small></p>"
    )


def _operation(path: str, method: str, op: dict) -> str:
    anchor = f"op-{method}-{re.sub(r'[^a-z0-9]+', '-', path.lower()).strip('-')}"
    parts = [
        f'<div class="op" id="{anchor}"><span class="m {method.upper()}">{method.upper()}'
        f"</span> <code>{_e(path)}</code> — {_inline(op.get('summary', ''))}"
    ]
    if op.get("description"):
        parts.append(_md(op["description"]))
    if op.get("security") == [{"seat": []}]:
        parts.append("<p>Needs a seat's token.</p>")
    elif op.get("security"):
        parts.append("<p>A seat's token is optional (without it: the spectator's view).</p>")
    params = op.get("parameters", [])
    if params:
        rows = "".join(
            f"<tr><td><code>{_e(p['name'])}</code></td><td>{_e(p['in'])}</td>"
            f"<td>{_type(p.get('schema', {}))}</td><td>{_inline(p.get('description', ''))}</td>"
            "</tr>"
            for p in params
        )
        parts.append(
            f"<table><tr><th>parameter</th><th>in</th><th>type</th><th></th></tr>{rows}</table>"
        )
    body = op.get("requestBody")
    if body:
        for ctype, c in body.get("content", {}).items():
            parts.append(f"<p>Body ({_e(ctype)}): {_type(c.get('schema', {}))}</p>")
    resp = []
    for code, r in op.get("responses", {}).items():
        if "$ref" in r:
            resp.append(f"<code>{_e(code)}</code> {_e(r['$ref'].rsplit('/', 1)[1])}")
            continue
        kinds = ", ".join(
            f"{_e(ct)} {_type(c.get('schema', {})) if c.get('schema') else ''}"
            for ct, c in r.get("content", {}).items()
        )
        resp.append(f"<code>{_e(code)}</code> {_inline(r.get('description', ''))} {kinds}")
    parts.append("<p>Answers: " + "; ".join(resp) + "</p></div>")
    return "".join(parts)


def render(spec: dict) -> str:
    """The whole page."""
    info = spec.get("info", {})
    ops = "".join(
        _operation(path, method, op)
        for path, item in spec.get("paths", {}).items()
        for method, op in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    )
    schemas = "".join(
        f'<h3 id="schema-{_e(name)}">{_e(name)}</h3>{_inline(s.get("description", ""))}'
        + (f"<p>One of: {_type(s)}</p>" if "oneOf" in s or "anyOf" in s else "")
        + _fields(s)
        for name, s in spec.get("components", {}).get("schemas", {}).items()
    )
    problems = "".join(
        f'<tr id="problem-{_e(slug)}"><td><code>{_e(slug)}</code></td><td>{status}</td>'
        f"<td>{_inline(what)}</td></tr>"
        for slug, (status, what) in PROBLEM_TYPES.items()
    )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{_e(info.get("title", ""))} API</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>{_CSS}</style></head>
<body><h1>{_e(info.get("title", ""))} API <small>{_e(info.get("version", ""))}</small></h1>
<nav><a href="#operations">Operations</a><a href="#problems">Problems</a>
<a href="#schemas">Schemas</a><a href="/docs/rules">Rules</a>
<a href="/openapi.yaml">openapi.yaml</a><a href="/asyncapi.yaml">asyncapi.yaml</a>
<a href="/docs/try">Try it</a></nav>
{_md(info.get("description", ""))}
<h2 id="operations">Operations</h2>{ops}
<h2 id="problems">Problems</h2>
<p>Every error is <code>application/problem+json</code>; its <code>type</code> links here.
A refusal by the rules (<code>illegal-action</code>) names the rule it breaks in <code>rule</code>,
and links to its entry of <a href="/docs/rules">the rules</a> in <code>rule_url</code>.</p>
<table><tr><th>type</th><th>status</th><th>when</th></tr>{problems}</table>
<h2 id="schemas">Schemas</h2>{schemas}
</body></html>
"""


RULES_SOURCE = "rules.md"


def rules_source() -> str:
    """The rules reference, as written (Markdown)."""
    return files("service.http").joinpath(RULES_SOURCE).read_text(encoding="utf-8")


def rule_ids(source: str) -> list[str]:
    """The IDs the reference has an entry for: its level-3 headings' anchors, in order."""
    return [a for level, a, _text in markdown.headings(source) if level == 3]


def render_rules(source: str) -> str:
    """The rules reference page: its sections and IDs listed first, then every entry,
    each an anchor (``/docs/rules#P-1``); an ID named in the text links to its entry."""
    heads = markdown.headings(source)
    title = next((text for level, _a, text in heads if level == 1), "Rules")
    ids = rule_ids(source)
    sections = "".join(
        f'<li><a href="#{_e(a)}">{_e(text)}</a>: '
        + " ".join(f'<a href="#{_e(i)}">{_e(i)}</a>' for i in _ids_under(heads, a))
        + "</li>"
        for level, a, text in heads
        if level == 2
    )
    head, h1, rest = markdown.to_html(source, frozenset(ids)).partition("</h1>")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>{_CSS}
h3{{margin-top:1.6rem}}h3:target{{background:#fff6d5}}</style></head>
<body><nav><a href="/docs">API</a><a href="/openapi.yaml">openapi.yaml</a></nav>
{head}{h1}<nav><ul>{sections}</ul></nav>{rest}</body></html>
"""


def _ids_under(heads: list, section: str) -> list[str]:
    """The entries (level 3) of the section (level 2) whose anchor is ``section``."""
    out, inside = [], False
    for level, a, _text in heads:
        if level <= 2:
            inside = a == section
        elif level == 3 and inside:
            out.append(a)
    return out
