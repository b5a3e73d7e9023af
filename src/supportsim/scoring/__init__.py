"""Deterministic scoring: checks, strict / partial, pass^k and interval statistics."""

from supportsim.scoring._checks import Check, CheckKind, Score
from supportsim.scoring._oracle_check import oracle_run
from supportsim.scoring._score import (
    flatten,
    forbidden_checks,
    outcome_check,
    reference_state,
    score,
    state_checks,
    summarise,
)
from supportsim.scoring._stats import mean_pass_hat_k, pass_hat_k, percentile, wilson_interval
from supportsim.scoring._workflow import step_checks

__all__ = [
    "Check",
    "CheckKind",
    "Score",
    "flatten",
    "forbidden_checks",
    "mean_pass_hat_k",
    "oracle_run",
    "outcome_check",
    "pass_hat_k",
    "percentile",
    "reference_state",
    "score",
    "state_checks",
    "step_checks",
    "summarise",
    "wilson_interval",
]
