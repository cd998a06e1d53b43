"""Export formats of a game (docs/export.md): an NDJSON log and a compact notation.

* **NDJSON** (``spitlog-log/1``): a header line, then every event in full, one JSON
  object a line with its ``version``. Complete: ``audit.verify`` runs on it.
* **Notation** (``spitlog-notation/1``, "PGN for Spit"): tag lines ``[Name "value"]``,
  then one line per event: ``+<seconds since creation> <event type> key=value ...``.
  Readable, and parsed back by ``parse_notation`` to the same events (times kept to
  the millisecond, which is what the service stamps).
"""

import dataclasses
import json
import re

from .codec import current, event_from_dict, event_to_dict
from .events import Event, GameAborted, GameCreated, GameEnded
from .shuffle import VERSION

NDJSON_FORMAT = "spitlog-log/1"
NOTATION_FORMAT = "spitlog-notation/1"


class ExportError(ValueError):
    """A file that is not in one of the export formats."""


def _header(events: list[Event], server_seed: bytes | None) -> dict:
    first = events[0]
    if not isinstance(first, GameCreated):
        raise ExportError("a log starts with game_created")
    end = next((e for e in events if isinstance(e, GameEnded)), None)
    return {
        "format": NDJSON_FORMAT,
        "game_id": first.game_id,
        "game": first.game,
        "events": len(events),
        "commitment": first.commitment,
        "server_seed": server_seed.hex() if server_seed is not None else None,
        "shuffle": VERSION,
        "winner": end.winner if end else None,
        "result": end.reason if end else None,
    }


def to_ndjson(events: list[Event], server_seed: bytes | None = None) -> str:
    lines = [json.dumps(_header(events, server_seed), separators=(",", ":"))]
    for v, e in enumerate(events, 1):
        lines.append(json.dumps({"version": v, **event_to_dict(e)}, separators=(",", ":")))
    return "\n".join(lines) + "\n"


def from_ndjson(text: str) -> tuple[dict, list[Event]]:
    """The header and the events; ExportError names the line that is wrong."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise ExportError("empty file")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as e:
        raise ExportError(f"line 1: {e}") from None
    if header.get("format") != NDJSON_FORMAT:
        raise ExportError(f"line 1: not a {NDJSON_FORMAT} header")
    events = []
    for n, line in enumerate(lines[1:], 2):
        try:
            d = json.loads(line)
            if d.pop("version") != n - 1:
                raise ExportError(f"line {n}: version {d.get('version')} out of order")
            events.append(event_from_dict(d))
        except (json.JSONDecodeError, KeyError, ValueError, TypeError) as e:
            raise ExportError(f"line {n}: {e}") from None
    return header, events


# ---------------------------------------------------------------- notation

_BARE = re.compile(r"[A-Za-z0-9][A-Za-z0-9:_.\-]*$")
_NUM = re.compile(r"-?\d+(\.\d+)?$")


def _fmt(v) -> str:
    if v is None:
        return "-"
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, list):
        return "[" + ",".join(_fmt(x) for x in v) + "]"
    if isinstance(v, dict):
        return json.dumps(v, separators=(",", ":"))  # in its order: a lossless round trip
    if _BARE.match(v) and not _NUM.match(v) and v not in ("true", "false"):
        return v
    return json.dumps(v)


_OPTIONAL: dict[type, frozenset] = {}  # per type, its fields that default to None


def _optional(cls: type) -> frozenset:
    """The fields of ``cls`` that default to None: left out of a line when None."""
    out = _OPTIONAL.get(cls)
    if out is None:
        out = _OPTIONAL[cls] = frozenset(
            f.name for f in dataclasses.fields(cls) if f.default is None
        )
    return out


def _ms(t: float) -> int:
    return round(t * 1000)


def to_notation(events: list[Event], server_seed: bytes | None = None) -> str:
    h = _header(events, server_seed)
    start = _ms(events[0].at)
    tags = [
        ("Format", NOTATION_FORMAT),
        ("Game", h["game"]),
        ("Id", h["game_id"]),
        ("Start", str(start)),
        ("Commitment", h["commitment"]),
        ("Seed", h["server_seed"] or "?"),
        ("Shuffle", h["shuffle"]),
        ("Result", _result(events, h)),
    ]
    out = [f"[{k} {json.dumps(v)}]" for k, v in tags]
    out.append("")
    for e in events:
        d = event_to_dict(e)
        kind, at = d.pop("type"), d.pop("at")
        optional = _optional(type(e))
        fields = " ".join(
            f"{k}={_fmt(v)}" for k, v in d.items() if v is not None or k not in optional
        )
        off = _ms(at) - start
        out.append(f"+{off // 1000}.{off % 1000:03d} {kind} {fields}".rstrip())
    return "\n".join(out) + "\n"


def _result(events: list[Event], header: dict) -> str:
    """The ``Result`` tag: ``<winner seat or -> <rule ID>`` once the game ended or was
    aborted (no winner: ``- T-6``), ``*`` before."""
    if header["result"] is not None:
        winner = "-" if header["winner"] is None else header["winner"]
        return f"{winner} {header['result']}"
    aborted = next((e for e in events if isinstance(e, GameAborted)), None)
    return "*" if aborted is None else f"- {current(aborted).reason}"


class _Reader:
    def __init__(self, text: str):
        self.s, self.i = text, 0

    def value(self):
        s, i = self.s, self.i
        if s[i] == "[":
            self.i += 1
            items = []
            if s[self.i] == "]":
                self.i += 1
                return items
            while True:
                items.append(self.value())
                c = s[self.i]
                self.i += 1
                if c == "]":
                    return items
                if c != ",":
                    raise ExportError(f"expected , or ] at {self.i}")
        if s[i] in '"{':
            v, self.i = json.JSONDecoder().raw_decode(s, i)
            return v
        m = re.compile(r"[^,\]\s]+").match(s, i)
        if not m:
            raise ExportError(f"expected a value at {i}")
        self.i = m.end()
        tok = m.group()
        if tok == "-":
            return None
        if tok in ("true", "false"):
            return tok == "true"
        if _NUM.match(tok):
            return float(tok) if "." in tok else int(tok)
        return tok


def parse_notation(text: str) -> tuple[dict, list[Event]]:
    """The tags and the events of a notation file; ExportError names the bad line."""
    tags: dict[str, str] = {}
    events: list[Event] = []
    start = None
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        try:
            if line.startswith("["):
                m = re.match(r'\[(\w+) (".*")\]$', line)
                if not m:
                    raise ExportError('a tag is [Name "value"]')
                tags[m.group(1)] = json.loads(m.group(2))
                continue
            if start is None:
                if tags.get("Format") != NOTATION_FORMAT:
                    raise ExportError(f"not {NOTATION_FORMAT}")
                start = int(tags["Start"])
            off, kind, *rest = line.split(" ", 2)
            secs, _, ms = off.lstrip("+").partition(".")
            d = {"type": kind, "at": (start + int(secs) * 1000 + int(ms)) / 1000}
            r = _Reader(rest[0] if rest else "")
            while r.i < len(r.s):
                if r.s[r.i] == " ":
                    r.i += 1
                    continue
                eq = r.s.index("=", r.i)
                key = r.s[r.i : eq]
                r.i = eq + 1
                d[key] = r.value()
            events.append(event_from_dict(d))
        except ExportError as e:
            raise ExportError(f"line {n}: {e}") from None
        except (ValueError, KeyError, TypeError, IndexError) as e:
            raise ExportError(f"line {n}: {type(e).__name__}: {e}") from None
    return tags, events
