"""Deterministic scoring: checks, strict / partial, pass^k and interval statistics."""

from supportsim.scoring._checks import AssertionVerdict, Check, CheckKind, Score
from supportsim.scoring._lexicon import CONCEPTS
from supportsim.scoring._oracle_check import oracle_run
from supportsim.scoring._perturb import PerturbResult, perturb
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
from supportsim.scoring._tau2 import NO_JUDGE, action_matches, tau2_score
from supportsim.scoring._validate import ScenarioVerdict, state_hash, validate_scenarios
from supportsim.scoring._workflow import step_checks

__all__ = [
    "CONCEPTS",
    "NO_JUDGE",
    "AssertionVerdict",
    "Check",
    "CheckKind",
    "PerturbResult",
    "ScenarioVerdict",
    "Score",
    "action_matches",
    "flatten",
    "forbidden_checks",
    "mean_pass_hat_k",
    "oracle_run",
    "outcome_check",
    "pass_hat_k",
    "percentile",
    "perturb",
    "reference_state",
    "score",
    "state_checks",
    "state_hash",
    "step_checks",
    "summarise",
    "tau2_score",
    "validate_scenarios",
    "wilson_interval",
]
