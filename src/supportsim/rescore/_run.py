"""Score a stored run again, with no model call: the current scenarios and scorer over the
recorded messages, call log and final state.

Fixing a check must never cost an overnight re-run. ``rescore_run`` writes the new verdicts
to ``RUN_DIR/rescored.jsonl`` beside the originals (conversations.jsonl is never touched),
one line per unit (``_rescored``: the file, its reader, and how reports apply it). Units
that did not complete are carried unchanged (an infra error is not an Agent failure);
records without a call log (written before it was kept) and records whose scenario is no
longer in the set are listed as not rescorable with the reason, never skipped silently.
The statement judge's stored verdicts are reused, or a judge is asked (``rescore._judge``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from supportsim.domains import Domain
from supportsim.errors import InputError, ProviderError
from supportsim.rescore._judge import (
    RUN_JUDGE,
    JudgeChoice,
    JudgeTally,
    record_judge,
    run_judge,
    stored_verdicts,
    verdicts_for,
)
from supportsim.rescore._transcript import transcript_from_record
from supportsim.scenario import Persona, Scenario
from supportsim.scoring import AssertionVerdict, Score, reference_state, score
from supportsim.scoring.review import judged_prompts, judged_questions, review_customer
from supportsim.store import (
    CONVERSATIONS,
    CheckRecord,
    ConversationRecord,
    Disposition,
    PreviousVerdict,
    RescoredRecord,
    RunLock,
    check_record,
    customer_review_record,
    is_hindered,
    iter_records,
    read_plan,
    read_rescored,
    split_planned,
    with_stored_judged,
    write_rescored,
)


@dataclass(frozen=True, slots=True)
class Flip:
    """A check whose result changed; ``None`` means the check did not exist on that side."""

    check_id: str
    old: bool | None
    new: bool | None


@dataclass(frozen=True, slots=True)
class Change:
    """A unit whose verdict, partial score or checks changed."""

    unit_id: str
    scenario_id: str
    old_strict: bool
    new_strict: bool
    old_partial: float
    new_partial: float
    flipped: tuple[Flip, ...]

    @property
    def verdict_changed(self) -> bool:
        return self.old_strict != self.new_strict


@dataclass(frozen=True, slots=True)
class NotRescorable:
    unit_id: str
    scenario_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class RescoreResult:
    """What ``rescore_run`` did. ``changed`` lists every unit with any difference;
    ``verdicts_changed`` counts those whose strict verdict flipped."""

    path: Path
    rescored: int
    carried: int
    changed: tuple[Change, ...]
    not_rescorable: tuple[NotRescorable, ...]
    rescored_at: str
    judge: JudgeTally = field(default_factory=JudgeTally)
    """The statement judge's part: which judge, questions asked, verdicts reused."""
    judge_failed: int = 0
    """Units whose judge failed after retries (kept as they were: rescore them again)."""

    @property
    def verdicts_changed(self) -> int:
        return sum(c.verdict_changed for c in self.changed)


def _why_not(
    record: ConversationRecord, scenarios: Mapping[str, Scenario], domains: Mapping[str, Domain]
) -> str | None:
    """Why a completed record cannot be rescored (None: it can)."""
    scenario = scenarios.get(record.scenario_id)
    if scenario is None:
        return f"scenario {record.scenario_id!r} is not in the scenario set"
    if record.calls is None or (record.final_state is None and record.state_changes is None):
        return "recorded before records kept the call log and final state"
    if record.final_state is None and _tau2_initial(scenario) is None:
        return "its tau2 state changes need the tau2_data folder beside the scenario file"
    if record.domain and scenario.domain != record.domain:
        return f"the scenario now uses domain {scenario.domain!r}; the run used {record.domain!r}"
    if scenario.domain not in domains:
        return f"unknown domain {scenario.domain!r}"
    return None


