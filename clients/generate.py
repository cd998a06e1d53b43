"""Regenerate the clients from openapi.yaml: ``python clients/generate.py``.

- ``clients/python/spitlog_client``: openapi-python-client (the version pyproject.toml's
  ``test`` extra pins), with ``clients/python/openapi-python-client.yaml``; its post-hooks
  run ruff with ``clients/python/pyproject.toml``'s settings.
- ``clients/typescript/src/schema.d.ts``: openapi-typescript (the version
  ``clients/typescript/package-lock.json`` pins; ``npm ci --prefix clients/typescript``).

Everything else under ``clients/`` is written by hand and left alone.
tests/service/test_clients.py generates both into a temporary folder and fails on any
difference from the files checked in.
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CLIENTS = Path(__file__).resolve().parent
ROOT = CLIENTS.parent
SPEC = ROOT / "openapi.yaml"
PYTHON_SETTINGS = ("pyproject.toml", "openapi-python-client.yaml")


def python_client(out: Path) -> Path:
    """Generate the Python package into ``out`` (a folder with copies of the settings
    beside it, so that the post-hooks format as in place): the package's folder."""
    for name in PYTHON_SETTINGS:
        shutil.copy(CLIENTS / "python" / name, out / name)
    bin_dir = Path(sys.executable).parent  # the generator, and the ruff its post-hooks run
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    subprocess.run(
        [str(bin_dir / "openapi-python-client"), "generate", "--path", str(SPEC), "--meta",
         "none", "--config", "openapi-python-client.yaml", "--output-path", "spitlog_client"],
        cwd=out, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return out / "spitlog_client"


def typescript_types(out: Path) -> Path:
    """Generate the TypeScript types into ``out``: the file."""
    target = out / "schema.d.ts"
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
        shutil.copy(typescript_types(Path(tmp)), CLIENTS / "typescript" / "src" / "schema.d.ts")
    print("regenerated clients/python/spitlog_client and clients/typescript/src/schema.d.ts")


if __name__ == "__main__":
    main()
