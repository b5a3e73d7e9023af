"""Reading a tau2 data directory's retail files: once per process, copied per conversation.

A user's clone of tau2-bench keeps the retail domain in ``data/tau2/domains/retail/``
(``db.json``, ``policy.md``, ``tasks.json``, ``split_tasks.json``). ``retail_dir`` accepts
that folder or the data root above it. ``db.json`` is 2.8 MB: validating it takes about
0.1 s, so the validated database is cached by path (and the file's size and modification
time, so an edited file is read again), and every conversation gets a copy-on-write copy
of it (about 0.2 ms) instead of a deep copy.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson
from pydantic import ValidationError

from supportsim.domains import deep_merge
from supportsim.errors import Problem, ScenarioError
from supportsim.tau2.retail._state import TABLES, Tau2RetailState

DOMAIN_SUBDIR = Path("domains") / "retail"


def retail_dir(data_dir: str | os.PathLike[str]) -> Path:
    """The folder holding retail's ``db.json``: ``data_dir`` itself or its
    ``domains/retail``.

    Raises:
        ScenarioError: neither holds a ``db.json``.
    """
    root = Path(data_dir)
    for candidate in (root, root / DOMAIN_SUBDIR):
        if (candidate / "db.json").is_file():
            return candidate
    raise ScenarioError(
        [
            Problem(
                str(root),
                "",
                "not a tau2 data directory: no db.json in it or in domains/retail/",
            )
        ]
    )


def base_db(db_path: Path) -> Tau2RetailState:
    """The validated database of ``db_path``, shared: callers must copy it
    (``model_copy(deep=True)``) before running a tool on it.

    Raises:
        ScenarioError: the file is missing, not JSON, or not tau2's retail database.
    """
    try:
        stat = db_path.stat()
    except OSError as exc:
        raise ScenarioError([Problem(str(db_path), "", f"cannot read: {exc.strerror}")]) from None
    return _load(str(db_path.resolve()), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=4)
def _load(path: str, _mtime_ns: int, _size: int) -> Tau2RetailState:
    try:
        raw = orjson.loads(Path(path).read_bytes())
    except orjson.JSONDecodeError as exc:
        raise ScenarioError([Problem(path, "", f"not valid JSON: {exc}")]) from None
    if not isinstance(raw, dict) or set(raw) != set(TABLES):
        found = sorted(raw) if isinstance(raw, dict) else type(raw).__name__
        raise ScenarioError(
            [Problem(path, "", f"expected an object with exactly {list(TABLES)}, got {found}")]
        )
    try:
        return Tau2RetailState.model_validate(raw)
    except ValidationError as exc:
        raise ScenarioError(
            [
                Problem(path, ".".join(str(p) for p in err["loc"]), err["msg"])
                for err in exc.errors(include_url=False)
            ]
        ) from None


def with_overrides(base: Tau2RetailState, overrides: Mapping[str, Any]) -> Tau2RetailState:
    """A copy of ``base`` with a scenario's ``state`` deep-merged over it, record by record
    (only the records an override names are validated again).

    Raises:
        pydantic.ValidationError: the merged records do not fit tau2's models.
    """
    state = base.model_copy(deep=True)
    if not overrides:
        return state
    partial: dict[str, Any] = {}
    for key, value in overrides.items():
        if key in TABLES and isinstance(value, Mapping):
            records = getattr(base, key)
            partial[key] = {
                rid: deep_merge(records[rid].model_dump(), rv)
                if rid in records and isinstance(rv, Mapping)
                else rv
                for rid, rv in value.items()
            }
        else:
            partial[key] = value
    patch = Tau2RetailState.model_validate(partial)
    for key in partial:
        if key in TABLES:
            for rid in partial[key]:
                state.put(key, rid, getattr(patch, key)[rid])
        else:
            setattr(state, key, getattr(patch, key))
    return state
