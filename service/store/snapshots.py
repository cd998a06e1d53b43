"""A game's snapshot as the store keeps it: the JSON of ``domain.state_to_dict``,
compressed with zstd against a dictionary of two typical states (a Speed one and a Spit
one), about 5x smaller than the JSON (2x without the dictionary).

Stored form: a first byte naming the dictionary, then one zstd frame with its checksum:
``\\x02`` for ``DICT_2`` (states of snapshot format 4), which ``dumps`` writes; ``\\x01``
for ``DICT_1`` (format 2 and 3 states), still read. The checksum makes a frame read with
another dictionary fail instead of yielding other JSON; a new dictionary takes a new
first byte. A snapshot is a cache that ``replay`` of the log can always rebuild:
``loads`` answers None for anything it cannot read, and the store replays the log
instead. Older code stored the JSON plain: still read.

>>> loads(dumps({"format": 2, "state": {"version": 50}}))
{'format': 2, 'state': {'version': 50}}
>>> loads(b'{"format": 1}'), loads(b"\\x01cut short")
({'format': 1}, None)
"""

import json
import logging

import orjson
import zstandard

log = logging.getLogger(__name__)

LEVEL = 3  # ~25 us a snapshot, once every ``snapshot_every`` events
MAX = 16 << 20  # the most a snapshot may decompress to
FORMAT_1 = b"\x01"
FORMAT_2 = b"\x02"

# Never change it (snapshots written with it would no longer read): add DICT_2 and a
# FORMAT_2. The states of a Speed game at version 30 and of a Spit game at version 300
# (``domain.simulate.play_game``, random vs random, ``random.Random(1)``), their ids and
# commitments zeroed.
DICT_1 = (
    b'{"format":2,"state":{"id":"g_0000000000000000","game":"speed","options":{"stockpiles":5,'
    b'"pile_choice":"slap","alternate_colors":false,"side_piles":10,"target_score":0,"max_roun'
    b'ds":60,"spit_grace_s":3.0,"ready_grace_s":10.0,"slap_grace_s":3.0,"idle_forfeit_s":120.0'
    b',"join_timeout_s":600.0},"commitment":"0000000000000000000000000000000000000000000000000'
    b'000000000000000","version":30,"status":"running","phase":"playing","phase_since":1800000'
    b'003.16,"created_at":1800000000.0,"round":1,"players":[{"kind":"bot:random","client_seed"'
    b':"","stockpiles":[],"face_up":[],"spit":[],"pool":[],"had_spit":false,"hand":["AD","KD",'
    b'"6C"],"draw":["5C","JD","AS","8D","AC"],"ready":true,"called":false},{"kind":"bot:random'
    b'","client_seed":"","stockpiles":[],"face_up":[],"spit":[],"pool":[],"had_spit":false,"ha'
    b'nd":["2S","8S","2D"],"draw":["QD","9S","4D","KS","5H"],"ready":true,"called":false}],"pi'
    b'les":[["2C","3H","4H","5S","6D","5D","6S","7D","8H"],["9H","10H","9C","10C","JH","QS","K'
    b'H"]],"side":[["AH","JS","3D","3S","QH","8C","9D","4C","2H","4S"],["JC","10S","10D","7S",'
    b'"7H","6H","KC","7C","QC","3C"]],"middle":[],"nonce":1,"rebuilt_idle":false,"solo_pile":n'
    b'ull,"cleared":null,"chooser":null,"scores":[0,0],"winner":null,"result":null,"can_act":['
    b'true,true],"idle_used":[0.0,0.0],"idle_since":[1800000035.515,1800000033.859],"acted_at"'
    b':[1800000035.515,1800000033.859],"stalemate":false}}{"format":2,"state":{"id":"g_0000000'
    b'000000000","game":"spit","options":{"stockpiles":5,"pile_choice":"slap","alternate_color'
    b's":false,"side_piles":10,"target_score":0,"max_rounds":60,"spit_grace_s":3.0,"ready_grac'
    b'e_s":10.0,"slap_grace_s":3.0,"idle_forfeit_s":120.0,"join_timeout_s":600.0},"commitment"'
    b':"0000000000000000000000000000000000000000000000000000000000000000","version":300,"statu'
    b's":"running","phase":"stalemate","phase_since":1800000369.575,"created_at":1800000000.0,'
    b'"round":4,"players":[{"kind":"bot:random","client_seed":"","stockpiles":[[],["10S"],[],['
    b'],[]],"face_up":[false,true,false,false,false],"spit":["3C","KS","2D","9C","8D","AS","QC'
    b'","5S"],"pool":[],"had_spit":true,"hand":[],"draw":[],"ready":true,"called":true},{"kind'
    b'":"bot:random","client_seed":"","stockpiles":[["3D"],["JS"],[],["6S"],[]],"face_up":[tru'
    b'e,true,false,true,false],"spit":["4H","QH","2C","QS","QD","2H","9D","4S"],"pool":[],"had'
    b'_spit":true,"hand":[],"draw":[],"ready":true,"called":true}],"piles":[["5H","6H","7D","8'
    b'S","9S","10D","JC","10C","JH","JD","5D","6D","7S","8C","7H","8H"],["5C","6C","7C","10H",'
    b'"9H","4D","3H","4C","3S","2S","AC","KD","AD","KC","AH","KH"]],"side":[[],[]],"middle":[]'
    b',"nonce":7,"rebuilt_idle":false,"solo_pile":null,"cleared":null,"chooser":null,"scores":'
    b'[0,0],"winner":null,"result":null,"can_act":[false,false],"idle_used":[0.0,0.0],"idle_si'
    b'nce":[1800000372.216,1800000370.554],"acted_at":[1800000372.216,1800000370.554],"stalema'
    b'te":true}}'
)
# Never change it either: add DICT_3 and a FORMAT_3. The same recipe as DICT_1's, with the
# states in snapshot format 4 (each game's own fields only).
DICT_2 = (
    b'{"format":4,"state":{"id":"g_0000000000000000","game":"speed","options":{"ready_grace_s":1'
    b'0.0,"idle_forfeit_s":120.0,"join_timeout_s":600.0,"alternate_colors":false,"side_piles":10'
    b',"target_score":0,"max_rounds":60,"spit_grace_s":3.0,"slap_grace_s":3.0},"commitment":"000'
    b'0000000000000000000000000000000000000000000000000000000000000","version":30,"status":"runn'
    b'ing","phase":"playing","phase_since":1800000047.19,"created_at":1800000000.0,"round":1,"pl'
    b'ayers":[{"kind":"bot:random","client_seed":"","ready":true,"called":false,"hand":["QS","AD'
    b'","KD","10C","KH"],"draw":["6C","5C","JD","AS","8D","AC"]},{"kind":"bot:random","client_se'
    b'ed":"","ready":true,"called":false,"hand":["2S","8H","JH","2D","QD"],"draw":["9S","4D","KS'
    b'","5H"]}],"nonce":1,"winner":null,"result":null,"aborted_by":null,"aborted_why":null,"can_'
    b'act":[true,true],"idle_used":[3.0,0.0],"idle_since":[1800000047.19,1800000047.19],"acted_a'
    b't":[1800000042.195,1800000046.312],"stalemate":false,"rated":false,"moved":[true,true],"pi'
    b'les":[["2C","3H","4H","5S","6S","7D","6D","5D","AH"],["9H","10H","9C","8S","JC"]],"side":['
    b'["JS","3D","3S","QH","8C","9D","4C","2H","4S"],["10S","10D","7S","7H","6H","KC","7C","QC",'
    b'"3C"]],"middle":[],"rebuilt_idle":false,"scores":[0,0]}}{"format":4,"state":{"id":"g_00000'
    b'00000000000","game":"spit","options":{"ready_grace_s":10.0,"idle_forfeit_s":120.0,"join_ti'
    b'meout_s":600.0,"stockpiles":5,"pile_choice":"slap","alternate_colors":false,"max_rounds":6'
    b'0,"spit_grace_s":3.0,"slap_grace_s":3.0},"commitment":"00000000000000000000000000000000000'
    b'00000000000000000000000000000","version":300,"status":"running","phase":"ready","phase_sin'
    b'ce":1800000497.985,"created_at":1800000000.0,"round":5,"players":[{"kind":"bot:random","cl'
    b'ient_seed":"","ready":true,"called":false,"stockpiles":[["9H"],["10S","4C"],["9S","JD","7S'
    b'"],["QH","5S","10C","JH"],["QD","AC","8H","AH","KH"]],"face_up":[true,true,true,true,true]'
    b',"spit":["2C","JC"],"pool":[],"had_spit":true},{"kind":"bot:random","client_seed":"","read'
    b'y":true,"called":false,"stockpiles":[["6S"],["JS","6C"],["8D","4S","2S"],["10D","3D","2D",'
    b'"7H"],["4D","7C","6H","10H","5H"]],"face_up":[true,true,true,true,true],"spit":["KC","9C",'
    b'"4H","8S","2H","7D","KD","KS","QC","5D","5C","9D","3H","8C","AS","6D","AD","3S","3C","QS"]'
    b',"pool":[],"had_spit":true}],"nonce":9,"winner":null,"result":null,"aborted_by":null,"abor'
    b'ted_why":null,"can_act":[false,false],"idle_used":[0.0,0.0],"idle_since":[1800000502.163,1'
    b'800000500.126],"acted_at":[1800000502.163,1800000500.126],"stalemate":false,"rated":false,'
    b'"moved":[true,true],"piles":[null,null],"solo_pile":null,"cleared":null,"chooser":null}}'
)
_DICTS = {
    first: zstandard.ZstdCompressionDict(d, dict_type=zstandard.DICT_TYPE_RAWCONTENT)
    for first, d in ((FORMAT_1, DICT_1), (FORMAT_2, DICT_2))
}

