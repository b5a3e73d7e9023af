"""Finding the tau2 data an imported scenario folder carries, so ``tau2_retail`` can be built.

``supportsim import tau2`` writes the scenarios and, beside them, a ``tau2_data/`` folder
holding the retail ``db.json`` and ``policy.md`` (and tau2's LICENSE): a run never needs
the user's tau2-bench clone. ``tau2_retail`` is not a built-in (it needs that data), so
``builtin_domains(scenario_paths)`` adds it when a scenario path is, or contains, such a
folder's parent: ``domains/_data_domains.py`` registers ``retail_domain_for`` under the folder
name and imports this package only when such a folder is there. Two imports with different
data in one run are refused: one domain name cannot stand for two databases.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from supportsim.errors import Problem, ScenarioError

if TYPE_CHECKING:
    from supportsim.tau2.retail import Tau2Domain

DATA_DIRNAME = "tau2_data"
"""The folder, beside imported scenarios, holding the tau2 data the domain is built from."""


def tau2_data_dir(paths: Iterable[str | os.PathLike[str]]) -> Path | None:
    """The one ``tau2_data`` folder of these scenario paths (files or folders), or None.

    Raises:
        ScenarioError: two folders hold different ``db.json`` or ``policy.md`` files.
    """
    found: dict[Path, str] = {}
    for path in map(Path, paths):
        base = path if path.is_dir() else path.parent
        candidates = [base / DATA_DIRNAME]
        if path.is_dir():
            candidates += sorted(base.rglob(DATA_DIRNAME))
        for folder in candidates:
            if (folder / "db.json").is_file() and folder.resolve() not in found:
                found[folder.resolve()] = _fingerprint(folder)
    if len(set(found.values())) > 1:
        first, *others = found
        raise ScenarioError(
            [
                Problem(
                    str(other),
                    "",
                    f"tau2 data differs from {first}: scenarios of one run must share one "
                    "tau2 database (import them into one folder)",
                )
                for other in others
                if found[other] != found[first]
            ]
        )
    return next(iter(found), None)


def _fingerprint(folder: Path) -> str:
    digest = hashlib.sha256()
    for name in ("db.json", "policy.md"):
        file = folder / name
        digest.update(file.read_bytes() if file.is_file() else b"")
    return digest.hexdigest()


def retail_domain_for(paths: Iterable[str | os.PathLike[str]]) -> Tau2Domain | None:
    """The ``tau2_retail`` domain over the one ``tau2_data`` folder of ``paths``, or None
    (the data-domain factory ``domains/_data_domains.py`` registers).

    Raises:
        ScenarioError: the data is unreadable, or two folders' data differ.
    """
    data = tau2_data_dir(paths)
    if data is None:
        return None
    from supportsim.tau2.retail import domain  # builds tau2's 16 tool models at import

    return domain(data)


__all__ = ["DATA_DIRNAME", "retail_domain_for", "tau2_data_dir"]
