"""Suites: named selections of scenarios (``scenarios/suites.yaml``), e.g. smoke, nightly.

```yaml
smoke:
  description: ten quick cases, one or two per category
  ids: [telecom-duplicate-monthly-fee, retail_where_is_my_order]
nightly:
  description: everything
  all: true
identity:
  tags: [identity]
```
A scenario is in a suite when ``all`` is set, or its id is listed, or it has a listed tag.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, RootModel, ValidationError

from supportsim._yaml import format_loc, read_yaml
from supportsim.errors import InputError, Problem, ScenarioError
from supportsim.scenario._bundled import resolve_data_path
from supportsim.scenario._models import Category, Scenario

SUITES_FILE = "suites.yaml"


class Suite(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    description: str = ""
    all: bool = False
    """Every scenario."""
    ids: list[str] = []
    """Scenario ids in the suite."""
    tags: list[Category] = []
    """Scenarios with any of these categories are in the suite."""

    def contains(self, scenario: Scenario) -> bool:
        return self.all or scenario.id in self.ids or bool(set(self.tags) & set(scenario.tags))


class _SuitesFile(RootModel[dict[str, Suite]]):
    pass


def load_suites(path: Path) -> dict[str, Suite]:
    """Read a suites file; problems name the file, suite and field (ScenarioError)."""
    doc, problems = read_yaml(path)
    if doc is None or problems:
        raise ScenarioError(problems)
    try:
        return _SuitesFile.model_validate(doc.data or {}).root
    except ValidationError as exc:
        raise ScenarioError(
            [
                doc.problem(
                    tuple(e["loc"]), "unknown field" if e["type"] == "extra_forbidden" else e["msg"]
                )
                for e in exc.errors(include_url=False)
            ]
        ) from None


def find_suites_file(scenario_paths: Iterable[str | Path]) -> Path | None:
    """The first ``suites.yaml`` in the scenario folders, each resolved as the loader
    resolves it (no local ``./scenarios``: the bundled one); None when there is none."""
    for given in scenario_paths:
        candidate = resolve_data_path(Path(given)) / SUITES_FILE
        if candidate.is_file():
            return candidate
    return None


def select_suite(
    scenarios: Sequence[Scenario], suites: dict[str, Suite], name: str, *, source: str = ""
) -> list[Scenario]:
    """The scenarios of suite ``name``; unknown suite or ids are InputErrors."""
    if name not in suites:
        known = ", ".join(sorted(suites)) or "none defined"
        raise InputError(f"{source or SUITES_FILE}: unknown suite {name!r} (known: {known})")
    suite = suites[name]
    missing = set(suite.ids) - {s.id for s in scenarios}
    if missing:
        raise ScenarioError(
            [
                Problem(
                    source or SUITES_FILE, format_loc((name, "ids")), f"unknown scenario id {sid!r}"
                )
                for sid in sorted(missing)
            ]
        )
    return [s for s in scenarios if suite.contains(s)]
