"""Deterministic scoring: checks, strict / partial, pass^k and interval statistics."""

from supportsim.scoring._checks import AssertionVerdict, Check, CheckKind, Score
from supportsim.scoring._facts import ReadFact
from supportsim.scoring._lexicon import CONCEPTS
from supportsim.scoring._oracle_check import oracle_run
from supportsim.scoring._reading import Reading, read_statement
from supportsim.scoring._score import (
    BUILTIN_SCORERS,
    flatten,
    forbidden_checks,
    outcome_check,
    reference_state,
    score,
    state_checks,
    summarise,
)
from supportsim.scoring._scorer import (
    Reference,
    Scorer,
    check_scorers,
    load_scorer,
    make_reference,
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

__all__ = [
    "BUILTIN_SCORERS",
    "CONCEPTS",
    "NO_JUDGE",
    "TAU2_JUDGE_MODEL",
    "AssertionVerdict",
    "Check",
    "CheckKind",
    "ReadFact",
    "Reading",
    "Reference",
    "Score",
    "Scorer",
    "action_matches",
    "assertion_request",
    "check_scorers",
    "flatten",
    "forbidden_checks",
    "judge_assertions",
    "judge_config",
    "load_scorer",
    "make_reference",
    "mean_pass_hat_k",
    "oracle_run",
    "outcome_check",
    "parse_verdicts",
    "pass_hat_k",
    "percentile",
    "read_statement",
    "reference_state",
    "score",
    "state_checks",
    "step_checks",
    "summarise",
    "tau2_score",
    "tau2_verdicts",
    "wilson_interval",
]
