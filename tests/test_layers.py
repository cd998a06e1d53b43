"""The house: arrows point inward only, and no module asks which game it plays.

Layers, from the inside out (a module may import its own layer and those inside it):

0. ``domain``: the rules, pure;
1. the use cases: ``service`` and its modules ``games``, ``audit``, ``archiving``,
   ``bulk``, ``webhooks``, ``players``, ``rating``, ``seeks``, ``rematch``, ``cache``,
   ``idempotency``, ``errors``, ``ports``, ``metrics``, ``config``, ...;
2. the adapters: ``service.store``, ``service.limits``, ``service.http``,
   ``service.archive`` (the archive's object stores), ``service.outbound`` (webhook
   deliveries), ``service.bootstrap`` (the composition root, which builds the adapters
   and the use cases from the settings for the API, the workers and the command line),
   ``workers`` (and the workers never import the HTTP adapter);
3. the entry points: ``service.cli`` (nothing outside it imports it).

The graph is read from the source, every ``import`` (a function's too), as
``../shared/tools/import_cycles.py`` reads it.
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("domain", "service", "workers")
ADAPTERS = (
    "service.store",
    "service.limits",
    "service.http",
    "service.archive",
    "service.outbound",
    "service.bootstrap",
    "workers",
)


def modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for f in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(f.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = f
    return out


def imports(name: str, path: Path, known) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = base[: len(base) - (node.level - 1)]
                mod = ".".join(anchor + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            # ``from pkg import mod`` names the module; ``from pkg import NAME``, the package
            targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in known else mod
                       for a in node.names]  # fmt: skip
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name and not (path.name == "__init__.py" and t.startswith(name + ".")):
                found.add(t)  # (a package that imports its own modules is no cycle)
    return found


def layer(name: str) -> int:
    if name == "domain" or name.startswith("domain."):
        return 0
    if name.startswith("service.cli"):
        return 3
    if any(name == a or name.startswith(a + ".") for a in ADAPTERS):
        return 2
    return 1


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of two or more modules (Tarjan)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in g[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in g:
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle_anywhere():
    assert cycles(graph()) == []


def test_arrows_point_inward_only():
    upward = []
    for name, targets in graph().items():
        for t in targets:
            if layer(t) > layer(name):
                upward.append(f"{name} -> {t}")
            if name.startswith("workers") and t.startswith("service.http"):
                upward.append(f"{name} -> {t} (workers never use the HTTP adapter)")
            if t.startswith("service.cli") and not name.startswith("service.cli"):
                upward.append(f"{name} -> {t} (nothing imports an entry point)")
    assert upward == []


def test_the_test_sees_the_whole_house():
    g = graph()
    assert {"domain.spit", "service.acting", "service.http.pipeline", "workers.jobs",
            "service.cli.main"} <= set(g)  # fmt: skip
    assert layer("service.http.pipeline") == 2 and layer("service.acting") == 1
    assert "service.ports" in g["service.acting"]  # the use cases call out through ports


# A game's own modules may name it; so may the registry, in the list of its built-ins.
GAME_MODULES = ("domain/spit.py", "domain/speed.py", "domain/piles.py")
BUILT_INS = ("domain/registry.py", "_built_ins")  # (module, the function that lists them)
GAME_NAMES = {"spit", "speed"}
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def words(name: str) -> set[str]:
    """The words of an identifier or a dotted module path, lower case: ``SpitCalled`` ->
    {spit, called}; ``domain.spit`` -> {domain, spit}; ``spit_grace_s`` -> {spit, grace, s};
    ``spitlog`` -> {spitlog}."""
    out = set()
    for part in re.split(r"[._]", name):
        out |= {w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", part)}
    return out


def _names(node) -> list[str]:
    """The identifiers ``node`` writes: a name, an attribute, a definition, an argument, a
    keyword, an import (its module and its names)."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.keyword):
        return [node.arg or ""]
    if isinstance(node, ast.alias):
        return [node.name, node.asname or ""]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):  # a name in a string
        return [node.value] if IDENTIFIER.fullmatch(node.value) else []
    return []


