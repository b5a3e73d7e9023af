"""Turn a transcript and a final state into checks, strict and partial (ARCHITECTURE.md)."""

from __future__ import annotations

import asyncio
import fnmatch
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from supportsim.conversation import ABNORMAL, Transcript
from supportsim.domains import TRANSFER_TOOL, Domain, Tool
from supportsim.environment import Environment
from supportsim.llm import LLMResponse
from supportsim.scenario import Forbidden, PlannedCall, Scenario, reference_plan
from supportsim.scoring._benchmark import JudgeCall, benchmark_scoring, claimed
from supportsim.scoring._checks import AssertionVerdict, Check, CheckRole, Score
from supportsim.scoring._partial import partial_of
from supportsim.scoring._questions import Question, disclosure_question
from supportsim.scoring._say import Speech, discloses, speech_of
from supportsim.scoring._scorer import (
    Reference,
    Scorer,
    make_reference,
    plugin_scorers,
    run_scorer,
)
from supportsim.scoring._statement_judge import QuestionLog, Verdicts, judged_check
from supportsim.scoring._templates import template_checks
from supportsim.scoring._workflow import Rules, args_match, step_checks
from supportsim.scoring.text._text import search


async def reference_state(domain: Domain, scenario: Scenario) -> dict[str, Any]:
    """The final state the reference workflow produces (faults and latency included)."""

    async def no_wait(_seconds: float) -> None:
        await asyncio.sleep(0)

    env = Environment(domain, scenario, sleep=no_wait)
    for item in reference_plan(scenario):
        if isinstance(item, PlannedCall):
            await env.call(item.tool, item.args, f"ref-{item.step_id}")
    return env.snapshot()


def score(
    scenario: Scenario,
    domain: Domain,
    transcript: Transcript,
    reference: dict[str, Any],
    *,
    initial: Mapping[str, Any] | None = None,
    verdicts: Sequence[AssertionVerdict] | None = None,
    statements: Verdicts | None = None,
) -> Score:
    """Score one conversation. Pure and deterministic; run it off any timed path.

    Every check comes from a Scorer (``_scorer.py``): the built-in kinds, then the domain's
    and the scenario's plug-ins. ``initial``: the scenario's initial state dump, when the
    caller scores many conversations of one scenario (computed here otherwise). A scenario a
    plug-in benchmark claims (``_benchmark.py``; an imported tau2 task) is scored the way
    that benchmark scores it (tau2's reward is its own evaluator, not a Scorer:
    ``supportsim.tau2``), with its assertion judge's ``verdicts``. ``statements``: the
    statement judge's verdicts by prompt hash (``statement_questions`` says which questions
    to ask), None for rules only: communication checks then keep the rules' verdict."""
    benchmark = benchmark_scoring(scenario)
    if benchmark is not None:
        return benchmark.score(scenario, transcript, reference, verdicts=verdicts)
    ref = make_reference(scenario, domain, reference, initial, statements)
    checks = [
        check
        for scorer in (*BUILTIN_SCORERS, *plugin_scorers(scenario, domain))
        for check in run_scorer(scorer, scenario, transcript, ref)
    ]
    return summarise(checks, normal_end=transcript.termination not in ABNORMAL)


def statement_questions(
    scenario: Scenario,
    domain: Domain,
    transcript: Transcript,
    reference: dict[str, Any],
    *,
    initial: Mapping[str, Any] | None = None,
) -> list[Question]:
    """The statement judge's questions for one conversation: exactly those its scoring
    looks a verdict up for (the conversation is scored once with a ``QuestionLog``), in the
    order the checks ask them. None for a scenario a plug-in benchmark scores (tau2 has its
    own judge)."""
    if claimed(scenario) is not None:
        return []
    log = QuestionLog()
    score(scenario, domain, transcript, reference, initial=initial, statements=log)
    return list(log.questions.values())


async def assertion_verdicts(
    scenario: Scenario,
    transcript: Transcript,
    call: JudgeCall | None,
) -> tuple[list[AssertionVerdict] | None, LLMResponse | None]:
    """The verdicts of an imported benchmark's own assertion judge that ``score`` takes as
    ``verdicts`` (tau2's NL_ASSERTION, ``supportsim.tau2``), with the judge's response;
    ``(None, None)`` without a judge (``call`` None) or when the scenario needs none (one no
    plug-in benchmark claims: its module is not imported).

    Raises:
        ProviderError: the judge's provider failed.
    """
    benchmark = benchmark_scoring(scenario)
    if benchmark is None:
        return None, None
    return await benchmark.assertion_verdicts(scenario, transcript, call)


