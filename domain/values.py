"""A faster ``dataclasses.replace`` for the domain's frozen, slotted values.

Each class gets a copier generated from its own field names (docs/decisions/0009).
Same contract as ``dataclasses.replace``: a new instance with some fields changed, the
original untouched.

The copier writes through each slot's own descriptor (``cls.field.__set__``), which is
what a frozen dataclass's ``__init__`` does too (``object.__setattr__``), minus the
lookup of the slot by name.
"""

import dataclasses

_COPIERS: dict[type, object] = {}


def _copier(cls):
    names = [f.name for f in dataclasses.fields(cls)]
    setters = {n: getattr(cls, n).__set__ for n in names}
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
        raise TypeError(
            f"{cls.__name__} has no field {set(changes) - set(cls.__dataclass_fields__)}"
        ) from None
