"""The Persona file schema (pydantic v2, strict: unknown keys are errors): how the
simulated Customer talks and behaves, never shown to the Agent."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from supportsim.scenario._models import Behaviour, Id, _Schema


class Persona(_Schema):
    """How the simulated Customer talks; never shown to the Agent."""

    id: Id
    """Referenced by scenarios' ``persona`` field."""
    name: str
    """A first name the Customer uses."""
    tone: str
    """One or two words: calm, impatient, angry, friendly, confused..."""
    verbosity: Literal["terse", "normal", "verbose"] = "normal"
    """How long the Customer's messages are."""
    patience: int = Field(default=8, ge=1, le=100)
    """Agent turns without progress before the Customer gives up."""
    language: str = Field(default="en", pattern=r"^[a-z]{2}$")
    """ISO 639-1 code of the language the Customer writes in."""
    volunteers: Literal["minimal", "some", "everything"] = "some"
    """How much of what they know the Customer offers before being asked."""
    behaviours: list[Behaviour] = []
    """Traits the simulator plays: pushes_back, wrong_info_first, social_engineering, typos,
    changes_mind."""
    style: str = ""
    """A short free-text description of the voice, for the simulator prompt."""
    cooperation: Literal["cooperative", "neutral", "reluctant"] = "neutral"
    """How readily the Customer answers the Agent's questions and follows its steps
    (measured: facts volunteered before being asked, ``docs/guide/customer-review.md``)."""
    honesty: Literal["honest", "wrong_detail_first", "changes_story"] = "honest"
    """Whether the Customer gives a wrong detail first, or changes its story once (measured:
    contradictions of its known facts; a value it invents is then its part, not an error)."""
    slips: Literal["none", "typos", "partial_answers"] = "none"
    """The mistakes the Customer makes in writing: typos, or answers that give only part of
    what was asked (measured: typo rate)."""
