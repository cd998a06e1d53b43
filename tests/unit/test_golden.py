"""Whole games of both built-in games, pinned byte for byte (tests/unit/golden, written by
``golden/make.py`` with the code before each game became a module of its own): their
exports (docs/export.md), the audit's verdict (H-6), the full state, and snapshots of
format 3 (one flat state for every game), which today's code upcasts."""

import json
from pathlib import Path

import pytest

from domain import RULES, event_from_dict, event_to_dict, replay, state_from_dict, state_to_dict
from domain.audit import verify
from domain.export import from_ndjson, parse_notation, to_ndjson, to_notation
from domain.views import full_state

GOLDEN = Path(__file__).resolve().parent / "golden"
NAMES = sorted(p.stem for p in GOLDEN.glob("*.ndjson"))


def golden(name: str) -> tuple[str, str, dict]:
    return (
        (GOLDEN / f"{name}.ndjson").read_text(),
        (GOLDEN / f"{name}.txt").read_text(),
        json.loads((GOLDEN / f"{name}.json").read_text()),
    )


def test_the_golden_games_cover_both_games_and_an_old_format():
    assert {n.split("_")[0] for n in NAMES} == {"spit", "speed"}
    assert '"reason":"admin"' in golden("spit_aborted_before_t6")[0]


@pytest.mark.parametrize("name", NAMES)
def test_H6_an_export_is_the_same_bytes_and_audits_the_same(name):
    ndjson, notation, extra = golden(name)
    header, events = from_ndjson(ndjson)
    seed = bytes.fromhex(header["server_seed"])
    assert to_ndjson(events, seed) == ndjson
    assert to_notation(events, seed) == notation
    assert parse_notation(notation)[1] == events
    assert verify(events, seed).as_dict() == extra["verdict"]
    assert full_state(replay(events)) == extra["full_state"]


@pytest.mark.parametrize("name", NAMES)
def test_an_event_read_from_the_log_writes_back_as_it_was_stored(name):
    """Exports and the archive compare bytes: reading an event (of any version) and writing
    it back gives the stored form, whatever an upcaster makes of its meaning."""
    for line in golden(name)[0].splitlines()[1:]:
        stored = json.loads(line)
        del stored["version"]
        assert event_to_dict(event_from_dict(stored)) == stored


@pytest.mark.parametrize("name", NAMES)
def test_a_format_3_snapshot_reads_into_the_games_own_state(name):
    """Format 3 held every game's fields in one state: it is upcast into the game's own
    classes, equal to the state replayed from the log; today's format round-trips."""
    ndjson, _notation, extra = golden(name)
    _header, events = from_ndjson(ndjson)
    for version, snap in extra["snapshots"].items():
        assert snap["format"] == 3
        state = state_from_dict(snap)
        assert type(state) is RULES[snap["state"]["game"]].STATE
        assert state == replay(events[: int(version)])
        assert state_from_dict(state_to_dict(state)) == state
        assert snap["format"] == 3 and "side" in snap["state"]  # the sample left as it was


def test_a_snapshot_older_than_format_3_or_of_no_known_game_is_refused():
    """A snapshot is a cache: one this code does not read is refused (ValueError), and the
    service replays the log instead."""
    snap = next(iter(golden("spit_finished")[2]["snapshots"].values()))
    with pytest.raises(ValueError, match="format 2"):
        state_from_dict({**snap, "format": 2})
    with pytest.raises(ValueError, match="format 9"):
        state_from_dict({**snap, "format": 9})
    with pytest.raises(ValueError, match="no game 'chess'"):
        state_from_dict({**snap, "state": {**snap["state"], "game": "chess"}})
    now = state_to_dict(state_from_dict(snap))
    now["state"]["side"] = [[], []]  # another game's field in today's format
    with pytest.raises(ValueError, match="no field side"):
        state_from_dict(now)
