"""Domains a plug-in benchmark builds from data an import put beside its scenarios.

A benchmark's importer (``supportsim import tau2``) writes, beside the scenarios, a folder
holding the data its domain is built from (``tau2_data/``). ``register_data_domain`` names
that folder and the factory that builds the domain from the run's scenario paths, as
``"module:attribute"``: the module is imported only when a scenario path is, or contains,
such a folder's parent, so a run without one never imports the benchmark's package. The
factory is looked up on every call, so tests may replace it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from supportsim._imports import import_target
from supportsim.domains._base import Domain

DataDomainFactory = Callable[[Sequence[Path]], Domain | None]
"""Builds the domain from the scenario paths (None: the folder holds no usable data);
raises ``ScenarioError`` naming the file when the data is unreadable."""


@dataclass(frozen=True, slots=True)
class DataDomainPlugin:
    """A registered data domain: ``dirname`` is the folder beside imported scenarios,
    ``target`` the ``"module:attribute"`` of its ``DataDomainFactory``."""

    dirname: str
    target: str

    def present(self, paths: Sequence[Path]) -> bool:
        """Whether a folder named ``dirname`` is beside or below one of ``paths`` (cheap:
        no import of the plug-in)."""
        for path in paths:
            base = path if path.is_dir() else path.parent
            if (base / self.dirname).is_dir():
                return True
            if path.is_dir() and next(base.rglob(self.dirname), None) is not None:
                return True
        return False

    def build(self, paths: Sequence[Path]) -> Domain | None:
        factory: DataDomainFactory = import_target(self.target)
        return factory(paths)


_PLUGINS: dict[str, DataDomainPlugin] = {}


def register_data_domain(name: str, dirname: str, target: str) -> None:
    """Register benchmark ``name``'s data domain (a later registration replaces one)."""
    _PLUGINS[name] = DataDomainPlugin(dirname, target)


# The one built-in plug-in: tau2-bench's retail domain, from the data its importer writes.
register_data_domain("tau2", "tau2_data", "supportsim.tau2:retail_domain_for")


def plugged_domains(scenario_paths: Iterable[str | os.PathLike[str]]) -> list[Domain]:
    """The data domains the scenario paths carry the data of, in registration order.

    Raises:
        ScenarioError: a plug-in's data is unreadable (or, tau2: two imports' data differ).
    """
    paths = [Path(p) for p in scenario_paths]
    found = []
    for plugin in _PLUGINS.values():
        if plugin.present(paths) and (built := plugin.build(paths)) is not None:
            found.append(built)
    return found


__all__ = ["DataDomainFactory", "DataDomainPlugin", "plugged_domains", "register_data_domain"]