# zstd contexts, reused: a new one for every call would cost more than the compression.
# One is not for concurrent use, so each call takes one from its list and puts it back
# (a greenlet never switches inside one, so under gevent the lists hold one each).
_cctxs: list = []
_dctxs: dict[bytes, list] = {first: [] for first in _DICTS}


def dumps(state: dict) -> bytes:
    """A snapshot as stored (``FORMAT_2``)."""
    data = orjson.dumps(state)
    try:
        cctx = _cctxs.pop()
    except IndexError:
        cctx = zstandard.ZstdCompressor(
            level=LEVEL, dict_data=_DICTS[FORMAT_2], write_checksum=True
        )
    try:
        return FORMAT_2 + cctx.compress(data)
    finally:
        _cctxs.append(cctx)


def loads(raw: bytes) -> dict | None:
    """A stored snapshot (``FORMAT_2``, ``FORMAT_1``, or the plain JSON of older code);
    None if it is none of them."""
    try:
        first = raw[:1]
        if first in _DICTS:
            idle = _dctxs[first]
            try:
                dctx = idle.pop()
            except IndexError:
                dctx = zstandard.ZstdDecompressor(dict_data=_DICTS[first])
            try:
                raw = dctx.decompress(raw[1:], max_output_size=MAX)
            finally:
                idle.append(dctx)
        elif first != b"{":
            raise ValueError("neither a snapshot nor JSON")
        return json.loads(raw)
    except (zstandard.ZstdError, ValueError) as e:
        log.warning("snapshot unreadable (%s): the log will be replayed", e)
        return None