def _line(
    record: ConversationRecord,
    disposition: Disposition,
    at: str,
    *,
    sha256: str | None = None,
    new: Score | None = None,
    reason: str = "",
    judge: str | None = None,
) -> RescoredRecord:
    checks = [check_record(c) for c in new.checks] if new is not None else list(record.checks)
    return RescoredRecord(
        unit_id=record.unit_id,
        scenario_id=record.scenario_id,
        scenario_sha256=record.scenario_sha256 if sha256 is None else sha256,
        disposition=disposition,
        reason=reason,
        strict=new.strict if new is not None else record.strict,
        partial=new.partial if new is not None else record.partial,
        checks=checks,
        previous=PreviousVerdict(
            strict=record.strict,
            partial=record.partial,
            failed=[c.id for c in record.checks if not c.passed],
        ),
        record_started_at=record.started_at,
        record_ended_at=record.ended_at,
        rescored_at=at,
        statement_judge=judge if new is not None else record.statement_judge,
    )


def flips(old: Sequence[CheckRecord], new: Sequence[CheckRecord]) -> tuple[Flip, ...]:
    """Checks whose result differs, in the new checks' order then removed ones. A check
    that appears or disappears counts only when it fails on its side."""
    before = {c.id: c.passed for c in old}
    after = {c.id: c.passed for c in new}
    ids = [*after, *(i for i in before if i not in after)]
    out = []
    for check_id in ids:
        a, b = before.get(check_id), after.get(check_id)
        if a == b or {a, b} == {None, True}:
            continue  # unchanged, or a passing check added or removed
        out.append(Flip(check_id, a, b))
    return tuple(out)


def _change(line: RescoredRecord, record: ConversationRecord) -> Change | None:
    flipped = flips(record.checks, line.checks)
    same_partial = abs((line.partial or 0.0) - (record.partial or 0.0)) < 1e-9
    if line.strict == record.strict and same_partial and not flipped:
        return None
    return Change(
        line.unit_id,
        line.scenario_id,
        bool(record.strict),
        bool(line.strict),
        record.partial or 0.0,
        line.partial or 0.0,
        flipped,
    )


def _lock_run(run_dir: Path) -> RunLock:
    """The run's writer lock, after checking it is a run directory (raises InputError)."""
    if not run_dir.is_dir():
        raise InputError(f"{run_dir}: not a run directory (no such directory)")
    if not (run_dir / CONVERSATIONS).is_file():
        raise InputError(f"{run_dir}: not a run directory (no {CONVERSATIONS})")
    return RunLock(run_dir)


def _read_run(run_dir: Path) -> tuple[list[ConversationRecord], list[NotRescorable]]:
    """The latest record of each planned unit, and the units outside the run's plan.

    Lines are read as every reader reads them (``iter_records``): a torn last line ends
    the file, any other damaged line is an InputError naming the file and line (exit 2),
    never a unit silently left out of the rescore.
    """
    records, foreign = split_planned(iter_records(run_dir), read_plan(run_dir))
    latest = {r.unit_id: r for r in records}
    outside = [
        NotRescorable(unit, unit.split("|", 1)[0], f"outside the run's plan: {why}")
        for unit, why in sorted(foreign.why.items())
    ]
    return list(latest.values()), outside


