"""What an Agent must say (``say``) or must not say (``disclose``): typed items, not spellings.

An item is written in YAML either as a plain string (a phrase, matched after folding case,
typography and white space, on word boundaries) or as a one-key mapping naming a concept of
the shared lexicons or a typed fact the scorer matches by value in every supported language:

    say:
      - {concept: refunding}              # any wording of the concept, in the scenario's language
      - {money: 35.0, currency: USD}      # $35, 35.00 USD, 35,00 $ ... (currency optional)
      - {time: "14:00"}                   # 2 pm, 14 Uhr, 14h ...
      - {date: "2026-03-19"}              # March 19th, 19.03., el 19 de marzo ...
      - {duration: 24, unit: hours}       # 24 hours, 24h, 24 Stunden ...
      - {percent: 10}
      - {id: CH-778}                      # any case, "CH 778", "CH778"
      - "account holder"                  # a phrase (the last resort)

    disclose:
      - {promise: waive}                  # promised, offered, or said someone else will/can
      - {claim: waived}                   # said it is done ("the fee has been waived")

``promise`` and ``claim`` name what the act reading (``scoring/text/_acts``) reads, by the
same labels as the blind statement corpus: they are for ``disclose`` only (a say step states
a concept).

The scorer (``supportsim.scoring``) owns the matching; this module only parses and checks
the shape, so a typo is a load error with the file and line.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

SayKind = Literal[
    "phrase", "concept", "money", "time", "date", "duration", "percent", "id", "promise", "claim"
]
Action = Literal[
    "refunded",
    "credited",
    "waived",
    "cancelled",
    "booked",
    "rescheduled",
    "changed",
    "escalated",
    "flagged",
    "sent",
]
"""A completed action an Agent can claim ("I've refunded it") and a tool can perform (a
domain's action map, ``Domain.actions``): what ``forbidden:false_claim`` compares."""
ACTIONS: tuple[Action, ...] = Action.__args__  # type: ignore[attr-defined]
PromiseKind = Literal["refund", "credit", "waive", "callback", "delivery", "replacement", "fix"]
"""A future outcome an Agent can commit to ("I'll refund it", "a manager can waive it")."""
PROMISES: tuple[PromiseKind, ...] = PromiseKind.__args__  # type: ignore[attr-defined]
DurationUnit = Literal["minutes", "hours", "days", "weeks", "months"]
_KINDS: tuple[SayKind, ...] = SayKind.__args__  # type: ignore[attr-defined]
_MODIFIERS = {"money": {"currency"}, "duration": {"unit"}}


class SayItem(BaseModel):
    """One thing an Agent message states: a phrase, a concept or a typed fact."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    phrase: str | None = None
    """Literal words (any case, typography and spacing; whole words)."""
    concept: str | None = Field(default=None, pattern=r"^[a-z_]+$")
    """A concept of the shared lexicons (refusing, escalating, refunding...)."""
    money: float | None = None
    """An amount of money; ``currency`` (ISO code) optionally pins the currency."""
    currency: str | None = Field(default=None, pattern=r"^[A-Z]{3}$")
    time: str | None = None
    """A time of day, ``HH:MM`` (24-hour)."""
    date: str | None = None
    """A calendar date, ``YYYY-MM-DD`` (a statement without the year also counts)."""
    duration: float | None = Field(default=None, gt=0)
    """An amount of time, with ``unit``."""
    unit: DurationUnit | None = None
    percent: float | None = None
    id: str | None = Field(default=None, min_length=2)
    """An identifier (order, charge, slot): any case, separators optional."""
    promise: PromiseKind | None = None
    """A future outcome (disclose only): the Agent commits to it, offers it, or says someone
    else will or can bring it about ("a manager can waive the fee"); not a refusal of it."""
    claim: Action | None = None
    """A completed action (disclose only): the Agent says it is done or being done."""

    @model_validator(mode="before")
    @classmethod
    def _from_yaml(cls, raw: object) -> object:
        if isinstance(raw, str):
            return {"phrase": raw}
        if isinstance(raw, dict):
            kinds = [k for k in raw if k in _KINDS]
            if len(kinds) == 1 and raw[kinds[0]] is None:
                raise ValueError(f"{kinds[0]} needs a value (got an empty one)")
            if len(kinds) != 1:
                raise ValueError(
                    "a say item is a phrase or a mapping with exactly one of "
                    + ", ".join(_KINDS)
                    + f" (got {sorted(raw)})"
                )
            extra = set(raw) - {kinds[0]} - _MODIFIERS.get(kinds[0], set())
            if extra:
                raise ValueError(f"{kinds[0]} takes no {', '.join(sorted(extra))}")
        return raw

    @field_validator("phrase")
    @classmethod
    def _non_empty(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("a phrase cannot be empty")
        return value

    @field_validator("time")
    @classmethod
    def _time(cls, value: str | None) -> str | None:
        if value is not None:
            m = re.fullmatch(r"(\d{1,2}):(\d{2})", value)
            if not m or int(m[1]) > 23 or int(m[2]) > 59:
                raise ValueError(f"time must be HH:MM (24-hour), got {value!r}")
            return f"{int(m[1]):02d}:{m[2]}"
        return value

    @field_validator("date")
    @classmethod
    def _date(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                date.fromisoformat(value)
            except ValueError:
                raise ValueError(f"date must be YYYY-MM-DD, got {value!r}") from None
        return value

    @model_validator(mode="after")
    def _unit(self) -> SayItem:
        if self.duration is not None and self.unit is None:
            raise ValueError("a duration needs a unit (minutes, hours, days, weeks, months)")
        return self

    @property
    def kind(self) -> SayKind:
        return next(k for k in _KINDS if getattr(self, k) is not None)

    @property
    def value(self) -> Any:
        return getattr(self, self.kind)

    def describe(self) -> str:
        """For check reasons: ``concept refunding``, ``money 35.0 USD``, ``'account holder'``."""
        if self.kind == "phrase":
            return repr(self.phrase)
        suffix = self.currency or self.unit or ""
        return f"{self.kind} {self.value}{' ' + suffix if suffix else ''}"


def as_list(value: object) -> object:
    """YAML convenience: a single string where a list of strings is expected."""
    return [value] if isinstance(value, str) else value
