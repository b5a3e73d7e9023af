"""Deterministic scoring: checks, strict / partial, pass^k and interval statistics."""

from supportsim.scoring._benchmark import (
    BenchmarkScoring,
    JudgeCall,
    ScoringPlugin,
    register_scoring,
)
from supportsim.scoring._checks import (
    Answer,
    AssertionVerdict,
    Check,
    CheckKind,
    CheckRole,
    Judged,
    Quote,
    Score,
)
from supportsim.scoring._data_block import data_block, json_line
from supportsim.scoring._judge_model import statement_judge_for
from supportsim.scoring._oracle_check import oracle_run
from supportsim.scoring._partial import partial_of
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
from supportsim.scoring._workflow import step_checks
from supportsim.scoring.text.facts._read import ReadFact

__all__ = [
    "BUILTIN_SCORERS",
    "CONCEPTS",
    "CONCEPT_MEANINGS",
    "MESSAGES_TAG",
    "SYSTEM_PROMPT",
    "VERDICT_TOOL",
    "Answer",
    "AssertionVerdict",
    "BenchmarkScoring",
    "Check",
    "CheckKind",
    "CheckRole",
    "JudgeCall",
    "Judged",
    "Question",
    "Quote",
    "ReadFact",
    "Reading",
    "Reference",
    "Score",
    "Scorer",
    "ScoringPlugin",
    "StatementJudge",
    "Verdicts",
    "assertion_verdicts",
    "check_scorers",
    "data_block",
    "flatten",
    "forbidden_checks",
    "item_words",
    "json_line",
    "judge_questions",
    "judged_check",
    "load_scorer",
    "make_reference",
    "mean_pass_hat_k",
    "oracle_run",
    "outcome_check",
    "partial_of",
    "pass_hat_k",
    "percentile",
    "prompt_sha256",
    "question_request",
    "read_statement",
    "reference_state",
    "register_scoring",
    "score",
    "state_checks",
    "statement_judge_for",
    "statement_questions",
    "step_checks",
    "summarise",
    "wilson_interval",
]


def __getattr__(name: str) -> frozenset[str]:
    # CONCEPTS is read from the lexicons on first use, not when supportsim is imported.
    if name == "CONCEPTS":
        from supportsim.scoring.text import _lexicon

        return _lexicon.CONCEPTS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