async def rescore_run(
    run_dir: Path,
    scenarios: Mapping[str, Scenario],
    domains: Mapping[str, Domain],
    *,
    now: datetime | None = None,
    judge: JudgeChoice = RUN_JUDGE,
    judge_models: Mapping[str, Any] | None = None,
    personas: Mapping[str, Persona] | None = None,
) -> RescoreResult:
    """Score every completed unit of ``run_dir`` again and write ``RUN_DIR/rescored.jsonl``.

    Args:
        run_dir: A run directory (it must hold conversations.jsonl).
        scenarios: The current scenarios by id (usually loaded from the files the run used).
        domains: Domains by name.
        now: The time written as ``rescored_at`` (default: now, UTC).
        judge: The statement judge: ``"run"`` (the run's own, stored verdicts only, no
            call), a ``StatementJudge`` (stored verdicts of the same request reused, the
            rest asked), or None (rules only). See ``rescore._judge``.
        judge_models: With a ``StatementJudge``: its model's run.json fingerprint by
            name, recorded in run.json with it.
        personas: Personas by id: the customer review is made again for each rescored
            unit whose scenario's persona is here (else the stored review is kept, and
            ``customer_hindered`` decided again from it and the new strict).

    The file is written whole to a temporary file and renamed, so a crash leaves the
    previous rescored.jsonl as it was. The run is locked while it is read and written. A
    unit whose judge fails after retries is kept as it was (``not_rescorable``, the
    reason says so): rescoring again asks only its questions.

    Raises:
        InputError: not a run directory, or another session is writing the run.
    """
    at = (now or datetime.now(UTC)).astimezone(UTC).isoformat(timespec="seconds")
    lock = _lock_run(run_dir)
    tally = JudgeTally(judge=run_judge(run_dir) if judge == RUN_JUDGE else None)
    if judge is not None and judge != RUN_JUDGE:
        tally.judge = judge.name
    judge_failed = 0
    try:
        earlier = {
            (line.unit_id, line.record_started_at, line.record_ended_at): line
            for line in read_rescored(run_dir)
        }
        records, not_rescorable = _read_run(run_dir)
        references: dict[str, dict[str, Any]] = {}
        lines: list[RescoredRecord] = []
        changed: list[Change] = []
        carried = 0
        for record in records:
            if record.status != "completed":
                carried += 1
                why = f"{record.status}: not scored (not an Agent failure)"
                lines.append(_line(record, "carried", at, reason=why))
                continue
            why_not = _why_not(record, scenarios, domains)
            if why_not is not None:
                not_rescorable.append(NotRescorable(record.unit_id, record.scenario_id, why_not))
                lines.append(_line(record, "not_rescorable", at, reason=why_not))
                continue
            scenario = scenarios[record.scenario_id]
            domain = domains[scenario.domain]
            if scenario.id not in references:
                references[scenario.id] = await reference_state(domain, scenario)
            final = None
            if record.final_state is None and record.state_changes is not None:
                from supportsim.tau2 import apply_changes

                initial = _tau2_initial(scenario)
                assert initial is not None  # _why_not checked it
                final = apply_changes(initial, record.state_changes)
            verdicts = [
                AssertionVerdict(v.assertion, v.met, v.justification)
                for v in record.assertion_verdicts
            ]
            transcript = transcript_from_record(record, final)
            before = earlier.get((record.unit_id, record.started_at, record.ended_at))
            stored = stored_verdicts([*record.checks, *(before.checks if before else ())])
            try:
                statements = await verdicts_for(
                    judge, tally, scenario, domain, transcript, references[scenario.id], stored
                )
            except ProviderError as exc:
                judge_failed += 1
                why = f"statement judge failed ({exc}); kept as it was: rescore again"
                not_rescorable.append(NotRescorable(record.unit_id, record.scenario_id, why))
                lines.append(before or _line(record, "not_rescorable", at, reason=why))
                continue
            new = score(
                scenario,
                domain,
                transcript,
                references[scenario.id],
                verdicts=verdicts if verdicts or not record.unscored else None,
                statements=statements,
            )
            persona = (personas or {}).get(scenario.persona)
            review = (
                with_stored_judged(
                    customer_review_record(
                        review_customer(scenario, persona, domain, transcript, new.checks)
                    ),
                    record.customer_review,
                    judged_prompts(judged_questions(persona, transcript)),
                )
                if persona is not None
                else record.customer_review
            )
            line = _line(
                record,
                "rescored",
                at,
                sha256=scenario.sha256,
                new=new,
                judge=tally.judge if statements is not None else None,
            ).model_copy(
                update={
                    "customer_review": review,
                    "customer_hindered": is_hindered("completed", new.strict, review),
                }
            )
            lines.append(line)
            if (change := _change(line, record)) is not None:
                changed.append(change)
        path = write_rescored(run_dir, lines)
        if judge != RUN_JUDGE:
            record_judge(run_dir, tally.judge, judge_models or {}, at)
    finally:
        lock.release()
    return RescoreResult(
        path=path,
        rescored=sum(line.disposition == "rescored" for line in lines),
        carried=carried,
        changed=tuple(changed),
        not_rescorable=tuple(not_rescorable),
        rescored_at=at,
        judge=tally,
        judge_failed=judge_failed,
    )


def _tau2_initial(scenario: Scenario) -> dict[str, Any] | None:
    """A tau2 record's initial state (only a record kept as state changes asks, so only a
    tau2 run imports the plug-in)."""
    from supportsim.tau2 import tau2_initial

    return tau2_initial(scenario)
