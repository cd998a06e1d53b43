"""Regenerate the clients from openapi.yaml: ``python clients/generate.py``.

- ``clients/python/spitlog_client``: openapi-python-client (the version pyproject.toml's
  ``test`` extra pins), with ``clients/python/openapi-python-client.yaml``; its post-hooks
  run ruff with ``clients/python/pyproject.toml``'s settings. It is given the spec as
  ``generator_spec`` rewrites it (two readings the generator lacks), and this script adds
  ``py.typed`` and ``unions.py`` (the spec's discriminated unions, by name) beside its
  output.
- ``clients/typescript/src/schema.ts``: openapi-typescript (the version
  ``clients/typescript/package-lock.json`` pins; ``npm ci --prefix clients/typescript``).
  A ``.ts`` file of types only, so that ``tsc`` emits its declarations into the package.

Everything else under ``clients/`` is written by hand and left alone.
tests/service/test_clients.py generates both into a temporary folder and fails on any
difference from the files checked in.
"""

import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

CLIENTS = Path(__file__).resolve().parent
ROOT = CLIENTS.parent
SPEC = ROOT / "openapi.yaml"
PYTHON_SETTINGS = ("pyproject.toml", "openapi-python-client.yaml")
REF = "#/components/schemas/"


def generator_spec(spec: dict) -> dict:
    """The spec as openapi-python-client is given it, two readings spelled out for it:

    - an operation that may be called without credentials (``{}`` among its ``security``)
      lists none, so that its function takes a ``Client`` as well as an
      ``AuthenticatedClient`` (the generator asks for the latter whenever any is listed);
    - the discriminator of each member of a discriminated union (an action's, an event's
      ``type``, a view's ``game``) has its one value as its default, so that
      ``SpeedPlayAction(card="3H", to=0)`` needs no ``type_="play"``.
    """
    spec = copy.deepcopy(spec)
    for item in spec.get("paths", {}).values():
        for op in item.values():
            if isinstance(op, dict) and {} in op.get("security", []):
                del op["security"]
    schemas = spec["components"]["schemas"]
    for union in schemas.values():
        key = union.get("discriminator", {}).get("propertyName")
        for member in union.get("oneOf", []) if key else []:
            prop = schemas[member["$ref"].removeprefix(REF)]["properties"][key]
            if "const" in prop:
                prop["default"] = prop["const"]
    return spec


def unions_module(spec: dict) -> str:
    """``spitlog_client/unions.py``: each discriminated union of the spec as a type alias
    of its members' classes, and a map from the discriminator's value to the class."""
    schemas = spec["components"]["schemas"]
    unions = {n: s for n, s in schemas.items() if "propertyName" in s.get("discriminator", {})}
    members = sorted({m["$ref"].removeprefix(REF) for s in unions.values() for m in s["oneOf"]})
    lines = [
        '"""The spec\'s discriminated unions, made by clients/generate.py from openapi.yaml:',
        "each as a type alias of its members' classes, and as a map from the discriminator's",
        'value to the class (``EVENT_TYPES["card_played"]`` is ``CardPlayedEvent``)."""',
        "",
        "from typing import TypeAlias",
        "",
        f"from .models import {', '.join(members)}",
        "",
    ]
    for name, union in unions.items():
        classes = [m["$ref"].removeprefix(REF) for m in union["oneOf"]]
        lines += ["", f"{name}: TypeAlias = {' | '.join(classes)}"]
    tables = []
    for name, union in unions.items():
        key = union["discriminator"]["propertyName"]  # type -> _TYPES, game -> _GAMES
        tables.append(f"{upper_snake(name)}_{key.upper()}S")
        entries = ", ".join(f"{v!r}: {r.removeprefix(REF)}"
                            for v, r in union["discriminator"]["mapping"].items())  # fmt: skip
        lines += ["", f"{tables[-1]}: dict[str, type[{name}]] = {{{entries}}}"]
    lines += ["", f"__all__ = {sorted([*unions, *tables])!r}", ""]
    return "\n".join(lines)


def upper_snake(name: str) -> str:
    """``SpitAction`` -> ``SPIT_ACTION``."""
    return "".join(f"_{c}" if c.isupper() and i else c for i, c in enumerate(name)).upper()


def python_client(out: Path) -> Path:
    """Generate the Python package into ``out`` (a folder with copies of the settings
    beside it, so that the post-hooks format as in place): the package's folder."""
    for name in PYTHON_SETTINGS:
        shutil.copy(CLIENTS / "python" / name, out / name)
    spec = yaml.safe_load(SPEC.read_text())
    (out / "openapi.json").write_text(json.dumps(generator_spec(spec)))
    bin_dir = Path(sys.executable).parent  # the generator, and the ruff its post-hooks run
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    subprocess.run(
        [str(bin_dir / "openapi-python-client"), "generate", "--path", "openapi.json", "--meta",
         "none", "--config", "openapi-python-client.yaml", "--output-path", "spitlog_client"],
        cwd=out, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    package = out / "spitlog_client"
    (package / "py.typed").write_text("# Marker file for PEP 561")
    (package / "unions.py").write_text(unions_module(spec))
    for hook in (["check", "--fix-only", "--quiet"], ["format", "--quiet"]):
        subprocess.run([str(bin_dir / "ruff"), *hook, "spitlog_client/unions.py"], cwd=out,
                       env=env, check=True, capture_output=True, text=True)  # fmt: skip
    return package


def typescript_types(out: Path) -> Path:
    """Generate the TypeScript types into ``out``: the file."""
    target = out / "schema.ts"
    generator = CLIENTS / "typescript" / "node_modules" / ".bin" / "openapi-typescript"
    if not generator.exists():
        raise FileNotFoundError(f"{generator}: run npm ci --prefix clients/typescript")
    subprocess.run([str(generator), str(SPEC), "--output", str(target)], check=True,
                   capture_output=True, text=True)  # fmt: skip
    return target


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        package = python_client(Path(tmp))
        shutil.rmtree(CLIENTS / "python" / "spitlog_client", ignore_errors=True)
        shutil.copytree(package, CLIENTS / "python" / "spitlog_client")
        shutil.copy(typescript_types(Path(tmp)), CLIENTS / "typescript" / "src" / "schema.ts")
    print("regenerated clients/python/spitlog_client and clients/typescript/src/schema.ts")


if __name__ == "__main__":
    main()
