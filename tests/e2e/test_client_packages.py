"""The two clients as an integrator gets them: built into what a registry would serve (the
Python wheel and sdist, ``python -m build``; the npm tarball, ``npm pack``), installed into
a clean virtualenv / a clean consumer project, and used by a small consumer there
(tests/e2e/consumers/): it must type-check strictly with the client's types
(``mypy --strict --disallow-any-expr``; ``tsc --strict`` with ``skipLibCheck`` off and
checks that fail on ``any``), the misuses beside it must each be refused, and it plays a
short game of Speed against ``spitlog serve`` and checks webhook signatures the server's
``service.webhooks.sign`` made."""

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

from service.webhooks import new_secret, sign

ROOT = Path(__file__).resolve().parents[2]
CONSUMERS = Path(__file__).resolve().parent / "consumers"
TYPESCRIPT = ROOT / "clients" / "typescript"
pytestmark = pytest.mark.slow


def run(args: list[str], cwd: Path, timeout: float = 600, **env: str):
    """``args`` in ``cwd``, outside the checkout's paths (no PYTHONPATH, no MYPYPATH)."""
    full = {**os.environ, **env}
    for name in ("PYTHONPATH", "MYPYPATH", "NODE_PATH"):
        full.pop(name, None)
    return subprocess.run(args, cwd=cwd, env=full, capture_output=True, text=True,
                          timeout=timeout)  # fmt: skip


def checked(r: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert r.returncode == 0, (r.args, r.stdout[-3000:], r.stderr[-3000:])
    return r


def refused_lines(source: Path, marker: str) -> set[int]:
    """The lines of ``source`` marked as ones a type checker must refuse."""
    return {n for n, line in enumerate(source.read_text().splitlines(), 1) if marker in line}


def error_lines(output: str, pattern: str) -> dict[str, set[int]]:
    """file -> lines with an error, read from a type checker's output."""
    found: dict[str, set[int]] = {}
    for m in re.finditer(pattern, output, re.M):
        found.setdefault(m["file"], set()).add(int(m["line"]))
    return found


def webhook_fixture() -> tuple[list[str], str]:
    """(secret, header, body, time) of a notification signed by the server's code, as the
    consumers take it (``SPITLOG_TEST_WEBHOOK``), and that as JSON."""
    secret, t = new_secret(), int(time.time())
    body = json.dumps({"id": "evt_g_1_12_0", "type": "game.finished", "created": t,
                       "data": {"status": "finished", "winner": 0, "result": "E-2"}})  # fmt: skip
    fields = [secret, sign(secret, t, body.encode()), body, str(t)]
    return fields, json.dumps(fields)


def assert_played(summary: dict, event_names: dict[str, str]) -> None:
    """What each consumer reports of its game: a move refused by rule Q-3 (a card not in
    the hand) as a typed error with the rule, every event once and in order, typed, ending
    with the resignation's result E-5, and the signature checked."""
    assert summary["refused"][:2] == [422, "Q-3"], summary
    assert summary["refused"][2], summary  # the problem's type
    n = len(summary["versions"])
    assert summary["versions"] == list(range(1, n + 1)), summary
    events = summary["events"]
    assert events[0] == event_names["game_created"] and events[-1] == event_names["game_ended"]
    assert events[-2] == event_names["player_resigned"]
    assert summary["cards_played"] == (1 if summary["played"] else 0), summary
    assert summary["ended"] == [0, "E-5"] and summary["status"] == "finished", summary
    assert summary["verified"] is True and summary["tampered"] is False, summary


@pytest.mark.timeout(900)
def test_the_python_client_installs_typed_and_plays(served, tmp_path):
    """The wheel (built from the sdist, so the sdist is whole) installed into a clean
    virtualenv: ``py.typed`` in both packages; the consumer passes ``mypy --strict
    --disallow-any-expr`` (no ``Any`` reaches it), each misuse is an error; the consumer
    plays its game and checks a signature (RULES Q-3, E-5)."""
    source = tmp_path / "src"
    shutil.copytree(ROOT / "clients" / "python", source,
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "dist",
                                                  ".mypy_cache", ".ruff_cache"))  # fmt: skip
    dist = tmp_path / "dist"
    checked(run([sys.executable, "-m", "build", "--outdir", str(dist), str(source)], tmp_path))
    (wheel,) = dist.glob("spitlog_client-*.whl")
    (sdist,) = dist.glob("spitlog_client-*.tar.gz")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"spitlog_client/py.typed", "spitlog_sdk/py.typed"} <= names
    with tarfile.open(sdist) as tar:
        assert any(n.endswith("spitlog_sdk/py.typed") for n in tar.getnames())

    venv = tmp_path / "venv"
    checked(run([sys.executable, "-m", "venv", str(venv)], tmp_path))
    python = str(venv / "bin" / "python")
    checked(run([python, "-m", "pip", "install", "--quiet", str(wheel)], tmp_path))
    project = tmp_path / "consumer"
    project.mkdir()
    for name in ("python_consumer.py", "python_misuse.py"):
        shutil.copy(CONSUMERS / name, project / name)

    r = run([sys.executable, "-m", "mypy", "--python-executable", python, "--strict",
             "--disallow-any-expr", "--cache-dir", str(tmp_path / "mypy-cache"),
             "python_consumer.py", "python_misuse.py"], project)  # fmt: skip
    errors = error_lines(r.stdout, r"^(?P<file>[^:\n]+\.py):(?P<line>\d+): error:")
    assert errors.get("python_consumer.py") is None, r.stdout
    assert set(errors) == {"python_misuse.py"}, r.stdout
    assert errors["python_misuse.py"] == refused_lines(project / "python_misuse.py", "# refused:")

    _fields, webhook = webhook_fixture()
    r = checked(run([python, "python_consumer.py", served], project, timeout=300,
                    SPITLOG_TEST_WEBHOOK=webhook))  # fmt: skip
    names = {k: "".join(p.title() for p in k.split("_")) + "Event"
             for k in ("game_created", "game_ended", "player_resigned")}  # fmt: skip
    assert_played(json.loads(r.stdout.strip().splitlines()[-1]), names)


