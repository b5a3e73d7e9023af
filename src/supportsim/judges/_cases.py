"""The scenario side of a judgment: policy, expected outcome and context, per scenario.

Records keep the scenario id and file hash, not the scenario itself, so the files named in
run.json are loaded again. The domain's policy comes from the code and is always known.
A scenario that cannot be loaded, or whose file changed since the run (its hash differs),
is not used: the judge is warned off the expected outcome rather than given one the
conversation was not held under, and grades against the policy alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from supportsim.domains import Domain, builtin_domains
from supportsim.errors import InputError
from supportsim.judges._prompt import Case
from supportsim.scenario import Scenario, load_personas, load_scenarios
from supportsim.store import ConversationRecord
from supportsim.workspace import catalogue_of_run, domains_of_run


def _load(config: Mapping[str, Any], domains: Mapping[str, Domain]) -> list[Scenario]:
    personas_dir = Path(str(config.get("personas") or "personas"))
    personas = load_personas([personas_dir])
    paths = [Path(str(p)) for p in config.get("scenarios") or ()]
    return load_scenarios(paths, catalogue=catalogue_of_run(config, domains), personas=personas)


def build_cases(
    manifest: Mapping[str, Any], records: Iterable[ConversationRecord]
) -> tuple[dict[str, Case], list[str]]:
    """A Case per scenario id of ``records``, and warnings about scenarios not used."""
    warnings: list[str] = []
    try:
        domains = domains_of_run(manifest.get("config") or {})
    except InputError as exc:
        domains = builtin_domains()
        warnings.append(f"cannot load the run's domains: {exc}")
    try:
        scenarios = {s.id: s for s in _load(manifest.get("config") or {}, domains)}
    except InputError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        warnings.append(
            "cannot load the run's scenario files, so judges grade against the policy "
            f"alone, without expected outcomes ({first})"
        )
        scenarios = {}
    cases: dict[str, Case] = {}
    for record in records:
        if record.scenario_id in cases:
            continue
        domain = domains.get(record.domain)
        policy = domain.policy if domain is not None else ""
        scenario = scenarios.get(record.scenario_id)
        if (
            scenario is not None
            and record.scenario_sha256
            and (scenario.sha256 != record.scenario_sha256)
        ):
            warnings.append(
                f"scenario {record.scenario_id}: {scenario.source} changed since the run; "
                "judged against the policy alone"
            )
            scenario = None
        elif scenario is None and scenarios:
            warnings.append(f"scenario {record.scenario_id}: not found in the run's files")
        if scenario is None:
            cases[record.scenario_id] = Case(policy=policy)
        else:
            cases[record.scenario_id] = Case(
                policy=policy,
                title=scenario.title,
                outcome=scenario.outcome,
                context=dict(scenario.context),
            )
    return cases, warnings
