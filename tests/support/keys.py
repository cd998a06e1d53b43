"""What a game leaves in Redis: every key that names it, or whose value or member does."""

import redis


def _names(r: redis.Redis, key: bytes, gid: str) -> list[str]:
    name = key.decode()
    if gid in name:
        return [name]
    kind = r.type(key).decode()
    if kind == "string":
        found = gid in (r.get(key) or b"").decode(errors="replace")
    elif kind == "zset":
        found = any(gid in m.decode(errors="replace") for m in r.zrange(key, 0, -1))
    elif kind == "hash" and name.startswith("spitlog:sched:"):
        return [f"{name}[{f.decode()}]" for f in r.hkeys(key) if gid in f.decode()]
    else:
        found = False
    return [name] if found else []


def keys_naming(r: redis.Redis, gid: str) -> list[str]:
    """The keys of ``r`` that hold anything of game ``gid`` (sorted): its own, the index
    entries that name it (tokens, lobby lists) and its schedule plans (``name[field]``)."""
    return sorted(n for k in r.scan_iter("*") for n in _names(r, k, gid))
