"""The event store's contract again, on a real redis-server: fakeredis runs another Lua
than Redis and could hide an atomicity bug."""

from tests.service.store_contract import *  # noqa: F403
