"""``supportsim judge-eval CORPUS --statement-judge MODEL``: how well a model reads agent
text, measured against a labelled statement corpus, so a team chooses its statement judge
with numbers.

The corpus is a bundled split (``tune``; ``holdout`` is for the figures a change reports,
never for tuning) or a folder or file of the corpus format (``validate._corpus``). With a
model the judge reads every statement (``validate.judge_readings``, one call each, plus a
corrected retry when an answer does not fit); with ``none`` the rule path reads them, the
figures ``benchmarks/bench_reading.py`` prints. Either way ``validate.evaluate`` counts
every labelled decision and the table gives precision, recall and Cohen's kappa per label
and language. Exit codes: 0 measured; 2 bad input (no such corpus, a file that does not
parse, an unknown model or a missing key: nothing is called).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from pathlib import Path

from rich.console import Console

from supportsim._printable import printable
from supportsim.batch import RunConfig, models_for
from supportsim.errors import InputError, ProviderError
from supportsim.scoring import statement_judge_for
from supportsim.validate import (
    LANGUAGES,
    JudgeReadings,
    evaluate,
    judge_readings,
    load_corpus,
    rule_reader,
    table_lines,
)


async def _read(
    statements: Sequence[object], spec: str, models_path: Path | None, env: Mapping[str, str]
) -> JudgeReadings:
    # a run's default retries: the judge is asked as a run would ask it
    policy = RunConfig().retries
    models = models_for(models_path)
    async with statement_judge_for(spec, models=models, env=env, policy=policy) as judge:
        return await judge_readings(statements, judge.call)  # type: ignore[arg-type]


def judge_eval_command(
    corpus: str,
    *,
    judge: str,
    models_path: Path | None,
    languages: Sequence[str],
    errors: str | None,
    env: Mapping[str, str],
    out: Console,
    err: Console,
) -> int:
    """Measure ``judge`` (a model spec or models-file name, or ``none``: the rules) on
    ``corpus``; print the table and return the exit code (0, 2 bad input, 1 when the
    judge's provider failed after retries)."""
    try:
        unknown = sorted(set(languages) - set(LANGUAGES))
        if unknown:
            raise InputError(f"--language {', '.join(unknown)}: one of {', '.join(LANGUAGES)}")
        statements = load_corpus(corpus, languages)
        if not statements:
            raise InputError(f"{corpus}: no statements (in the languages asked for)")
        readings: JudgeReadings | None = None
        if judge.strip().lower() != "none":
            readings = asyncio.run(_read(statements, judge.strip(), models_path, env))
    except InputError as exc:
        err.print(f"error: {printable(exc, newlines=True)}", markup=False, highlight=False)
        return 2
    except ProviderError as exc:
        err.print(f"error: the statement judge failed: {exc}", markup=False, highlight=False)
        return 1
    tally = evaluate(statements, readings.reader if readings else rule_reader)
    langs = [lang for lang in LANGUAGES if any(s.language == lang for s in statements)]
    who = "rules (no judge)" if readings is None else f"statement judge {printable(judge)}"
    out.print(f"{who} on {printable(corpus)}: {len(statements)} statements", markup=False)
    out.print("\n".join(table_lines(tally, langs)), markup=False, highlight=False)
    if readings is not None:
        out.print(
            f"{readings.calls} calls; {len(readings.failed)} statements without an accepted "
            "answer (read as stating nothing)",
            markup=False,
            highlight=False,
        )
    if errors:
        dimension, _, rest = errors.partition(":")
        label, _, lang = rest.partition(":")
        by_id = {s.id: s for s in statements}
        for error in tally.by[(dimension, label, lang)].errors:
            item, kind = error.rsplit(":", 1)
            out.print(f"{kind} {item}: {printable(by_id[item].text)}", markup=False)
    return 0
