"""requirements.lock: the server's runtime install (pyproject.toml's dependencies, no
extra), every package pinned with its hashes, as ``pip install --require-hashes -r
requirements.lock`` takes it. It is current when uv, given the lock's own pins as
preferences, makes the same file of pyproject.toml (the slow test below, on PyPI); the
fast tests check what can be checked without the network: every runtime dependency is
pinned at a version its range allows, with hashes, and no extra's package is in it.
tests/e2e/test_server_package.py installs it in a clean virtualenv and serves from it.

requirements-image.lock is the Docker image's: the same runtime with the ``[s3]`` and
``[otel]`` extras (boto3 moves one pin of the runtime's, python-dateutil, below 3), checked
the same ways; tests/e2e/test_compose_processes.py installs it as the Dockerfile does."""

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements.lock"
# how the lock is made (its header says it too)
COMPILE = ["uv", "pip", "compile", "pyproject.toml", "--universal", "--python-version", "3.11",
           "--generate-hashes", "-o", "requirements.lock"]  # fmt: skip
IMAGE_LOCK = ROOT / "requirements-image.lock"
IMAGE_EXTRAS = ("s3", "otel")
IMAGE_COMPILE = [*COMPILE[:-2], *(w for e in IMAGE_EXTRAS for w in ("--extra", e)), "-o",
                 IMAGE_LOCK.name]  # fmt: skip
PIN = re.compile(r"^(?P<name>[A-Za-z0-9._-]+)==(?P<version>\S+)(?: ; (?P<marker>[^\\]+?))? \\$")


def pins(text: str) -> dict[str, tuple[Version, list[str]]]:
    """name -> (pinned version, its hashes), read from a lock made by ``COMPILE``."""
    out: dict[str, tuple[Version, list[str]]] = {}
    name = None
    for line in text.splitlines():
        if m := PIN.match(line):
            name = canonicalize_name(m["name"])
            assert name not in out, f"{name} pinned twice"
            out[name] = (Version(m["version"]), [])
        elif line.strip().startswith("--hash=sha256:"):
            assert name is not None, line
            out[name][1].append(line.strip().removeprefix("--hash=sha256:").rstrip(" \\"))
        elif line.strip() and not line.lstrip().startswith("#"):
            raise AssertionError(f"a line the lock should not have: {line!r}")
    return out


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_the_lock_says_how_it_is_made():
    assert LOCK.read_text().splitlines()[1].lstrip("#").strip() == " ".join(COMPILE)


def test_every_runtime_dependency_is_pinned_within_its_range_with_hashes():
    locked = pins(LOCK.read_text())
    for line in project()["dependencies"]:
        req = Requirement(line)
        name = canonicalize_name(req.name)
        assert name in locked, f"{req} is not in requirements.lock: make it again ({COMPILE})"
        version, hashes = locked[name]
        assert req.specifier.contains(version, prereleases=True), (
            f"requirements.lock pins {name}=={version}, outside {req}: make it again"
        )
    for name, (_version, hashes) in locked.items():
        assert hashes and all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes), name


def test_no_package_of_an_extra_is_in_the_lock():
    """The server's install is lean: what only an extra brings is not in it."""
    locked = pins(LOCK.read_text())
    only_extras = set()
    for name, lines in project()["optional-dependencies"].items():
        if name != "test":
            only_extras |= {canonicalize_name(Requirement(x).name) for x in lines}
    assert only_extras and not only_extras & set(locked), only_extras & set(locked)
    assert "lupa" not in locked and "botocore" not in locked


def test_the_pin_reader_refuses_what_a_lock_is_not():
    assert pins("a==1 \\\n    --hash=sha256:" + "0" * 64 + "\n")["a"][0] == Version("1")
    with pytest.raises(AssertionError):
        pins("a>=1\n")
    with pytest.raises(AssertionError):
        pins("a==1 \\\n    --hash=sha256:0\na==2 \\\n")


def test_the_image_lock_pins_the_runtime_and_the_images_extras_with_hashes():
    assert IMAGE_LOCK.read_text().splitlines()[1].lstrip("#").strip() == " ".join(IMAGE_COMPILE)
    image = pins(IMAGE_LOCK.read_text())
    runtime = pins(LOCK.read_text())
    # the runtime's own pins, but python-dateutil below 3 for boto3 (and tzdata, which
    # only dateutil 4 needs, left out)
    assert set(runtime) - set(image) <= {"tzdata"}, set(runtime) - set(image)
    moved = {n for n in set(runtime) & set(image) if runtime[n][0] != image[n][0]}
    assert moved <= {"python-dateutil"}, moved
    extras = project()["optional-dependencies"]
    for line in [*project()["dependencies"], *(x for e in IMAGE_EXTRAS for x in extras[e])]:
        req = Requirement(line)
        name = canonicalize_name(req.name)
        assert name in image, f"{req} is not in {IMAGE_LOCK.name}: make it again ({IMAGE_COMPILE})"
        assert req.specifier.contains(image[name][0], prereleases=True), (name, image[name][0])
    for name, (_version, hashes) in image.items():
        assert hashes and all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes), name
    # what only the test tools, the bot's client or `spitlog dev` use is not in the image
    assert not {"fakeredis", "lupa", "httpx", "pytest"} & set(image)


@pytest.mark.slow
@pytest.mark.parametrize("lock, command", [(LOCK, COMPILE), (IMAGE_LOCK, IMAGE_COMPILE)],
                         ids=["runtime", "image"])  # fmt: skip
def test_the_lock_is_what_uv_makes_of_pyproject_now(tmp_path, lock, command):
    """uv resolves pyproject.toml again from PyPI, preferring the lock's pins (as it does
    when the output file exists): the same file, else the lock is stale (a dependency
    added, removed or moved out of the pinned version's range)."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copy(lock, tmp_path / lock.name)
    r = subprocess.run([sys.executable, "-m", *command, "--quiet", "--custom-compile-command",
                        " ".join(command)], cwd=tmp_path, capture_output=True, text=True,
                       timeout=600)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert (tmp_path / lock.name).read_text() == lock.read_text(), (
        f"{lock.name} is not current: run `{' '.join(command)}`"
    )
