"""The repository as an outsider clones it: no path of one machine in any file it tracks,
and the newest version in CHANGELOG.md is the package's (its release steps are there)."""

import re
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# a home or work directory of someone's machine (the image's own user's home aside)
MACHINE_PATH = re.compile("/" + "work/|/" + "home/(?!spitlog\\b)[a-z]|/" + "Users/[A-Za-z]")
VERSION = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d\d-\d\d$", re.M)


def _tracked() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    return [ROOT / p for p in out.stdout.decode().split("\0") if p]


def test_no_file_names_a_path_of_one_machine():
    found = []
    for path in _tracked():
        if path.is_symlink() or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # not text
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if MACHINE_PATH.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_newest_version_in_the_changelog_is_the_packages():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    versions = VERSION.findall(changelog)
    assert versions, "no released version in CHANGELOG.md"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert versions[0] == project
    ordered = sorted(versions, key=lambda v: tuple(map(int, v.split("."))), reverse=True)
    assert versions == ordered, "CHANGELOG.md lists its versions newest first"
    assert "git tag -a vX.Y.Z" in changelog  # the release steps say how a release is tagged
