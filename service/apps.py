"""Apps: integrators holding an API key (``spitlog admin keys create NAME``), the namespace of
their players. A key is shown once, stored as its SHA-256 (``service.store.players``)
and sent as ``X-Api-Key`` (the seat's token keeps ``Authorization``: a request of an
app's bot carries both). An unknown or revoked key is a 401, whatever the route."""

import hashlib
import time
from dataclasses import dataclass

from .errors import BadCredentials, NoSuchGame
from .ports import SYSTEM_ENTROPY, AppStore, Clock, Entropy
from .records import AppRecord

KEY_PREFIX = "spk_"  # a key says what it is (as Stripe's sk_): a leaked one is recognised


class BadAppKey(BadCredentials):
    """An unknown or revoked API key: a failed authentication."""


class NoSuchApp(NoSuchGame):
    """No app has that id."""


@dataclass(frozen=True, slots=True)
class App:
    id: str
    name: str


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class Apps:
    """Create, list, revoke and recognise apps' keys."""

    def __init__(self, store: AppStore, clock: Clock = time.time,
                 entropy: Entropy = SYSTEM_ENTROPY):  # fmt: skip
        self.store = store
        self.clock = clock
        self.entropy = entropy

    def create(self, name: str) -> tuple[App, str]:
        """A new app named ``name`` and its key (shown this once, never stored)."""
        name = name.strip()
        if not 1 <= len(name) <= 64 or not name.isprintable():
            raise ValueError("an app's name is 1-64 printable characters")
        app = App(self.entropy.ident("a_", 6), name)
        key = KEY_PREFIX + self.entropy.token()
        self.store.add_app(app.id, key_hash(key), name, int(self.clock() * 1000))
        return app, key

    def list(self) -> list[AppRecord]:
        """Every app: id, name, when it was made, and when revoked if it is."""
        return self.store.apps()

    def revoke(self, app_id: str) -> AppRecord:
        """Revoke the app's key: every request with it is a 401 from now on."""
        found = self.store.revoke_app(app_id, int(self.clock() * 1000))
        if found is None:
            raise NoSuchApp(f"no app {app_id}")
        return found

    def authenticate(self, key: str | None) -> App | None:
        """The app of ``key`` (None without one); 401 for an unknown or revoked key."""
        if key is None:
            return None
        found = self.store.app_by_hash(key_hash(key)) if key.startswith(KEY_PREFIX) else None
        if found is None:
            raise BadAppKey("unknown API key (X-Api-Key)")
        if found.revoked_ms is not None:
            raise BadAppKey("this API key was revoked (X-Api-Key)")
        return App(found.id, found.name)
