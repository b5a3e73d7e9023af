"""LLM-assisted authoring: draft scenarios, keep only those that validate and pass the oracle.

Each draft is a whole YAML file, the structured ``submit_scenario`` answer (a forced tool
call, or JSON schema output on OpenAI-compatible servers; read leniently, see
``submitted_yaml``). It is kept only when it parses, fits the schema, its references
resolve, its id is new, and the oracle scores strict = 1 on it; kept drafts are written for
a person to review. Drafting stops at ``count`` kept drafts or ``count * candidates``
attempts, whichever comes first.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import orjson

from supportsim.authoring._prompt import SUBMIT, drafting_prompt
from supportsim.domains import Domain, DomainCatalogue
from supportsim.errors import ScenarioError
from supportsim.llm import LLMMessage, LLMRequest, LLMResponse, ModelCaller, structured_candidates
from supportsim.scenario import Category, Persona, Scenario, load_scenarios
from supportsim.scoring import CONCEPTS, oracle_run


@dataclass(frozen=True, slots=True)
class Rejected:
    attempt: int
    reasons: tuple[str, ...]


@dataclass(slots=True)
class Drafts:
    kept: list[tuple[Scenario, str]] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    attempts: int = 0
    cost_usd: float | None = 0.0


_YAML_FENCE = re.compile(r"```[ \t]*(?:yaml|yml)[ \t]*\r?\n(.*?)```", re.DOTALL | re.IGNORECASE)


def _yaml_of(arguments: str) -> str | None:
    try:
        value = orjson.loads(arguments or "{}")
    except orjson.JSONDecodeError:
        return None
    text = value.get("yaml") if isinstance(value, dict) else None
    return text if isinstance(text, str) and text.strip() else None


def submitted_yaml(response: LLMResponse) -> str | None:
    """The drafted scenario in a reply: the ``submit_scenario`` arguments' ``yaml``, as a
    call or as JSON written in the text (small open models answer a forced call that way),
    else a fenced ```yaml block. The draft is validated afterwards like any file."""
    for candidate in structured_candidates(response, SUBMIT.name):
        if (text := _yaml_of(candidate)) is not None:
            return text
    if any(c.name == SUBMIT.name for c in response.tool_calls):
        return None  # a call was made, with no usable yaml: not a text answer
    fenced = _YAML_FENCE.search(response.content)
    return fenced.group(1) if fenced and fenced.group(1).strip() else None


async def check_draft(
    text: str,
    *,
    domain: Domain,
    domains: Mapping[str, Domain],
    personas: Mapping[str, Persona],
    taken_ids: set[str],
    workdir: Path,
    name: str,
) -> tuple[Scenario | None, list[str]]:
    """Validate one draft as a scenario file would be; returns it or the reasons."""
    path = workdir / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        [scenario] = load_scenarios(
            [path], catalogue=DomainCatalogue(domains, CONCEPTS), personas=personas
        )
    except ScenarioError as exc:
        return None, [f"{p.field or 'file'}: {p.message}" for p in exc.problems]
    if scenario.domain != domain.name:
        return None, [f"domain: {scenario.domain!r}, expected {domain.name!r}"]
    if scenario.id in taken_ids:
        return None, [f"id: {scenario.id!r} is already taken"]
    _, score = await oracle_run(domain, scenario)
    if not score.strict:
        return None, [f"oracle: {c.id}: {c.reason}" for c in score.checks if not c.passed] or [
            "oracle: the conversation did not end normally"
        ]
    return scenario, []


async def generate(
    *,
    domain: Domain,
    domains: Mapping[str, Domain],
    category: Category,
    count: int,
    caller: ModelCaller,
    personas: Mapping[str, Persona],
    existing: Sequence[Scenario],
    candidates: int = 3,
) -> Drafts:
    """Draft until ``count`` scenarios pass, at most ``count * candidates`` attempts."""
    drafts = Drafts()
    taken = {s.id for s in existing}
    system = drafting_prompt(domain, category, sorted(personas), sorted(taken))
    with tempfile.TemporaryDirectory(prefix="supportsim-drafts-") as tmp:
        while len(drafts.kept) < count and drafts.attempts < count * candidates:
            drafts.attempts += 1
            note = f"Write draft number {drafts.attempts}; it must differ from earlier ones."
            response = await caller(
                LLMRequest(system, (LLMMessage("user", note),), structured=SUBMIT)
            )
            if drafts.cost_usd is not None:
                drafts.cost_usd = (
                    None if response.cost_usd is None else drafts.cost_usd + response.cost_usd
                )
            text = submitted_yaml(response)
            if text is None:
                drafts.rejected.append(Rejected(drafts.attempts, ("no scenario was submitted",)))
                continue
            scenario, reasons = await check_draft(
                text,
                domain=domain,
                domains=domains,
                personas=personas,
                taken_ids=taken,
                workdir=Path(tmp),
                name=f"draft-{drafts.attempts}",
            )
            if scenario is None:
                drafts.rejected.append(Rejected(drafts.attempts, tuple(reasons)))
                continue
            taken.add(scenario.id)
            drafts.kept.append((scenario, text))
    return drafts


def write_drafts(drafts: Drafts, out_dir: Path, *, model: str) -> list[Path]:
    """Write kept drafts as ``<id>.yaml`` with a review header; never overwrites a file."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    stamp = datetime.now(UTC).strftime("%Y-%m-%d")
    for scenario, text in drafts.kept:
        path = out_dir / f"{scenario.id}.yaml"
        if path.exists():
            continue
        header = f"# Drafted by `supportsim generate` with {model} on {stamp}; review before use.\n"
        path.write_text(header + text.rstrip() + "\n", encoding="utf-8")
        written.append(path)
    return written
