"""The house: arrows point inward only, and no module asks which game it plays.

Layers, from the inside out (a module may import its own layer and those inside it):

0. ``domain``: the rules, pure;
1. the use cases: ``service`` and its modules ``games``, ``audit``, ``archiving``,
   ``bulk``, ``webhooks``, ``players``, ``rating``, ``seeks``, ``rematch``, ``cache``,
   ``idempotency``, ``errors``, ``ports``, ``metrics``, ``config``, ...;
2. the adapters: ``service.store``, ``service.limits``, ``service.http``,
   ``service.archive`` (the archive's object stores), ``service.outbound`` (webhook
   deliveries), ``workers`` (and the workers never import the HTTP adapter);
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


GAME_MODULES = ("domain/spit.py", "domain/speed.py")
GAME_NAMES = {"spit", "speed"}


def game_name_uses(path: Path) -> list[str]:
    """Where ``path`` compares or looks up a game by its name: a ``"spit"`` or ``"speed"``
    string in its code (docstrings aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)
    }  # fmt: skip
    return [
        f"{path.relative_to(ROOT)}:{n.lineno}"
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and n.value in GAME_NAMES and id(n) not in docstrings
    ]


def test_no_branch_on_a_games_name_outside_its_module():
    found = []
    for pkg in PACKAGES:
        for f in sorted((ROOT / pkg).rglob("*.py")):
            if str(f.relative_to(ROOT)) not in GAME_MODULES:
                found += game_name_uses(f)
    assert found == []


def test_the_grep_would_see_a_branch():
    probe = ROOT / "tests" / "_probe_game_branch.py"
    probe.write_text('def f(state):\n    return 1 if state.game == "speed" else 2\n')
    try:
        assert game_name_uses(probe) == ["tests/_probe_game_branch.py:2"]
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
