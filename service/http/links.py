"""OpenAPI links: how the answer of one operation feeds the next, for client
generators and for stateful fuzzing (schemathesis follows them: create a game, then
read, join, act, watch and audit *that* game). ``api.py`` attaches them to the 201
answers of create, join and act; ``openapi.yaml`` is generated from there.

Targets are named by ``operationRef`` (JSON pointers into ``paths``), so that the
operations need no ``operationId``. The seat's token (``token`` in the create and join
answers) goes in ``Authorization: Bearer``; it is a security scheme, not a parameter,
so no link carries it.
"""


def _ref(path: str, method: str) -> str:
    return "#/paths/" + path.replace("~", "~0").replace("/", "~1") + "/" + method


GAME = "/v1/games/{game_id}"
_TARGETS = {
    "GetGame": (GAME, "get", "the game's state"),
    "TakeSeat": (GAME + "/seats", "post", "take the free seat"),
    "Act": (GAME + "/actions", "post", "act in the game (with the seat's token)"),
    "Events": (GAME + "/events", "get", "the game's log, or its live stream"),
    "Audit": (GAME + "/audit", "get", "the audit, once the game is over"),
}


def _links(game_id: str, version: str, *names: str) -> dict:
    out = {}
    for name in names:
        path, method, what = _TARGETS[name]
        out[name] = {
            "operationRef": _ref(path, method),
            "parameters": {"path.game_id": game_id},
            "description": what.capitalize() + ".",
        }
    out["StateAt"] = {
        "operationRef": _ref(GAME + "/states/{version}", "get"),
        "parameters": {"path.game_id": game_id, "path.version": version},
        "description": "The state at the version this answer reached.",
    }
    return out


ALL = ("GetGame", "TakeSeat", "Act", "Events", "Audit")
CREATED = _links("$response.body#/id", "$response.body#/state/version", *ALL)
SEATED = _links("$request.path.game_id", "$response.body#/state/version", *ALL)
ACTED = _links("$request.path.game_id", "$response.body#/version", "GetGame", "Act", "Events",
               "Audit")  # fmt: skip
