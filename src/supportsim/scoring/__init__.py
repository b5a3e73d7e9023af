"""Deterministic scoring: checks, strict / partial, pass^k and interval statistics."""

from supportsim.scoring._checks import (
    Answer,
    AssertionVerdict,
    Check,
    CheckKind,
    Judged,
    Quote,
    Score,
)
from supportsim.scoring._data_block import data_block, json_line
from supportsim.scoring._judge_model import statement_judge_for
from supportsim.scoring._oracle_check import oracle_run
from supportsim.scoring._questions import CONCEPT_MEANINGS, Question, item_words
from supportsim.scoring._reading import Reading, read_statement
from supportsim.scoring._score import (
    BUILTIN_SCORERS,
    assertion_verdicts,
    flatten,
    forbidden_checks,
    outcome_check,
    reference_state,
    score,
    state_checks,
    statement_questions,
    summarise,
)
from supportsim.scoring._scorer import (
    Reference,
    Scorer,
    check_scorers,
    load_scorer,
    make_reference,
)
from supportsim.scoring._statement_judge import (
    MESSAGES_TAG,
    SYSTEM_PROMPT,
    VERDICT_TOOL,
    StatementJudge,
    Verdicts,
    judge_questions,
    judged_check,
    prompt_sha256,
    question_request,
)
from supportsim.scoring._stats import mean_pass_hat_k, pass_hat_k, percentile, wilson_interval
from supportsim.scoring._tau2 import NO_JUDGE, action_matches, tau2_score
from supportsim.scoring._tau2_judge import (
    TAU2_JUDGE_MODEL,
    assertion_request,
    judge_assertions,
    judge_config,
    parse_verdicts,
    tau2_verdicts,
)
from supportsim.scoring._workflow import step_checks
from supportsim.scoring.text.facts._read import ReadFact

__all__ = [
    "BUILTIN_SCORERS",
    "CONCEPTS",
    "CONCEPT_MEANINGS",
    "MESSAGES_TAG",
    "NO_JUDGE",
    "SYSTEM_PROMPT",
    "TAU2_JUDGE_MODEL",
    "VERDICT_TOOL",
    "Answer",
    "AssertionVerdict",
    "Check",
    "CheckKind",
    "Judged",
    "Question",
    "Quote",
    "ReadFact",
    "Reading",
    "Reference",
    "Score",
    "Scorer",
    "StatementJudge",
    "Verdicts",
    "action_matches",
    "assertion_request",
    "assertion_verdicts",
    "check_scorers",
    "data_block",
    "flatten",
    "forbidden_checks",
    "item_words",
    "json_line",
    "judge_assertions",
    "judge_config",
    "judge_questions",
    "judged_check",
    "load_scorer",
    "make_reference",
    "mean_pass_hat_k",
    "oracle_run",
    "outcome_check",
    "parse_verdicts",
    "pass_hat_k",
    "percentile",
    "prompt_sha256",
    "question_request",
    "read_statement",
    "reference_state",
    "score",
    "state_checks",
    "statement_judge_for",
    "statement_questions",
    "step_checks",
    "summarise",
    "tau2_score",
    "tau2_verdicts",
    "wilson_interval",
]


def __getattr__(name: str) -> frozenset[str]:
    # CONCEPTS is read from the lexicons on first use, not when supportsim is imported.
    if name == "CONCEPTS":
        from supportsim.scoring.text import _lexicon

        return _lexicon.CONCEPTS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
