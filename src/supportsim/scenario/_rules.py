"""Checks that tie a scenario's rules to what the Agent is told and what the scorer knows.

A rule the Agent is never told cannot be scored: every ``cites`` text must appear in what the
Agent receives (the domain policy, the scenario context, the permitted tools' descriptions,
the knowledge base when the Agent can search it). Concept names must exist in the shared
lexicons and ``observe`` facts in the domain's fact map, so a typo is a load error with the
file and line instead of a check that can never pass.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Iterator, Mapping
from typing import Protocol

from supportsim._yaml import PathKey
from supportsim.scenario._models import Scenario

_TYPOGRAPHY = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201b": "'",
        "\u00b4": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
    }
)


class RuleCatalogue(Protocol):
    def received_text(self, domain: str, tools: Collection[str]) -> str:
        """Everything the Agent of a scenario with these tools can read: policy, tool
        descriptions, and the knowledge base if it may search it."""
        ...

    def facts(self, domain: str) -> Mapping[str, Collection[str]]:
        """The domain's fact map: fact name -> tools whose results reveal it."""
        ...

    def concepts(self) -> Collection[str] | None:
        """Concept names of the shared lexicons (None: not checked here)."""
        ...


def plain(text: str) -> str:
    """Text compared for citations: NFKC, typography folded, case and spacing ignored, and
    Markdown code and emphasis marks (`` ` `` and ``*``) dropped before the backtick could
    be read as an apostrophe."""
    unmarked = text.replace("`", "").replace("*", "")
    folded = unicodedata.normalize("NFKC", unmarked).translate(_TYPOGRAPHY).casefold()
    return " ".join(folded.split())


def cited_rules(scenario: Scenario) -> Iterator[tuple[PathKey, list[str], bool]]:
    """(location, cites, required) of every rule: required steps, forbidden entries and the
    outcome need a citation; optional steps may carry one."""
    for i, step in enumerate(scenario.workflow):
        yield ("workflow", i, "cites"), step.cites, not step.optional
    for i, rule in enumerate(scenario.forbidden):
        yield ("forbidden", i, "cites"), rule.cites, True
    yield ("outcome_cites",), scenario.outcome_cites, True


def rule_problems(
    scenario: Scenario, catalogue: RuleCatalogue, tools: Collection[str]
) -> list[tuple[PathKey, str]]:
    """Citations not in what the Agent receives, unknown concepts and facts."""
    out: list[tuple[PathKey, str]] = []
    received = plain(
        catalogue.received_text(scenario.domain, tools)
        + "\n"
        + "\n".join(f"{k}: {v}" for k, v in scenario.context.items())
        + "\n"
        + "\n".join(m.description for m in scenario.mock_tools)
    )
    for loc, cites, _required in cited_rules(scenario):
        for n, cite in enumerate(cites):
            if not plain(cite):
                out.append(((*loc, n), "a citation cannot be empty"))
            elif plain(cite) not in received:
                out.append(
                    (
                        (*loc, n),
                        f"{cite[:80]!r} is not in what the agent receives (policy, context, "
                        "tool descriptions, knowledge base): quote it verbatim",
                    )
                )
    concepts = catalogue.concepts()
    if concepts is not None:
        for concept in scenario.lexicon:
            if concept not in concepts:
                out.append((("lexicon", concept), _unknown("concept", concept, concepts)))
        for loc, concept in _concepts_named(scenario):
            if concept not in concepts:
                out.append((loc, _unknown("concept", concept, concepts)))
    facts = catalogue.facts(scenario.domain)
    for i, step in enumerate(scenario.workflow):
        if step.fact is None:
            continue
        if step.fact not in facts:
            out.append((("workflow", i, "fact"), _unknown("fact", step.fact, facts)))
        elif step.tool not in facts[step.fact]:
            out.append(
                (
                    ("workflow", i, "tool"),
                    f"{step.tool} does not reveal {step.fact!r} in the domain's fact map "
                    f"({', '.join(facts[step.fact])})",
                )
            )
    return out


def _concepts_named(scenario: Scenario) -> Iterator[tuple[PathKey, str]]:
    for i, step in enumerate(scenario.workflow):
        for n, item in enumerate(step.say or []):
            if item.concept is not None:
                yield ("workflow", i, "say", n, "concept"), item.concept
    for i, rule in enumerate(scenario.forbidden):
        for n, item in enumerate(rule.disclose or []):
            if item.concept is not None:
                yield ("forbidden", i, "disclose", n, "concept"), item.concept


def _unknown(what: str, name: str, known: Collection[str]) -> str:
    return f"unknown {what} {name!r} (known: {', '.join(sorted(known)) or 'none'})"


def uncited(scenario: Scenario) -> list[str]:
    """Rules that cite nothing (``validate`` fails them: a rule must come from the policy)."""
    return [
        ".".join(map(str, loc[:-1] or loc))
        for loc, cites, req in cited_rules(scenario)
        if req and not cites
    ]