@pytest.mark.timeout(900)
def test_the_typescript_client_installs_typed_and_plays(served, tmp_path):
    """The ``npm pack`` tarball (built by its ``prepare``) installed into a clean consumer
    project with its own TypeScript: the consumer compiles with ``--strict`` and
    ``skipLibCheck`` off, no value of the client's typed ``any``; each misuse, the
    ``{type: "play", card: 3, nope: true}`` (an unknown field) first, fails to compile; the consumer
    plays its game and checks a signature (RULES Q-3, E-5)."""
    if not (TYPESCRIPT / "node_modules").exists():
        pytest.fail("no clients/typescript/node_modules: npm ci --prefix clients/typescript")
    packed = tmp_path / "packed"
    packed.mkdir()
    checked(run(["npm", "pack", "--silent", "--pack-destination", str(packed)], TYPESCRIPT))
    (tarball,) = packed.glob("spitlog-client-*.tgz")
    with tarfile.open(tarball) as tar:
        files = set(tar.getnames())
    assert {"package/dist/src/index.d.ts", "package/dist/src/schema.d.ts"} <= files, files

    project = tmp_path / "consumer"
    project.mkdir()
    (project / "package.json").write_text(
        json.dumps({"name": "consumer", "private": True, "type": "module"})
    )
    (project / "tsconfig.json").write_text(json.dumps({"compilerOptions": {
        "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
        "strict": True, "skipLibCheck": False, "types": ["node"], "outDir": "out",
    }, "files": ["consumer.ts", "misuse.ts"]}))  # fmt: skip
    for name in ("consumer.ts", "misuse.ts"):
        shutil.copy(CONSUMERS / name, project / name)
    dev = json.loads((TYPESCRIPT / "package.json").read_text())["devDependencies"]
    checked(run(["npm", "install", "--no-audit", "--no-fund", "--prefer-offline", str(tarball),
                 f"typescript@{dev['typescript']}", f"@types/node@{dev['@types/node']}"],
                project))  # fmt: skip

    r = run([str(project / "node_modules" / ".bin" / "tsc"), "-p", "."], project)
    errors = error_lines(r.stdout, r"^(?P<file>[^(\n]+)\((?P<line>\d+),\d+\): error TS")
    assert set(errors) == {"misuse.ts"}, r.stdout  # none in the consumer nor in the package
    assert errors["misuse.ts"] == refused_lines(project / "misuse.ts", "// refused:"), r.stdout

    _fields, webhook = webhook_fixture()
    r = checked(run(["node", "out/consumer.js", served], project, timeout=300,
                    SPITLOG_TEST_WEBHOOK=webhook))  # fmt: skip
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert summary["typed"] == [True] * 5, summary
    assert_played(summary, {k: k for k in ("game_created", "game_ended", "player_resigned")})
