"""What a scenario set covers: domains x categories, personas, languages, tools, faults.

``supportsim validate --coverage`` prints it, so a library's gaps (a tool no scenario
exercises, a category with two cases) are visible before anyone runs a model.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from supportsim.scenario._load import Catalogue
from supportsim.scenario._models import CATEGORIES, Scenario


@dataclass(slots=True)
class Coverage:
    scenarios: int = 0
    by_domain_category: Counter[tuple[str, str]] = field(default_factory=Counter)
    by_domain: Counter[str] = field(default_factory=Counter)
    by_category: Counter[str] = field(default_factory=Counter)
    by_primary: Counter[str] = field(default_factory=Counter)
    """Scenarios per primary category (their first tag)."""
    personas: Counter[str] = field(default_factory=Counter)
    languages: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    faults: Counter[str] = field(default_factory=Counter)
    tools_used: dict[str, Counter[str]] = field(default_factory=dict)
    tools_unused: dict[str, list[str]] = field(default_factory=dict)
    required_steps_mean: float = 0.0
    personas_unused: list[str] = field(default_factory=list)


def coverage(
    scenarios: Sequence[Scenario], catalogue: Catalogue, personas: Collection[str] = ()
) -> Coverage:
    """Count what ``scenarios`` exercise; tools count when any workflow step calls them."""
    cov = Coverage(scenarios=len(scenarios))
    steps = 0
    for s in scenarios:
        cov.by_domain[s.domain] += 1
        cov.personas[s.persona] += 1
        cov.languages[s.language] += 1
        cov.outcomes[s.outcome] += 1
        cov.by_primary[s.category] += 1
        for tag in s.tags:
            cov.by_domain_category[(s.domain, tag)] += 1
            cov.by_category[tag] += 1
        for fault in s.faults:
            cov.faults[fault.fault] += 1
        used = cov.tools_used.setdefault(s.domain, Counter())
        for step in s.workflow:
            steps += not step.optional
            for path in step.paths():
                for spec in path:
                    used[spec.tool] += 1
    domains: Mapping[str, Collection[str]] = {
        d: catalogue.tool_args(d).keys() for d in sorted(cov.by_domain)
    }
    for domain, tools in domains.items():
        cov.tools_unused[domain] = sorted(set(tools) - set(cov.tools_used.get(domain, {})))
    cov.required_steps_mean = steps / len(scenarios) if scenarios else 0.0
    cov.personas_unused = sorted(set(personas) - set(cov.personas))
    for category in CATEGORIES:
        cov.by_category.setdefault(category, 0)
    return cov
