"""The workspace: one project file naming a team's scenarios, personas, suites and domains.

``supportsim.yaml`` in the working directory (optional: without it the defaults are today's
layout, ``scenarios/``, ``personas/`` and the built-in domains)::

    scenarios: [scenarios]            # files or folders
    personas: personas
    suites: scenarios/suites.yaml     # default: suites.yaml in the first scenarios folder
    domains:                          # beside the built-in ones
      - domains/banking               # a folder with domain.yaml (the data form)
      - python:myteam.support:domain  # a Domain, or a function returning one
    categories: [fraud, onboarding]   # beside the eight default categories

Paths are relative to the file. :func:`load_inputs` builds domains, personas and scenarios
once, the same way for every command (``validate``, ``run``, ``rescore``, ``judge``...).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from supportsim import scoring
from supportsim._yaml import read_model
from supportsim.domains import (
    Domain,
    DomainCatalogue,
    add_domains,
    builtin_domains,
    resolve_domain_spec,
)
from supportsim.scenario import (
    CATEGORIES,
    Category,
    Persona,
    Scenario,
    load_personas,
    load_scenarios,
)
from supportsim.scoring import check_scorers

WORKSPACE_FILE = "supportsim.yaml"


class WorkspaceFile(BaseModel):
    """``supportsim.yaml``."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    scenarios: list[str] = ["scenarios"]
    """Scenario files or folders."""
    personas: str = "personas"
    """Folder of persona files."""
    suites: str | None = None
    """The suites file (default: ``suites.yaml`` in the first scenarios folder)."""
    domains: list[str] = []
    """Domain folders (with ``domain.yaml``) or ``python:package.module:attr`` specs."""
    categories: list[Category] = []
    """Categories beside the eight defaults."""


@dataclass(frozen=True)
class Workspace:
    """Where a project's inputs are; paths absolute or relative to the working directory."""

    scenarios: tuple[Path, ...] = (Path("scenarios"),)
    personas: Path = Path("personas")
    suites: Path | None = None
    domains: tuple[str, ...] = ()
    """Domain specs, folders made absolute (as a run stores them)."""
    categories: tuple[str, ...] = CATEGORIES
    file: Path | None = None
    """The workspace file, or None for the defaults."""

    @property
    def extra_categories(self) -> tuple[str, ...]:
        """The categories this workspace declares beside the defaults."""
        return tuple(c for c in self.categories if c not in CATEGORIES)

    def with_categories(self, more: Sequence[str]) -> Workspace:
        """This workspace with ``more`` categories (a stored run's) accepted too."""
        return replace(self, categories=tuple(dict.fromkeys([*self.categories, *more])))

    @property
    def suites_file(self) -> Path:
        if self.suites is not None:
            return self.suites
        first = self.scenarios[0] if self.scenarios else Path("scenarios")
        return (first if first.suffix == "" else first.parent) / "suites.yaml"


def find_workspace(cwd: Path | None = None) -> Workspace:
    """The workspace of ``cwd`` (default: the working directory): its file, or defaults."""
    path = (cwd or Path.cwd()) / WORKSPACE_FILE
    return read_workspace(path) if path.is_file() else Workspace()


def read_workspace(path: Path) -> Workspace:
    """Read a workspace file.

    Raises:
        ScenarioError: every problem, naming the file, line and field.
    """
    spec = read_model(path, WorkspaceFile)
    base = path.parent
    here = Path.cwd()

    def near(p: str) -> Path:
        full = (base / p).resolve()
        return full.relative_to(here) if full.is_relative_to(here) else full

    return Workspace(
        scenarios=tuple(near(p) for p in spec.scenarios),
        personas=near(spec.personas),
        suites=near(spec.suites) if spec.suites else None,
        domains=tuple(resolve_domain_spec(s, base) for s in spec.domains),
        categories=tuple(dict.fromkeys([*CATEGORIES, *spec.categories])),
        file=path,
    )


def workspace_domains(
    workspace: Workspace,
    extra: Sequence[str] = (),
    *,
    extra_source: str = "run config",
    scenario_paths: Sequence[Path] = (),
) -> dict[str, Domain]:
    """The built-in domains (``tau2_retail`` too when ``scenario_paths`` carry imported tau2
    data), the workspace's and ``extra`` (a run config's ``domains``).

    Raises:
        ScenarioError: a spec that names no domain, or two domains of one name.
    """
    source = str(workspace.file or WORKSPACE_FILE)
    found = add_domains(
        builtin_domains(scenario_paths),
        workspace.domains,
        base=Path.cwd(),
        source=source,
        field="domains",
    )
    return add_domains(found, extra, base=Path.cwd(), source=extra_source, field="domains")


@dataclass
class Inputs:
    """Everything a command needs, loaded and cross-checked once."""

    workspace: Workspace
    domains: dict[str, Domain]
    personas: dict[str, Persona]
    scenarios: list[Scenario] = field(default_factory=list)

    @property
    def catalogue(self) -> DomainCatalogue:
        return DomainCatalogue(self.domains, scoring.CONCEPTS, self.workspace.categories)


def load_inputs(
    workspace: Workspace,
    *,
    scenarios: Sequence[Path] | None = None,
    personas: Path | None = None,
    domains: Sequence[str] = (),
    scorers: bool = True,
) -> Inputs:
    """Domains, personas and scenarios, fully validated (bad input: InputError, exit 2).

    Args:
        scenarios / personas: override the workspace's (a command's arguments).
        domains: more domain specs (a run config's ``domains``).
        scorers: also load every scenario's plug-in scorers (they must import).
    """
    paths = list(scenarios or workspace.scenarios)
    found = workspace_domains(workspace, domains, scenario_paths=paths)
    persona_set = load_personas([personas or workspace.personas])
    inputs = Inputs(workspace, found, persona_set)
    inputs.scenarios = load_scenarios(paths, catalogue=inputs.catalogue, personas=persona_set)
    if scorers:
        check_scorers(inputs.scenarios, found)
    return inputs


def domains_of_run(config: Mapping[str, Any]) -> dict[str, Domain]:
    """The domains a stored run used: the built-in ones and its config's ``domains``
    (stored absolute, the workspace's included), so ``rescore`` and ``judge`` rebuild them.

    Raises:
        ScenarioError: a stored domain that no longer loads, naming it.
    """
    specs = config.get("domains") or []
    scenarios = [str(p) for p in config.get("scenarios") or ()]
    return add_domains(
        builtin_domains(scenarios),
        [str(s) for s in specs],
        base=Path.cwd(),
        source="the run's run.json",
        field="config.domains",
    )


def catalogue_of_run(config: Mapping[str, Any], domains: Mapping[str, Domain]) -> DomainCatalogue:
    """What a stored run's scenarios are checked against when loaded again (``rescore``,
    ``judge``): its domains, and the categories of this workspace and of the run."""
    stored = [str(c) for c in config.get("categories") or ()]
    categories = find_workspace().with_categories(stored).categories
    return DomainCatalogue(domains, scoring.CONCEPTS, categories)
