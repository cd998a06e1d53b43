"""Snapshots as the store keeps them: written against the dictionary of today's format
(``\\x02``, ``DICT_2``), and those written before (``\\x01``, ``DICT_1``, states of format
3) still read and upcast into the game's own state."""

import json
from pathlib import Path

import orjson
import zstandard

from domain import replay, state_from_dict, state_to_dict
from domain.export import from_ndjson
from service.store import snapshots

GOLDEN = Path(__file__).resolve().parents[1] / "unit" / "golden"


def _old_stored(snap: dict) -> bytes:
    """``snap`` stored as the code before format 4 stored it: ``\\x01`` and DICT_1's frame."""
    d = zstandard.ZstdCompressionDict(snapshots.DICT_1, dict_type=zstandard.DICT_TYPE_RAWCONTENT)
    cctx = zstandard.ZstdCompressor(level=snapshots.LEVEL, dict_data=d, write_checksum=True)
    return b"\x01" + cctx.compress(orjson.dumps(snap))


def test_a_snapshot_stored_before_format_4_reads_and_upcasts():
    for name in ("spit_finished", "speed_five_alternate"):
        _header, events = from_ndjson((GOLDEN / f"{name}.ndjson").read_text())
        extra = json.loads((GOLDEN / f"{name}.json").read_text())
        for version, snap in extra["snapshots"].items():
            read = snapshots.loads(_old_stored(snap))
            assert read == snap
            assert state_from_dict(read) == replay(events[: int(version)])


def test_a_snapshot_is_written_against_todays_dictionary_and_is_smaller_for_it():
    _header, events = from_ndjson((GOLDEN / "spit_finished.ndjson").read_text())
    snap = state_to_dict(replay(events[:120]))
    raw = snapshots.dumps(snap)
    assert raw[:1] == b"\x02" and snapshots.loads(raw) == snap
    assert len(raw) < len(_old_stored(snap))  # DICT_2 knows today's fields
    assert snapshots.loads(b"\x02" + raw[1:-1]) is None  # cut short: replay the log
    assert snapshots.loads(b"\x01" + raw[1:]) is None  # the other dictionary: checksum fails