def game_name_uses(path: Path, allowed: str | None = None) -> list[str]:
    """Where ``path`` names a game: an identifier, an import or an identifier-like string
    (``"speed"``, ``"spit_grace_s"``) with the word ``spit`` or ``speed`` in it (docstrings
    aside; inside the function ``allowed`` too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)
    }  # fmt: skip
    skip: set[int] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.FunctionDef) and n.name == allowed:
            skip |= {id(m) for m in ast.walk(n)}
    return [
        f"{path.relative_to(ROOT)}:{n.lineno} {name}"
        for n in ast.walk(tree)
        if id(n) not in docstrings and id(n) not in skip
        for name in _names(n)
        if words(name) & GAME_NAMES
    ]


def test_no_module_names_a_game_outside_its_own_modules():
    """The engine, the service and the workers name no game: no identifier, import or
    name-like string of ``spit`` or ``speed`` outside the games' modules and the registry's
    list of its built-ins; they find games in the registry."""
    found = []
    for pkg in PACKAGES:
        for f in sorted((ROOT / pkg).rglob("*.py")):
            rel = str(f.relative_to(ROOT))
            if rel not in GAME_MODULES:
                found += game_name_uses(f, BUILT_INS[1] if rel == BUILT_INS[0] else None)
    assert found == []


def test_the_registry_names_the_built_ins_and_nothing_else_does():
    uses = game_name_uses(ROOT / BUILT_INS[0])
    assert uses and all(u.split()[1] in GAME_NAMES for u in uses)  # the check sees them


def test_the_check_would_see_a_game_named_anywhere(tmp_path):
    probe = ROOT / "tests" / "_probe_game_branch.py"
    probe.write_text(
        "from domain.spit import Play\n"
        "import domain.speed\n"
        'def f(state):\n    return 1 if state.game == "speed" else 2\n'
        "def g(e):\n    return isinstance(e, SpitCalled) or e.spit_grace_s\n"
        'def h(o):\n    return getattr(o, "side_piles_speed") or spitlog(o) or "spit:rl:a"\n'
    )
    try:
        assert sorted(game_name_uses(probe)) == [
            "tests/_probe_game_branch.py:1 domain.spit",
            "tests/_probe_game_branch.py:2 domain.speed",
            "tests/_probe_game_branch.py:4 speed",
            "tests/_probe_game_branch.py:6 SpitCalled",
            "tests/_probe_game_branch.py:6 spit_grace_s",
            "tests/_probe_game_branch.py:8 side_piles_speed",
        ]
    finally:
        probe.unlink()


def test_the_shared_tool_agrees(tmp_path):
    import subprocess
    import sys

    tool = ROOT.parent / "shared" / "tools" / "import_cycles.py"
    if not tool.exists():  # pragma: no cover - the shared folder beside the repository
        return
    out = subprocess.run([sys.executable, str(tool), str(ROOT)], capture_output=True, text=True)
    assert re.search(r"cycles 0\s*$", out.stdout), out.stdout


KEY_NAME = re.compile(r"spit(log)?:[a-z{]")  # a Redis key of the service: spit:..., spitlog:...


def key_names_outside_the_store() -> list[str]:
    """Where a module outside ``service/store/`` writes a Redis key's name: a string (a
    docstring, an f-string's text) that starts one."""
    found = []
    for pkg in PACKAGES:
        for f in sorted((ROOT / pkg).rglob("*.py")):
            rel = f.relative_to(ROOT)
            if rel.parts[:2] == ("service", "store"):
                continue
            for n in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
                if (
                    isinstance(n, ast.Constant)
                    and isinstance(n.value, str)
                    and KEY_NAME.search(n.value)
                ):
                    found.append(f"{rel}:{n.lineno}")
    return found


def test_no_key_name_outside_the_store():
    """The names of the service's Redis keys (the games', the rate limits', the
    schedule's) are made in ``service/store/`` alone (``service.store.keys``)."""
    assert key_names_outside_the_store() == []


# per-class memos of what a class's own fields make (a copier, a codec): a pure function
# of the class, the same whatever games are listed
CLASS_MEMOS = {
    "domain/codec.py": {"_READERS", "_WRITERS"},
    "domain/export.py": {"_OPTIONAL"},
    "domain/snapshot.py": {"_DECODERS"},
    "domain/values.py": {"_COPIERS", "_SETTERS"},
}


def module_level_containers(path: Path) -> set[str]:
    """The names a module binds at its top level to an empty dict, list or set (a memo
    filled at run time)."""
    out = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            v = node.value
            literal = (isinstance(v, ast.Dict) and not v.keys) or (
                isinstance(v, ast.List | ast.Set) and not v.elts
            )
            called = (isinstance(v, ast.Call) and isinstance(v.func, ast.Name)
                      and v.func.id in ("dict", "list", "set") and not v.args)  # fmt: skip
            empty = literal or called
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if empty:
                out |= {t.id for t in targets if isinstance(t, ast.Name)}
    return out


def test_the_domain_keeps_no_hidden_memo():
    """What the engine makes from the list of games (evolve tables, encoders, redactions)
    is kept by ``registry.derived`` and dropped when the list changes; no other module of
    the domain fills a container of its own at run time, but the per-class memos above."""
    found = []
    for f in sorted((ROOT / "domain").rglob("*.py")):
        rel = str(f.relative_to(ROOT))
        if rel == "domain/registry.py":
            continue
        left = module_level_containers(f) - CLASS_MEMOS.get(rel, set())
        found += [f"{rel} {n}" for n in sorted(left)]
    assert found == []


def test_frozen_values_are_not_written_after_they_are_made():
    """No module writes a frozen value through ``object.__setattr__``: a value's derived
    fields are computed by its constructor (``Card.of``) or by ``values.build``."""
    found = []
    for pkg in PACKAGES:
        for f in sorted((ROOT / pkg).rglob("*.py")):
            for n in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
                if (isinstance(n, ast.Attribute) and n.attr == "__setattr__"
                        and isinstance(n.value, ast.Name) and n.value.id == "object"):  # fmt: skip
                    found.append(f"{f.relative_to(ROOT)}:{n.lineno}")
    assert found == []
