"""The scenarios, personas and run config shipped with supportsim, and where paths resolve.

The repository keeps ``scenarios/``, ``personas/`` and ``runs/demo.yaml`` at its top
level; the wheel carries copies under ``supportsim/_bundled/`` (pyproject's
``force-include``). One rule resolves every scenario or persona path the loaders see:

- a path that exists is used as given (a workspace's own files always win);
- a relative path starting with ``scenarios`` or ``personas`` whose top folder does not
  exist here (no ``./scenarios`` at all) is read from the bundled copy, so
  ``supportsim run --suite smoke`` works from any directory after ``pip install``;
- anything else is left as given, so the loader's error names what the user typed.

``supportsim init`` copies the bundle into a workspace to edit (``init_workspace``).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from supportsim.errors import InputError

BUNDLE = "_bundled"
"""Folder of the installed package holding the shipped data."""
DATA_DIRS = ("scenarios", "personas")
"""Top-level folders that fall back to the bundled copy."""
STARTER_CONFIG = Path("runs") / "demo.yaml"
"""The run config ``init`` copies beside the scenarios."""


def bundled_root() -> Path | None:
    """The folder holding the shipped ``scenarios/``, ``personas/`` and ``runs/``.

    An installed wheel has it inside the package; a source checkout (editable install,
    tests) has the same files at the repository's top level. None when neither is there.
    """
    packaged = resources.files("supportsim").joinpath(BUNDLE)
    if isinstance(packaged, Path) and (packaged / "scenarios").is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[3]  # src/supportsim/scenario/ -> repository
    if (checkout / "pyproject.toml").is_file() and (checkout / "scenarios").is_dir():
        return checkout
    return None


def resolve_data_path(path: Path) -> Path:
    """``path``, or its bundled counterpart when there is no local folder it could be in."""
    if path.is_absolute() or path.exists() or not path.parts:
        return path
    top = path.parts[0]
    if top not in DATA_DIRS or Path(top).exists():
        return path
    root = bundled_root()
    if root is None or not (root / path).exists():
        return path
    return root / path


def resolve_data_paths(paths: Iterable[Path]) -> list[Path]:
    """``resolve_data_path`` of each path, in order."""
    return [resolve_data_path(Path(p)) for p in paths]


def init_workspace(target: Path) -> list[Path]:
    """Copy the bundled scenarios, personas and starter run config into ``target``.

    Nothing is overwritten: every destination is checked before the first file is
    written, so a refusal leaves ``target`` as it was.

    Returns:
        The files written, relative to ``target``, sorted.

    Raises:
        InputError: No bundle (a broken install), ``target`` is a file, or a destination
            file exists (named; exit code 2).
    """
    root = bundled_root()
    if root is None:
        raise InputError("supportsim init: the bundled scenarios are missing (reinstall)")
    if target.exists() and not target.is_dir():
        raise InputError(f"{target}: exists and is not a folder")
    files = sorted(
        f.relative_to(root)
        for top in DATA_DIRS
        for f in (root / top).rglob("*")
        if f.is_file() and "__pycache__" not in f.parts
    )
    files.append(STARTER_CONFIG)
    for rel in files:
        if (target / rel).exists() or (target / rel).is_symlink():
            raise InputError(
                f"{target / rel}: already exists; supportsim init never overwrites "
                "(choose an empty folder or move the file)"
            )
    for rel in files:
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / rel, target / rel)
    return files
