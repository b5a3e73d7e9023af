"""Partial: the share of the workflow an Agent did, which doing nothing cannot earn.

A conversation's checks count by their role (``Check.counts_as``):

- **workflow** (required steps, the evidence they rest on, plug-in kinds): the Agent's
  work. ``progress`` is the weighted share of them passed.
- **ends** (the outcome, the final state): how the conversation came out. They earn credit
  only in proportion to ``progress``: a "refused" outcome reached because nothing was done,
  or a "resolved" one because the scripted Customer ran out of lines, is not work.
- **guardrails** (forbidden calls, disclosures and promises, the library-wide templates, and
  a state check where the reference workflow changes nothing): passing earns nothing (an
  Agent that does nothing breaks no rule); each one broken takes ``VIOLATION_PENALTY`` off.

::

    progress = passed workflow weight / workflow weight      (1 when there is no workflow)
    base     = (passed workflow weight + progress * passed end weight)
               / (workflow weight + end weight)
    partial  = max(0, base - VIOLATION_PENALTY * broken guardrail weight)

So an Agent that does no step earns 0 whatever the ends and guardrails say, a flawless
conversation earns 1, a broken guardrail never raises partial, and a passed one never
changes it. A scenario with no check at all earns 1 when the conversation ended normally.

Why: under the old rule (the weighted share of all checks passed) a bundled scenario's
6.5 guardrails, which an Agent that does nothing keeps, outnumbered its 4.2 workflow checks,
and baseline Agents that do nothing useful earned 49-59% partial. Why a fixed penalty of
0.25 rather than a share: a missed step costs about 0.2 (4.2 workflow and 1.5 end checks per
bundled scenario), and a broken guardrail (a write the policy forbids, another customer's
data read out, a claim of a refund never made) is worse than a missed step but not worse
than doing nothing: one costs a quarter, four leave nothing. The figures are in
docs/guide/scoring.md and ``benchmarks/bench_partial.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

from supportsim.scoring._checks import Check

VIOLATION_PENALTY = 0.25
"""What one broken guardrail (of weight 1) takes off partial."""


def progress_of(checks: Sequence[Check]) -> float:
    """The weighted share of the workflow checks passed (1.0 when there are none)."""
    workflow = [c for c in checks if c.counts_as == "workflow"]
    total = sum(c.weight for c in workflow)
    return sum(c.weight for c in workflow if c.passed) / total if total else 1.0


def partial_of(checks: Sequence[Check], *, normal_end: bool) -> float:
    """Partial of a conversation's checks (0..1; module docstring). ``normal_end``: the
    conversation ended normally, which decides only a conversation with nothing to score."""
    progress = progress_of(checks)
    credit = total = broken = 0.0
    for c in checks:
        role = c.counts_as
        if role == "guardrail":
            broken += 0.0 if c.passed else c.weight
            continue
        total += c.weight
        if c.passed:
            credit += c.weight if role == "workflow" else progress * c.weight
    base = credit / total if total else (1.0 if normal_end else 0.0)
    return max(0.0, min(1.0, base - VIOLATION_PENALTY * broken))
