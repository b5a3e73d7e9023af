"""Domains from outside the package: a folder in the data form, or a Python object.

A domain spec is either a path to a folder holding ``domain.yaml`` (relative to the file
that lists it), or ``python:package.module:attr`` naming a :class:`Domain`, or a function
returning one (called with no arguments). The same specs work in a workspace's
``supportsim.yaml`` and in a run config, so a team never edits supportsim to add one.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from supportsim._imports import import_target
from supportsim.domains._base import Domain
from supportsim.domains._folder import is_domain_folder, load_domain_folder
from supportsim.errors import Problem, ScenarioError


def resolve_domain_spec(spec: str, base: Path) -> str:
    """The spec as stored with a run: folders made absolute, ``python:`` specs unchanged."""
    if spec.startswith("python:"):
        return spec
    return str((base / spec).resolve())


def load_domain(spec: str, base: Path) -> Domain:
    """The Domain one spec names.

    Raises:
        ValueError: why the spec names no domain (the caller adds the file and field).
        ScenarioError: a data-form domain's own problems (they name its files).
    """
    if spec.startswith("python:"):
        target = spec.removeprefix("python:")
        value = import_target(target)
        attr = target.partition(":")[2]
        if callable(value) and not isinstance(value, Domain):
            try:
                value = value()
            except Exception as exc:  # a plug-in's own fault, named, not a traceback
                raise ValueError(f"{spec!r}: {attr}() failed: {type(exc).__name__}: {exc}") from exc
        if not isinstance(value, Domain):
            raise ValueError(f"{spec!r}: expected a Domain, got {type(value).__name__}")
        return value
    folder = Path(spec) if Path(spec).is_absolute() else base / spec
    if not is_domain_folder(folder):
        raise ValueError(f"{spec!r}: {folder} holds no domain.yaml")
    return load_domain_folder(folder)


def add_domains(
    builtin: dict[str, Domain], specs: Sequence[str], *, base: Path, source: str, field: str
) -> dict[str, Domain]:
    """``builtin`` plus the domains ``specs`` name; a clash of names is an error.

    Raises:
        ScenarioError: every problem, naming ``source`` and ``field.N`` (or the domain's
            own file).
    """
    out = dict(builtin)
    problems: list[Problem] = []
    for i, spec in enumerate(specs):
        try:
            domain = load_domain(spec, base)
        except ValueError as exc:
            problems.append(Problem(source, f"{field}.{i}", str(exc)))
            continue
        except ScenarioError as exc:
            problems += exc.problems
            continue
        if domain.name in out:
            problems.append(
                Problem(source, f"{field}.{i}", f"a domain named {domain.name!r} exists already")
            )
            continue
        out[domain.name] = domain
    if problems:
        raise ScenarioError(problems)
    return out
