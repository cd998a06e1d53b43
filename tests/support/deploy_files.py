"""Reading the deployment's files as Docker and Compose read them, for the tests that check
them (tests/service/test_deploy_files.py) and run them as processes
(tests/e2e/test_compose_processes.py): the Dockerfile's stages and instructions, and
Compose's ``${...}`` interpolation of docker-compose.yml."""

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Stage:
    """A ``FROM`` of a Dockerfile: its base image, its ``AS`` name, its instructions
    (name upper-cased, arguments with their line continuations joined)."""

    base: str
    alias: str | None
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def all(self, name: str) -> list[str]:
        return [args for n, args in self.instructions if n == name]

    def last(self, name: str) -> str | None:
        found = self.all(name)
        return found[-1] if found else None

    def env(self) -> dict[str, str]:
        """Every ``ENV`` of the stage, in order (a later one wins)."""
        out: dict[str, str] = {}
        for args in self.all("ENV"):
            words = shlex.split(args)
            if words and "=" not in words[0]:  # the old form: ENV NAME value with spaces
                out[words[0]] = args.split(None, 1)[1] if len(words) > 1 else ""
                continue
            for word in words:
                name, _, value = word.partition("=")
                out[name] = value
        return out

    def healthcheck(self) -> tuple[dict[str, str], list[str]] | None:
        """The stage's ``HEALTHCHECK``: (its options, its command in the JSON form)."""
        args = self.last("HEALTHCHECK")
        if args is None:
            return None
        options, _, command = args.partition("CMD")
        opts = dict(o.lstrip("-").split("=", 1) for o in options.split())
        return opts, json.loads(command)

    def runs(self) -> list[list[str]]:
        """Each ``RUN``'s shell commands (split on ``&&``), each as words."""
        return [shlex.split(part) for args in self.all("RUN") for part in args.split("&&")]


def dockerfile(text: str | None = None) -> list[Stage]:
    """The stages of the Dockerfile (``text``, default the repository's)."""
    text = (ROOT / "Dockerfile").read_text() if text is None else text
    logical: list[str] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue  # (a comment inside a continued instruction is dropped too)
        if line.endswith("\\"):
            pending += line[:-1].strip() + " "
            continue
        logical.append(pending + line)
        pending = ""
    assert not pending, "the Dockerfile ends inside a continued line"
    stages: list[Stage] = []
    for line in logical:
        name, _, args = line.partition(" ")
        name, args = name.upper(), args.strip()
        if name == "FROM":
            words = args.split()
            alias = words[2] if len(words) == 3 and words[1].upper() == "AS" else None
            stages.append(Stage(words[0], alias))
        else:
            assert stages, f"{name} before any FROM"
            stages[-1].instructions.append((name, args))
    return stages


def copy_of(args: str) -> tuple[str | None, list[str], str]:
    """A ``COPY``'s arguments read: (the stage copied from, None for the build context;
    the sources; the destination)."""
    words = args.split()
    source_stage = None
    while words[0].startswith("--"):
        flag = words.pop(0)
        if flag.startswith("--from="):
            source_stage = flag.split("=", 1)[1]
    return source_stage, words[:-1], words[-1]


def copies(stage: Stage) -> list[tuple[str | None, list[str], str]]:
    """The stage's ``COPY``s (``copy_of``)."""
    return [copy_of(args) for args in stage.all("COPY")]


_VAR = re.compile(
    r"\$(?:(?P<dollar>\$)|\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?+])(?P<arg>[^}]*))?\}"
    r"|(?P<bare>[A-Za-z_][A-Za-z0-9_]*))"
)


def interpolate(value, env: dict[str, str]):
    """``value`` (a string, or a list or mapping of them, as YAML gives docker-compose.yml)
    with Compose's interpolation from ``env``: ``${VAR}``, ``${VAR:-default}`` (unset or
    empty), ``${VAR-default}`` (unset), ``${VAR:?err}``, ``${VAR?err}``, ``${VAR:+alt}``,
    ``${VAR+alt}``, ``$VAR``, and ``$$`` for a dollar.

    >>> interpolate(["${A:-a}", "${B-b}", "${C:-c}", "$$A", "x${A:+set}"], {"A": "", "C": "3"})
    ['a', 'b', '3', '$A', 'x']
    """
    if isinstance(value, dict):
        return {k: interpolate(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v, env) for v in value]
    if not isinstance(value, str):
        return value

    def sub(m: re.Match) -> str:
        if m["dollar"]:
            return "$"
        name = m["name"] or m["bare"]
        op, arg, got = m["op"], m["arg"] or "", env.get(name)
        if op is None:
            return got or ""
        if op in (":?", "?") and (got is None or (op == ":?" and got == "")):
            raise ValueError(f"{name}: {arg or 'required'}")
        if op == ":-":
            return got if got else arg
        if op == "-":
            return got if got is not None else arg
        if op == ":+":
            return arg if got else ""
        if op == "+":
            return arg if got is not None else ""
        return got or ""

    return _VAR.sub(sub, value)


def compose(env: dict[str, str] | None = None) -> dict:
    """docker-compose.yml as Compose reads it, its variables taken from ``env`` (default:
    none set, so every default of the file applies)."""
    return interpolate(yaml.safe_load((ROOT / "docker-compose.yml").read_text()), env or {})


def image_services(spec: dict) -> dict[str, dict]:
    """The services of ``spec`` that run the repository's image (built here, or the image
    a service builds) and start by default (no profile)."""
    built = {s.get("image") for s in spec["services"].values() if "build" in s}
    return {name: s for name, s in spec["services"].items()
            if ("build" in s or s.get("image") in built) and not s.get("profiles")}  # fmt: skip
