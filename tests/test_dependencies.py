"""The dependency ranges, the lock file and the lowest versions agree: pyproject.toml's lower
bounds are requirements-lowest.txt, and every locked version is inside its range."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def _pins(path: Path) -> dict[str, Version]:
    out = {}
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            out[canonicalize_name(name)] = Version(version)
    return out


def _requirements(*, test: bool = True) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = [Requirement(r) for r in project["dependencies"]]
    extra = project["optional-dependencies"]["test"] if test else []
    return reqs + [Requirement(r) for r in extra]


def test_the_lowest_versions_are_the_ranges_lower_bounds() -> None:
    lowest = _pins(ROOT / "requirements-lowest.txt")
    runtime = _requirements(test=False)
    assert {canonicalize_name(r.name) for r in runtime} == set(lowest)
    for req in runtime:
        bounds = [Version(s.version) for s in req.specifier if s.operator == ">="]
        assert bounds == [lowest[canonicalize_name(req.name)]], req


def test_every_locked_version_is_in_its_range() -> None:
    locked = _pins(ROOT / "requirements.lock")
    for req in _requirements():
        version = locked[canonicalize_name(req.name)]
        assert req.specifier.contains(version), (req, version)
