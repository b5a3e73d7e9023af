"""Deterministic scoring: checks, strict / partial, pass^k and interval statistics."""

from supportsim.scoring._checks import BUILTIN_KINDS, Check, CheckKind, Score
from supportsim.scoring._lexicon import CONCEPTS
from supportsim.scoring._oracle_check import oracle_run
from supportsim.scoring._perturb import PerturbResult, perturb
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
from supportsim.scoring._validate import ScenarioVerdict, state_hash, validate_scenarios
from supportsim.scoring._workflow import step_checks

__all__ = [
    "BUILTIN_KINDS",
    "BUILTIN_SCORERS",
    "CONCEPTS",
    "Check",
    "CheckKind",
    "PerturbResult",
    "Reference",
    "ScenarioVerdict",
    "Score",
    "Scorer",
    "check_scorers",
    "flatten",
    "forbidden_checks",
    "load_scorer",
    "make_reference",
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
    "validate_scenarios",
    "wilson_interval",
]
