"""Every package of supportsim declares its public names, and each of them exists."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src" / "supportsim"


def packages() -> list[str]:
    """Every package (a folder with ``__init__.py``) under src/supportsim, dotted."""
    found = []
    for init in sorted(SRC.rglob("__init__.py")):
        parts = init.parent.relative_to(SRC.parent).parts
        if "__pycache__" not in parts:
            found.append(".".join(parts))
    return found


def test_the_walk_finds_the_known_packages() -> None:
    names = packages()
    for expected in ("supportsim", "supportsim.scenario", "supportsim.scoring"):
        assert expected in names


@pytest.mark.parametrize("name", packages())
def test_package_declares_all_and_every_name_resolves(name: str) -> None:
    module = importlib.import_module(name)
    exported = getattr(module, "__all__", None)
    assert exported is not None, f"{name} has no __all__"
    assert isinstance(exported, list | tuple), f"{name}.__all__ is a {type(exported).__name__}"
    assert all(isinstance(n, str) for n in exported)
    assert len(set(exported)) == len(exported), f"{name}.__all__ lists a name twice"
    missing = [n for n in exported if not hasattr(module, n)]
    assert missing == [], f"{name}.__all__ names what it does not define: {missing}"
