"""The statement judge in ``rescore``: stored verdicts reused, new questions asked.

A record keeps every verdict the statement judge gave, with its check (``JudgedRecord``:
the answer, the quotes, the request and prompt hashes), and so does every line of
rescored.jsonl. Rescoring therefore needs no model call to decide the communication checks
again:

- ``rescore RUN_DIR``: the run's own judge (run.json ``config.statement_judge``). A
  question whose prompt has a stored verdict of that judge takes it; a question with none
  (the scenario changed the claim, a check is new) is decided by the rules, and counted
  (``missing``): ``--statement-judge`` asks them. No call is made.
- ``rescore RUN_DIR --statement-judge MODEL``: that judge. A stored verdict with the same
  request hash (same model configuration, same prompt) is reused; only the other questions
  are asked. run.json then records MODEL as the run's judge (``config.statement_judge``,
  its ``models`` entry, a ``rescores`` entry), so ``compare`` sees a run judged by another
  model as a different setup, never silently.
- ``rescore RUN_DIR --statement-judge none``: rules only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from supportsim.conversation import Transcript
from supportsim.domains import Domain
from supportsim.scenario import Scenario
from supportsim.scoring import (
    Judged,
    StatementJudge,
    judge_questions,
    prompt_sha256,
    statement_questions,
)
from supportsim.store import (
    MANIFEST,
    CheckRecord,
    RunManifest,
    read_json,
    stored_verdict,
    write_doc,
)

RUN_JUDGE: Literal["run"] = "run"
"""``rescore`` without ``--statement-judge``: the run's own judge, stored verdicts only."""
JudgeChoice = StatementJudge | Literal["run"] | None


@dataclass(slots=True)
class JudgeTally:
    """What the statement judge did over a rescore."""

    judge: str | None = None
    """The judge the verdicts come from (None: rules only)."""
    asked: int = 0
    """Questions put to the judge (new verdicts)."""
    calls: int = 0
    """Model calls made (a corrected retry is a second call)."""
    reused: int = 0
    """Questions decided by a stored verdict, with no call."""
    missing: int = 0
    """Questions with no stored verdict of the run's judge: the rules decided them."""


def run_judge(run_dir: Path) -> str | None:
    """The statement judge run.json records (None: rules only, or no run.json)."""
    path = run_dir / MANIFEST
    try:
        config = read_json(path).get("config") if path.exists() else None
    except (OSError, ValueError, AttributeError):
        return None
    judge = config.get("statement_judge") if isinstance(config, dict) else None
    return judge if isinstance(judge, str) else None


def stored_verdicts(checks: Iterable[CheckRecord]) -> list[Judged]:
    """The verdicts kept with ``checks`` (a record's, a rescored line's)."""
    return [stored_verdict(c.judged) for c in checks if c.judged is not None]


async def verdicts_for(
    choice: JudgeChoice,
    tally: JudgeTally,
    scenario: Scenario,
    domain: Domain,
    transcript: Transcript,
    reference: dict[str, Any],
    stored: list[Judged],
) -> dict[str, Judged] | None:
    """The verdicts one unit is rescored with (None: rules only), counted in ``tally``.

    Raises:
        ProviderError: the judge's provider failed after retries.
    """
    if choice is None or (choice == RUN_JUDGE and tally.judge is None):
        return None
    questions = statement_questions(scenario, domain, transcript, reference)
    if isinstance(choice, StatementJudge):
        choice.remember(stored)
        known = {choice.request_sha256(q) for q in questions} & set(choice.cache)
        verdicts, responses = await judge_questions(choice, questions)
        tally.calls += len(responses)
        fresh = {choice.request_sha256(q) for q in questions} - known
        tally.reused += len(questions) - len(fresh)
        tally.asked += len(fresh)
        return verdicts
    mine = {v.prompt_sha256: v for v in stored if v.model == tally.judge}
    keys = [prompt_sha256(q) for q in questions]
    tally.reused += sum(k in mine for k in keys)
    tally.missing += sum(k not in mine for k in keys)
    return mine


def record_judge(run_dir: Path, judge: str | None, models: Mapping[str, Any], at: str) -> None:
    """Make run.json say the run's verdicts now come from ``judge`` (``models``: its
    configuration's fingerprint by name). Nothing is written when run.json is missing
    or already says so."""
    path = run_dir / MANIFEST
    if not path.exists():
        return
    manifest = read_json(path)
    config = manifest.get("config") if isinstance(manifest, dict) else None
    if not isinstance(config, dict):
        return
    previous = config.get("statement_judge")
    if previous == judge and all(manifest.get("models", {}).get(k) == v for k, v in models.items()):
        return
    manifest["config"] = {**config, "statement_judge": judge}
    manifest["models"] = {**(manifest.get("models") or {}), **models}
    entry = {"at": at, "statement_judge": judge, "previous": previous}
    manifest["rescores"] = [*(manifest.get("rescores") or []), entry]
    write_doc(path, RunManifest, manifest)
