"""The tau2 scoring mode: an imported tau2-bench task scored the way tau2 scores it.

One ``reward`` check per component of the task's ``reward_basis`` (tau2's evaluators,
sierra-research/tau2-bench ``src/tau2/evaluator``, MIT):

- ``reward:DB``: tau2's database hash of the final state equals that of the gold replay
  on a fresh copy (the scorer's reference state: ``reference_plan`` of a tau2 scenario is
  its gold actions), whole-database equality.
- ``reward:COMMUNICATE``: every ``communicate_info`` string, lower-cased, is a substring of
  some Agent message lower-cased with its commas removed (tau2's rule, commas are removed
  from the message only). No strings: met.
- ``reward:NL_ASSERTION``: every assertion judged met by the assertion judge (verdicts
  computed by ``judge_assertions`` and passed in). No assertions: met, as in tau2. No
  judge: the check fails and is listed in ``Score.unscored`` (not fully scored).
- ``reward:ACTION``: every gold action not ignored is matched by some Agent tool call (same
  name; ``compare_args`` or every argument the call sent, equal).

strict = tau2's reward: the product of the components (all met), the conversation ended by
the Customer or the Agent (any other end is reward 0), and nothing unscored.
partial (a diagnostic, never tau2's number) is supportsim's partial (``_partial.py``) over
the same checks: the workflow is the required gold actions matched by a call
(``diagnostic`` checks, one per action) and the COMMUNICATE and NL_ASSERTION components
that ask for something; DB and ACTION are ends, credited in proportion to the workflow
done; a component met because the task asks nothing of it (no strings, no assertions, no
database criteria) earns nothing. An Agent that calls no gold action and says nothing
asked for earns 0.

``Tau2Scoring`` is what scoring's ``register_scoring("tau2", ...)`` (``scoring/_benchmark.py``)
loads for a scenario with ``Scenario.tau2``: ``tau2_score`` and the assertion judge's
``tau2_verdicts`` (``_judge.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from supportsim.conversation import ABNORMAL, Transcript
from supportsim.environment import CallRecord
from supportsim.llm import LLMResponse
from supportsim.scenario import Scenario, Tau2Action, Tau2Task
from supportsim.scoring import AssertionVerdict, Check, CheckRole, JudgeCall, Score, partial_of
from supportsim.tau2._judge import tau2_verdicts

NO_JUDGE = "not judged: run with --assertion-judge MODEL to score NL_ASSERTION"


def tau2_score(
    scenario: Scenario,
    transcript: Transcript,
    reference: Mapping[str, Any],
    *,
    verdicts: Sequence[AssertionVerdict] | None = None,
) -> Score:
    """Score one conversation of a tau2 scenario (``scenario.tau2`` must be set).

    ``reference``: the gold replay's final state dump; ``verdicts``: the assertion judge's
    verdicts, None when no judge ran."""
    task = scenario.tau2
    assert task is not None, "tau2_score needs a tau2 scenario"
    components: list[Check] = []
    unscored: list[str] = []
    normal = transcript.termination not in ABNORMAL
    for component in task.reward_basis:
        if component == "DB" and not task.db_criteria:
            reason = "no gold actions or env assertions: tau2 counts DB as met"
            components.append(Check("reward:DB", "reward", True, reason))
        elif component == "DB":
            components.append(db_check(transcript.final_state, reference))
        elif component == "COMMUNICATE":
            components.append(communicate_check(task.communicate_info, transcript))
        elif component == "ACTION":
            components.append(action_check(task, transcript.calls))
        else:
            check = assertion_check(task.nl_assertions, verdicts)
            if check.reason == NO_JUDGE and normal:  # an abnormal end is 0 whatever it says
                unscored.append(check.id)
            components.append(check)
    actions = action_diagnostics(task, transcript.calls)
    strict = normal and not unscored and all(c.passed for c in components)
    checks = [replace(c, role=_role(c.id, task)) for c in components] + actions
    if not normal:
        checks.append(
            Check(
                "reward:ended",
                "outcome",
                False,
                f"ended by {transcript.termination}: tau2 scores reward 0 unless the agent or "
                "the user stopped",
                0.0,
            )
        )
    partial = partial_of(checks, normal_end=normal)
    return Score(tuple(checks), strict, partial, tuple(unscored), tuple(verdicts or ()))


def _role(component_id: str, task: Tau2Task) -> CheckRole:
    """How a reward component counts in partial: what the task asks the Agent to say is
    workflow, the database and the gold actions are ends, and a component the task asks
    nothing of is met by doing nothing, so it earns nothing (a guardrail that holds)."""
    asked = {
        "reward:DB": task.db_criteria,
        "reward:COMMUNICATE": bool(task.communicate_info),
        "reward:NL_ASSERTION": bool(task.nl_assertions),
        "reward:ACTION": bool(_required(task)),
    }
    if not asked.get(component_id, True):
        return "guardrail"
    return "end" if component_id in ("reward:DB", "reward:ACTION") else "workflow"


def db_check(final: Mapping[str, Any], reference: Mapping[str, Any]) -> Check:
    """tau2's DB component: whole-database hash equality with the gold replay."""
    from supportsim.tau2.retail import db_hash  # only a tau2 run pays its import

    got, want = db_hash(final), db_hash(reference)
    if got == want:
        return Check("reward:DB", "reward", True, f"database matches the gold replay ({got[:12]})")
    changed = _differing(final, reference)
    shown = ", ".join(changed[:4]) + (f" (+{len(changed) - 4} more)" if len(changed) > 4 else "")
    return Check(
        "reward:DB",
        "reward",
        False,
        f"database differs from the gold replay ({got[:12]} != {want[:12]}): {shown}",
    )


