"""Typed run-directory files written by judging: ``judges.json`` and ``agreement.json``.

Like ``_schema_run.py``: the writers validate against these models, the readers validate
what they read, and the JSON Schemas are exported to ``schemas/``.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from supportsim.store._schema_run import SCHEMA_VERSION


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class JudgeCalls(_Doc):
    """The model pool's ledger for one judging session."""

    calls: int = 0
    retries: int = 0
    rate_limited: int = 0
    errors: int = 0
    spend_usd: float = 0.0
    unpriced_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


class JudgeSession(_Doc):
    """One ``supportsim judge`` invocation."""

    started_at: str
    ended_at: str | None = None
    status: str
    judges: list[str]
    samples: int
    planned: int
    judged: int
    infra_errors: int
    spend_usd: float
    calls: JudgeCalls | None = None


class Criterion(_Doc):
    id: str
    question: str


class RubricDoc(_Doc):
    name: str
    instructions: str
    criteria: list[Criterion]
    overall: str


class JudgesManifest(_Doc):
    """``judges.json``: the rubric the statistics use and every judging session."""

    schema_version: int = SCHEMA_VERSION
    sessions: list[JudgeSession] = []
    rubric: RubricDoc | None = None
    rubric_sha256: str | None = None


class PassRate(_Doc):
    n: int
    passes: int
    rate: float | None = None
    ci95: list[float] | None = None


class Coverage(_Doc):
    units: int
    judgments: int
    samples: int
    infra_errors: int


class SelfConsistency(_Doc):
    units: int
    mean: float | None = None
    unanimous: float | None = None
    by_criterion: dict[str, float | None]


class Pairwise(_Doc):
    a: str
    b: str
    n: int
    agreement: float | None = None
    kappa: float | None = None


class Fleiss(_Doc):
    n: int
    raters: int
    kappa: float | None = None


class Tau(_Doc):
    a: str
    b: str
    agents: int
    tau: float | None = None


class Ranking(_Doc):
    rates: dict[str, dict[str, float]]
    tau: list[Tau]


class VsStrict(_Doc):
    n: int
    agreement: float | None = None
    kappa: float | None = None
    both_pass: int
    both_fail: int
    judge_pass_reference_fail: int
    judge_fail_reference_pass: int
    judge_passes_rules_fail: list[str]
    judge_fails_rules_pass: list[str]


class RaterAgreement(_Doc):
    n: int
    agreement: float | None = None
    kappa: float | None = None


class HumanLabels(_Doc):
    labels: int
    units: int
    source: str | None = None


class MajorityVerdict(_Doc):
    verdict: str
    passes: int
    judges: int


class Split(_Doc):
    unit_id: str
    scenario_id: str
    agent: str
    trial: int
    strict: bool
    verdicts: dict[str, str]
    passes: int
    judges: int
    criteria_split: list[str]
    justifications: dict[str, str]


class Cost(_Doc):
    conversations_usd: float | None = None
    judges_usd: dict[str, float | None] = {}
    judges_total_usd: float | None = None
    total_usd: float | None = None


class RubricRef(_Doc):
    name: str
    sha256: str
    criteria: list[str]


class LabelRow(_Doc):
    unit_id: str
    criterion: str
    label: str


class HumanLabelsDoc(_Doc):
    """``human_labels.json``: the human labels of ``judge --human``, as read from the CSV."""

    schema_version: int = SCHEMA_VERSION
    source: str
    sha256: str
    labels: list[LabelRow]


class Agreement(_Doc):
    """``agreement.json``: how far each judge can be trusted (``supportsim judge``)."""

    schema_version: int = SCHEMA_VERSION
    available: bool
    reason: str | None = None
    """Why no statistics exist (``available: false``)."""
    rubric: RubricRef | None = None
    judges: list[str] = []
    units: int = 0
    coverage: dict[str, Coverage] = {}
    pass_rates: dict[str, dict[str, PassRate]] = {}
    criteria_pass_rates: dict[str, dict[str, PassRate]] = {}
    self_consistency: dict[str, SelfConsistency] = {}
    pairwise: dict[str, list[Pairwise]] = {}
    fleiss: dict[str, Fleiss] = {}
    mean_pairwise_agreement: dict[str, float | None] = {}
    ranking: Ranking | None = None
    vs_strict: dict[str, VsStrict] = {}
    human: HumanLabels | None = None
    vs_human: dict[str, dict[str, RaterAgreement]] = {}
    majority: dict[str, MajorityVerdict] = {}
    splits: list[Split] = []
    cost: Cost | None = None