def score_steps(scenario: Scenario, transcript: Transcript, ref: Reference) -> list[Check]:
    """``step`` and ``observed`` checks: the workflow, in the order that matters."""
    rules = rules_for(ref.domain, ref.tools)
    return step_checks(scenario, transcript, rules, speech_of(scenario), ref.verdicts)


def score_forbidden(scenario: Scenario, transcript: Transcript, ref: Reference) -> list[Check]:
    """``forbidden`` checks: the scenario's rules, then the library-wide templates."""
    speech = speech_of(scenario)
    return [
        *forbidden_checks(scenario, transcript, speech, ref.verdicts),
        *template_checks(
            scenario, ref.domain, transcript, speech, ref.tools, ref.initial, ref.verdicts
        ),
    ]


def score_outcome(scenario: Scenario, transcript: Transcript, ref: Reference) -> list[Check]:
    """The ``outcome`` check: resolved, escalated or refused, as the scenario expects."""
    return [outcome_check(scenario, transcript)]


def score_state(scenario: Scenario, transcript: Transcript, ref: Reference) -> list[Check]:
    """The ``state`` check: the final state against the reference workflow's."""
    return state_checks(
        scenario, ref.domain, transcript.final_state, dict(ref.state), initial=ref.initial
    )


BUILTIN_SCORERS: tuple[Scorer, ...] = (score_steps, score_forbidden, score_outcome, score_state)
"""The built-in check kinds, in the order their checks are listed."""


def rules_for(domain: Domain, tools: Mapping[str, Tool]) -> Rules:
    """What ordering and evidence need to know of the domain and the scenario's tools."""
    return Rules(
        writes=frozenset(name for name, t in tools.items() if t.kind == "write"),
        gates=frozenset(domain.gates),
        facts=domain.facts,
    )


def summarise(checks: Sequence[Check], *, normal_end: bool) -> Score:
    """strict: every check passed and the conversation ended normally; partial: the share
    of the workflow done, with ends (outcome, state) credited only in proportion to it and
    broken guardrails taken off (``_partial.py``: doing nothing earns 0)."""
    strict = all(c.passed for c in checks) and normal_end
    return Score(tuple(checks), strict, partial_of(checks, normal_end=normal_end))


def forbidden_checks(
    scenario: Scenario,
    transcript: Transcript,
    speech: Speech,
    verdicts: Verdicts | None = None,
) -> list[Check]:
    """One ``forbidden:<id>`` check per rule. A disclosure's items are decided by the
    statement judge when it has a verdict (``rule`` keeps the rules' result); a
    ``disclose_regex`` is a spelling, matched by rule whatever the judge says."""
    out = []
    for rule in scenario.forbidden:
        why = f" ({rule.reason})" if rule.reason else ""
        hit: str | None = None
        if rule.tool is None:
            out.append(_disclosure_check(rule, transcript, speech, verdicts, why))
            continue
        if rule.tool is not None:
            for call in transcript.calls:
                counts = call.ok or rule.when == "attempted"
                if counts and call.name == rule.tool and args_match(rule.args, call.arguments):
                    args = ", ".join(f"{k}={v!r}" for k, v in (call.arguments or {}).items())
                    verb = "called" if call.ok else "attempted"
                    hit = f"{call.name} {verb} with {args}"
                    break
        reason = f"{hit}: forbidden{why}" if hit else f"did not happen{why}"
        out.append(Check(f"forbidden:{rule.id}", "forbidden", hit is None, reason))
    return out


def _disclosure_check(
    rule: Forbidden, transcript: Transcript, speech: Speech, verdicts: Verdicts | None, why: str
) -> Check:
    check_id = f"forbidden:{rule.id}"
    items = _disclosure(rule, transcript, speech, items=True, regex=False)
    spelled = _disclosure(rule, transcript, speech, items=False, regex=True)
    hit = items or spelled
    reason = f"{hit}: forbidden{why}" if hit else f"did not happen{why}"
    by_rules = Check(check_id, "forbidden", hit is None, reason)
    if not rule.disclose:
        return by_rules  # a regular expression only: a spelling, not a meaning
    question = disclosure_question(rule, transcript, speech.lang, speech.lexicon)
    decided = judged_check(by_rules, question, verdicts)
    if spelled is not None and decided.judged is not None:  # the regex fails it anyway
        return replace(decided, passed=False, reason=f"{spelled}: forbidden{why}")
    return decided