def _differing(final: Mapping[str, Any], reference: Mapping[str, Any]) -> list[str]:
    out = []
    for table in ("products", "users", "orders"):
        got, want = final.get(table) or {}, reference.get(table) or {}
        out += [f"{table}[{k}]" for k in sorted(set(got) | set(want)) if got.get(k) != want.get(k)]
    return out


def communicate_check(info: Sequence[str], transcript: Transcript) -> Check:
    """tau2's COMMUNICATE component (English rule: substring after folding)."""
    texts = [text.lower().replace(",", "") for _, text in transcript.agent_texts()]
    missing = [s for s in info if not any(s.lower() in t for t in texts)]
    if not missing:
        return Check("reward:COMMUNICATE", "reward", True, f"{len(info)} item(s) communicated")
    quoted = ", ".join(repr(s) for s in missing)
    return Check("reward:COMMUNICATE", "reward", False, f"never said to the user: {quoted}")


def assertion_check(
    assertions: Sequence[str], verdicts: Sequence[AssertionVerdict] | None
) -> Check:
    """tau2's NL_ASSERTION component over the judge's verdicts (all must be met)."""
    if not assertions:
        return Check("reward:NL_ASSERTION", "reward", True, "no nl_assertions (tau2 scores 1)")
    if verdicts is None:
        return Check("reward:NL_ASSERTION", "reward", False, NO_JUDGE)
    unmet = [v for v in verdicts if not v.met]
    if not unmet:
        return Check(
            "reward:NL_ASSERTION", "reward", True, f"{len(verdicts)} assertion(s) judged met"
        )
    first = unmet[0]
    return Check(
        "reward:NL_ASSERTION",
        "reward",
        False,
        f"{len(unmet)} assertion(s) judged not met, first: {first.assertion!r} "
        f"({first.justification})",
    )


def action_matches(action: Tau2Action, call: CallRecord) -> bool:
    """tau2's ``compare_with_tool_call``: same name, and the compared arguments equal
    (``compare_args``, or every argument the call sent)."""
    if call.name != action.name or call.arguments is None:
        return False
    keys = list(call.arguments) if action.compare_args is None else action.compare_args
    sent = {k: v for k, v in call.arguments.items() if k in keys}
    gold = {k: v for k, v in action.arguments.items() if k in keys}
    return sent == gold


def _required(task: Tau2Task) -> list[Tau2Action]:
    ignored = {a.action_id for a in task.ignored_actions}
    return [a for a in task.actions if a.action_id not in ignored]


def action_check(task: Tau2Task, calls: Sequence[CallRecord]) -> Check:
    """tau2's ACTION component: every required gold action matched by some call."""
    unmatched = [a for a in _required(task) if not any(action_matches(a, c) for c in calls)]
    if not unmatched:
        return Check("reward:ACTION", "reward", True, "every gold action was called")
    names = ", ".join(f"{a.action_id} {a.name}" for a in unmatched)
    return Check("reward:ACTION", "reward", False, f"gold actions never called: {names}")


def action_diagnostics(task: Tau2Task, calls: Sequence[CallRecord]) -> list[Check]:
    """One ``diagnostic`` check per required gold action: some call matched it."""
    out = []
    for action in _required(task):
        hit = any(action_matches(action, c) for c in calls)
        reason = "called as in the gold path" if hit else "not called as in the gold path"
        out.append(
            Check(f"action:{action.action_id}", "diagnostic", hit, f"{action.name} {reason}")
        )
    return out


class Tau2Scoring:
    """tau2's reward as a ``scoring.BenchmarkScoring``: ``tau2_score`` and ``tau2_verdicts``."""

    def score(
        self,
        scenario: Scenario,
        transcript: Transcript,
        reference: Mapping[str, Any],
        *,
        verdicts: Sequence[AssertionVerdict] | None = None,
    ) -> Score:
        return tau2_score(scenario, transcript, reference, verdicts=verdicts)

    async def assertion_verdicts(
        self, scenario: Scenario, transcript: Transcript, call: JudgeCall | None
    ) -> tuple[list[AssertionVerdict] | None, LLMResponse | None]:
        return await tau2_verdicts(scenario, transcript, call)
