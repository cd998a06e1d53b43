"""The JSON Schema of what the domain writes on the wire, in fragments: each game module
says with these what its ``view`` and ``full_view`` add and what its ``REDACT`` leaves of
the fields it hides (``SHAPES``, ``VIEW``, ``REDACTED``); the service names and assembles
them into its OpenAPI document (service/http/shapes.py), and its tests hold real answers
to them.

A ``ref`` names a shape of the same game's ``SHAPES``, or ``Card``.

>>> nullable(SIZE)["type"], array(CARD)
(['integer', 'null'], {'type': 'array', 'items': {'$ref': 'Card'}})
"""


def integer(value) -> int | None:
    """``value`` read as a JSON integer, or None if it is not one. JSON Schema counts a
    number with a zero fraction as an integer (``2.0`` is the integer 2), so the domain
    takes it as one too; a boolean is not a number.

    >>> integer(2), integer(2.0), integer(2.5), integer(True), integer("2")
    (2, 2, None, None, None)
    """
    if type(value) is int:
        return value
    if type(value) is float and value.is_integer():
        return int(value)
    return None


def ref(name: str) -> dict:
    return {"$ref": name}


def nullable(schema: dict) -> dict:
    if "$ref" in schema:
        return {"anyOf": [schema, {"type": "null"}]}
    return {**schema, "type": [schema["type"], "null"]}


def array(items: dict, description: str = "") -> dict:
    out = {"type": "array", "items": items}
    return {**out, "description": description} if description else out


def obj(properties: dict, description: str, optional=()) -> dict:
    """An object with ``properties``, each required but those ``optional``."""
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": [p for p in properties if p not in optional],
    }


def either(*schemas: dict, description: str = "") -> dict:
    out = {"oneOf": list(schemas)}
    return {**out, "description": description} if description else out


CARD = ref("Card")
CARDS = array(CARD)
SIZE = {"type": "integer", "minimum": 0, "description": "how many cards"}
SIZES = array(SIZE)
TOP = {**nullable(CARD), "description": "the top card; null when face down or empty"}
SEAT = {"type": "integer", "minimum": 0, "maximum": 1}