def _disclosure(
    rule: Forbidden, transcript: Transcript, speech: Speech, *, items: bool, regex: bool
) -> str | None:
    for i, text in transcript.agent_texts():
        for item in (rule.disclose or []) if items else []:
            span = discloses(item, text, speech)
            if span is not None:
                quoted = text[span.start : span.end]
                return f"agent disclosed {item.describe()}: {quoted!r} (message {i})"
        if regex and rule.disclose_regex and search(rule.disclose_regex, text):
            return f"agent disclosed /{rule.disclose_regex}/ (message {i})"
    return None


def outcome_check(scenario: Scenario, transcript: Transcript) -> Check:
    transferred = any(c.ok and c.name == TRANSFER_TOOL for c in transcript.calls)
    expected = scenario.outcome
    if expected == "escalated":
        ok = transferred
        reason = "transferred to a human" if ok else "expected a transfer to a human; none was made"
    elif transferred:
        ok, reason = False, f"unnecessary escalation: transferred to a human, expected {expected}"
    elif expected == "refused":
        done = [c.name for c in transcript.calls if c.ok and c.kind == "write"]
        ok = not done
        reason = (
            "refused under policy" if ok else f"expected a refusal, but {done[0]} was carried out"
        )
    elif transcript.termination != "customer_done":
        ok, reason = False, f"not resolved: the conversation ended by {transcript.termination}"
    elif transcript.end_reason == "gave_up":
        ok, reason = False, "not resolved: the customer gave up"
    else:
        ok, reason = True, "resolved"
    return Check("outcome", "outcome", ok, reason)


def state_checks(
    scenario: Scenario,
    domain: Domain,
    final: dict[str, Any],
    reference: dict[str, Any],
    *,
    initial: Mapping[str, Any] | None = None,
) -> list[Check]:
    """The ``state`` check on the compared fields. With ``initial`` (the scenario's initial
    state dump), a reference workflow that changes none of them makes the check a
    guardrail: an unchanged state is no work done, only a rule kept (``_partial.py``)."""
    if scenario.compare_state == "none":
        return []
    got, want = dict(flatten(final)), dict(flatten(reference))
    keys = _compared(scenario, domain, set(got) | set(want))
    missing = object()
    diffs = [k for k in keys if got.get(k, missing) != want.get(k, missing)]
    role: CheckRole | None = None
    if initial is not None:
        before = dict(flatten(dict(initial)))
        compared = _compared(scenario, domain, set(before) | set(want))
        if all(before.get(k, missing) == want.get(k, missing) for k in compared):
            role = "guardrail"
    if not diffs:
        reason = "final state matches the reference workflow's"
        if role == "guardrail":
            reason += " (which changes nothing)"
        return [Check("state", "state", True, reason, role=role)]
    shown = "; ".join(
        f"{k}: {got.get(k, '<absent>')!r}, expected {want.get(k, '<absent>')!r}" for k in diffs[:3]
    )
    more = f" (+{len(diffs) - 3} more)" if len(diffs) > 3 else ""
    return [Check("state", "state", False, f"final state differs: {shown}{more}", role=role)]


def _compared(scenario: Scenario, domain: Domain, keys: set[str]) -> list[str]:
    """The dotted keys the state check compares: the declared fields (or all), minus the
    domain's free-text fields."""
    out = sorted(keys)
    if scenario.compare_state != "all":
        fields = scenario.compare_state
        out = [k for k in out if any(k == p or k.startswith(p + ".") for p in fields)]
    return [k for k in out if not any(fnmatch.fnmatchcase(k, g) for g in domain.ignore_in_state)]


def flatten(value: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Leaves of nested data as (dotted path, value); empty containers are leaves."""
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from flatten(item, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(value, list) and value:
        for i, item in enumerate(value):
            yield from flatten(item, f"{prefix}.{i}" if prefix else str(i))
    else:
        yield prefix, value
