"""Copies of the domain's frozen, slotted values: ``replace`` and ``build``.

``replace`` is a faster ``dataclasses.replace``: each class gets a copier generated from
its own field names (docs/decisions/0009). Same contract: a new instance with some
fields changed, the original untouched.

``build`` is a builder: a copy completed with fields derived from the copy itself before
anyone else sees it (``game.evolve`` builds each state so: the event's changes, then the
bookkeeping read from them), one copy where ``replace`` would need two.

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


def build(obj, changes: dict, finish, *args):
    """A copy of ``obj`` with ``changes``, completed with the fields ``finish(copy, *args)``
    answers (derived from the others) before it is returned: ``finish`` reads the copy
    while it is built; nothing else ever sees it unfinished."""
    cls = type(obj)
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _copier(cls)
    try:
        new = copier(obj, changes)
    except KeyError:
        raise _unknown(cls, changes) from None
    setters = _SETTERS[cls]
    derived = finish(new, *args)
    try:
        for k, v in derived.items():
            setters[k](new, v)
    except KeyError:
        raise _unknown(cls, derived) from None
    return new
