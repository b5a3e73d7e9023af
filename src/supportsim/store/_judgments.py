"""One line of judgments.jsonl: a judge's verdict on one conversation (``supportsim judge``).

It lives with the other run-directory models (``store``); judging writes and reads it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

JUDGMENT_SCHEMA_VERSION = 1


class JudgmentRecord(BaseModel):
    """One judge's verdict on one conversation, or the infra error that prevented it.

    ``verdicts`` maps each criterion id (``overall`` included) to ``{"verdict": "pass" |
    "fail", "justification": ...}``; it is empty for an infra error. ``conversation_ended_at``
    ties the judgment to the conversation record it read: if the unit is re-run, the old
    judgment no longer counts. Costs and tokens cover every attempt, the malformed ones too.
    """

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)

    schema_version: int = JUDGMENT_SCHEMA_VERSION
    unit_id: str
    scenario_id: str
    agent: str
    trial: int
    judge: str
    model: str = ""
    sample: int
    rubric: str
    rubric_sha256: str
    status: Literal["ok", "infra_error"]
    verdicts: dict[str, dict[str, str]] = {}
    attempts: int = 0
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    llm_ms: float = 0.0
    duration_ms: float = 0.0
    cached: bool = False
    """Every reply came from the response cache (``--cache``): nothing paid, no latency."""
    error: str | None = None
    conversation_ended_at: str = ""
    started_at: str
    ended_at: str

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.unit_id, self.judge, self.sample)

    def passed(self, criterion: str) -> bool | None:
        """The verdict on ``criterion`` as a bool; None when absent."""
        found = self.verdicts.get(criterion)
        return None if found is None else found.get("verdict") == "pass"
