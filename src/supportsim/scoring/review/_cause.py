"""The causal link between a Customer error and the strict failure it is blamed for.

A false ``customer_hindered`` hides the Agent's failure and inflates its
agent-attributable score, which is worse than missing a Customer error. So a rule's
finding stays critical only when the checks that failed are of the kind it explains
(``explains``); anything else is reported as a non-critical finding and never hinders:

- a Customer that would not end (``repeating``, ``said_done_without_ending``,
  ``role_reversal`` at ``max_turns``): only the outcome check (the abnormal end) failed;
- ``premature_end``: only steps from the first write still pending on, the outcome and
  the final state failed (no forbidden check, nothing the Agent did wrong before);
- ``invented_fact``: a failing step or forbidden check is about the tool call that used
  the invented value (the rule itself keeps only values the Agent then used);
- ``persona_drift``: the language check failed;
- ``goal_drift``: no forbidden check the Agent broke on its own (any other failure
  follows from the outcome the Customer agreed to).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace

from supportsim.scenario import Scenario
from supportsim.scoring._checks import Check
from supportsim.scoring.review._findings import Finding

_STUCK = frozenset({"repeating", "said_done_without_ending", "role_reversal"})
_LANGUAGE = "forbidden:reply_language"


def _after_pending(scenario: Scenario, pending: Collection[str]) -> set[str]:
    """Ids of the step checks from the first pending write step on (workflow order)."""
    ids = [s.id for s in scenario.workflow]
    first = min((ids.index(p) for p in pending if p in ids), default=len(ids))
    return {f"step:{i}" for i in ids[first:]}


def explains(
    finding: Finding,
    failing: Sequence[Check],
    scenario: Scenario,
    *,
    pending: Collection[str],
    tools: Collection[str] = (),
) -> bool:
    """``finding`` accounts for every check in ``failing`` (see the module doc).
    ``pending``: the required writes not made; ``tools``: for an invented value, the
    tools of the calls that used it."""
    kinds = {c.kind for c in failing}
    if finding.kind in _STUCK:
        return kinds <= {"outcome"}
    if finding.kind == "premature_end":
        later = _after_pending(scenario, pending)
        return all(
            c.kind in ("outcome", "state") or (c.kind == "step" and c.id in later) for c in failing
        )
    if finding.kind == "invented_fact":
        tied = {f"step:{s.id}" for s in scenario.workflow if s.tool in tools}
        tied |= {f"forbidden:{r.id}" for r in scenario.forbidden if r.tool in tools}
        return any(c.id in tied for c in failing)
    if finding.kind == "persona_drift":
        return any(c.id == _LANGUAGE for c in failing)
    if finding.kind == "goal_drift":
        return "forbidden" not in kinds
    return False


def linked(
    findings: Sequence[Finding],
    checks: Sequence[Check] | None,
    scenario: Scenario,
    *,
    pending: Collection[str],
    used: Mapping[int, Collection[str]],
) -> list[Finding]:
    """``findings`` with ``critical`` kept only where the finding explains the failed
    checks (``checks`` None: not scored, nothing to explain; the rules' flags stand).
    ``used``: message index of an invented value -> tools of the calls that used it."""
    if checks is None:
        return list(findings)
    failing = [c for c in checks if not c.passed]
    return [
        f
        if not f.critical
        or explains(f, failing, scenario, pending=pending, tools=used.get(f.message_index, ()))
        else replace(f, critical=False)
        for f in findings
    ]
