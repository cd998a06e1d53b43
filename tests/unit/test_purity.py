"""The domain is pure: no module of domain/ imports anything that does I/O, keeps
time or draws randomness (time, the seed and the seat come in through ``Ctx``). One
exception, in one module: the registry reads which games installed packages declare
(``importlib.metadata``'s entry points), as importing a module reads what is installed;
no rule depends on it (docs/decisions/0031)."""

import ast
import pathlib

DOMAIN = pathlib.Path(__file__).resolve().parents[2] / "domain"

FORBIDDEN = {
    "flask", "redis", "rq", "fakeredis", "requests", "httpx", "time", "os", "socket",
    "threading", "subprocess", "random", "secrets", "asyncio", "io", "pathlib", "logging",
    "importlib", "multiprocessing", "shutil", "sys", "urllib", "http", "sqlite3",
    "service", "workers",  # the domain knows nothing of its adapters
}  # fmt: skip


ALLOWED = {("registry.py", "importlib.metadata")}  # (module, import)


def _imported(node) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return [node.module]
    return []


def impure_imports(path: pathlib.Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    bad = []
    for node in ast.walk(tree):
        for name in _imported(node):
            if name.split(".")[0] in FORBIDDEN and (path.name, name) not in ALLOWED:
                bad.append(f"{path.name}:{node.lineno} imports {name}")
        if isinstance(node, ast.Name) and node.id == "__import__":
            bad.append(f"{path.name}:{node.lineno} calls __import__")
    return bad


def test_domain_imports_nothing_that_does_io():
    files = sorted(DOMAIN.glob("*.py"))
    assert {"game.py", "spit.py", "speed.py", "views.py", "shuffle.py"} <= {f.name for f in files}
    bad = [b for f in files for b in impure_imports(f)]
    assert bad == []


def test_the_one_exception_is_the_registrys_entry_points_and_nothing_more(tmp_path):
    registry = tmp_path / "registry.py"
    registry.write_text("from importlib.metadata import entry_points\nimport importlib\n")
    assert impure_imports(registry) == ["registry.py:2 imports importlib"]
    other = tmp_path / "game.py"
    other.write_text("from importlib.metadata import entry_points\n")
    assert impure_imports(other) == ["game.py:1 imports importlib.metadata"]


def test_the_purity_check_catches_an_impure_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import hashlib\nfrom os import path\n"
        "def f():\n    import random.shuffle\n    from time import time\n"
        "def main():\n    import redis\n"  # not guarded: no exception for it
    )
    assert impure_imports(sample) == [
        "sample.py:2 imports os",
        "sample.py:4 imports random.shuffle",
        "sample.py:5 imports time",
        "sample.py:7 imports redis",
    ]
    # no exemption for a command line either: those live in service/ (spitlog simulate)
    sample.write_text("def main():\n    import time\nif __name__ == '__main__':\n    main()\n")
    assert impure_imports(sample) == ["sample.py:2 imports time"]
