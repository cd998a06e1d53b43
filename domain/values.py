"""Copies of the domain's frozen, slotted values: ``replace`` and ``Draft``.

``replace`` is a faster ``dataclasses.replace``: each class gets a copier generated from
its own field names (docs/decisions/0009). Same contract: a new instance with some
fields changed, the original untouched.

``Draft`` is a builder: a copy that its maker may still change (``update``) until it
hands it over (``done``), for a value whose last fields depend on the others
(``game.evolve`` builds each state so: the event's changes, then the bookkeeping read
from them).

Both write through each slot's own descriptor (``cls.field.__set__``), which is what a
frozen dataclass's ``__init__`` does too (``object.__setattr__``), minus the lookup of
the slot by name, and only ever on the new object they made themselves.
"""

import dataclasses

_COPIERS: dict[type, object] = {}
_SETTERS: dict[type, dict] = {}


def _setters(cls) -> dict:
    setters = _SETTERS.get(cls)
    if setters is None:
        setters = _SETTERS[cls] = {
            f.name: getattr(cls, f.name).__set__ for f in dataclasses.fields(cls)
        }
    return setters


def _copier(cls):
    names = [f.name for f in dataclasses.fields(cls)]
    setters = _setters(cls)
    lines = ["def copy(o, kw):", "    n = new(cls)"]
    lines += [f"    set_{n}(n, o.{n})" for n in names]
    lines += ["    for k, v in kw.items():", "        setters[k](n, v)", "    return n"]
    ns = {"new": object.__new__, "cls": cls, "setters": setters}
    ns.update({f"set_{n}": s for n, s in setters.items()})
    exec("\n".join(lines), ns)  # noqa: S102 - generated from the class's own field names
    return ns["copy"]


def replace(obj, **changes):
    """``obj`` with ``changes`` applied (unknown names raise TypeError, as dataclasses do)."""
    cls = type(obj)
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _copier(cls)
    try:
        return copier(obj, changes)
    except KeyError:
        raise _unknown(cls, changes) from None


def _unknown(cls, changes) -> TypeError:
    return TypeError(f"{cls.__name__} has no field {set(changes) - set(cls.__dataclass_fields__)}")


class Draft:
    """A copy of ``obj`` with ``changes`` (``value``), which its maker alone holds:
    ``update`` changes its fields until ``done`` hands it over, after which the draft is
    spent (a value once handed over is never changed)."""

    __slots__ = ("value", "_set")

    def __init__(self, obj, changes: dict | None = None):
        cls = type(obj)
        copier = _COPIERS.get(cls)
        if copier is None:
            copier = _COPIERS[cls] = _copier(cls)
        try:
            self.value = copier(obj, changes or {})
        except KeyError:
            raise _unknown(cls, changes) from None
        self._set = _SETTERS[cls]  # made with its copier

    def update(self, changes: dict) -> None:
        """Change the fields ``changes`` names (TypeError for a name the value has not)."""
        value = self.value
        if value is None:
            raise RuntimeError("a draft handed over is spent")
        try:
            for k, v in changes.items():
                self._set[k](value, v)
        except KeyError:
            raise _unknown(type(value), changes) from None

    def done(self):
        """The value, handed over: the draft changes it no more."""
        value, self.value = self.value, None
        return value
