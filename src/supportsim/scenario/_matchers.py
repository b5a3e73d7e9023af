"""Argument matchers: how a workflow Step says which tool arguments are right.

A matcher is written in YAML either as a plain value (exact match) or as a one-key mapping:
``{any: true}``, ``{one_of: [...]}``, ``{regex: "..."}``, ``{icase: "..."}``,
``{approx: 49.99, tol: 0.01}`` or ``{exact: {...}}`` (to compare a mapping literally).
Matching is pure and total: it never raises, whatever the Agent sent.
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AnyValue(_Strict):
    """Any value is accepted, but the argument must be present."""

    any: bool = True

    def matches(self, value: object) -> bool:
        return True

    def describe(self) -> str:
        return "any value"


class OneOf(_Strict):
    """The value must equal one of these (numbers compare by value, strings exactly)."""

    one_of: list[Any] = Field(min_length=1)

    def matches(self, value: object) -> bool:
        return any(_equal(value, option) for option in self.one_of)

    def describe(self) -> str:
        return "one of " + ", ".join(repr(o) for o in self.one_of)


class Regex(_Strict):
    """The value, as text, must match this regular expression in full."""

    regex: str

    @field_validator("regex")
    @classmethod
    def _compiles(cls, pattern: str) -> str:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ValueError(f"invalid regular expression: {exc}") from exc
        return pattern

    def matches(self, value: object) -> bool:
        return isinstance(value, str | int | float) and bool(
            re.fullmatch(self.regex, str(value), flags=re.DOTALL)
        )

    def describe(self) -> str:
        return f"matching /{self.regex}/"


class CaseInsensitive(_Strict):
    """The value must equal this text, ignoring case and surrounding white space."""

    icase: str

    def matches(self, value: object) -> bool:
        return isinstance(value, str) and value.strip().casefold() == self.icase.strip().casefold()

    def describe(self) -> str:
        return f"{self.icase!r} (any case)"


class Approx(_Strict):
    """The value must be a number within ``tol`` of ``approx`` (absolute tolerance)."""

    approx: float
    tol: float = Field(default=0.005, ge=0)

    def matches(self, value: object) -> bool:
        number = _as_number(value)
        return number is not None and abs(number - self.approx) <= self.tol + 1e-12

    def describe(self) -> str:
        return f"{self.approx} ± {self.tol}"


class Exact(_Strict):
    """The value must equal this one exactly (use it for mappings and lists)."""

    exact: Any

    def matches(self, value: object) -> bool:
        return _equal(value, self.exact)

    def describe(self) -> str:
        return repr(self.exact)


class Literal_(_Strict):
    """A plain YAML value: exact match (1 and 1.0 are equal; "1" and 1 are not)."""

    value: Any

    def matches(self, value: object) -> bool:
        return _equal(value, self.value)

    def describe(self) -> str:
        return repr(self.value)


_KEYED: dict[str, type[_Strict]] = {
    "any": AnyValue,
    "one_of": OneOf,
    "regex": Regex,
    "icase": CaseInsensitive,
    "approx": Approx,
    "exact": Exact,
}


class Matcher(_Strict):
    """One argument matcher; parse from YAML with ``Matcher.model_validate(raw)``."""

    rule: Annotated[
        AnyValue | OneOf | Regex | CaseInsensitive | Approx | Exact | Literal_,
        Field(union_mode="left_to_right"),
    ]

    @model_validator(mode="before")
    @classmethod
    def _wrap(cls, raw: object) -> object:
        if isinstance(raw, dict) and set(raw) == {"rule"}:
            return raw
        if isinstance(raw, dict):
            keys = set(raw) - {"tol"}
            if len(keys) == 1 and (key := next(iter(keys))) in _KEYED:
                return {"rule": _KEYED[key].model_validate(raw)}
            raise ValueError(
                "a matcher mapping needs exactly one of "
                + ", ".join(sorted(_KEYED))
                + f" (got {sorted(raw)}); write {{exact: {{...}}}} to match a mapping literally"
            )
        return {"rule": Literal_(value=raw)}

    def matches(self, value: object) -> bool:
        return self.rule.matches(value)

    def describe(self) -> str:
        return self.rule.describe()


def _as_number(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float) and math.isfinite(value):
        return float(value)
    return None


def _equal(actual: object, expected: object) -> bool:
    a, e = _as_number(actual), _as_number(expected)
    if a is not None or e is not None:
        return a is not None and e is not None and a == e
    if isinstance(actual, bool) or isinstance(expected, bool):
        return actual is expected
    # Containers compare item by item with these same rules (Python's == has True == 1).
    if isinstance(actual, dict) and isinstance(expected, dict):
        return actual.keys() == expected.keys() and all(
            _equal(actual[k], expected[k]) for k in expected
        )
    if isinstance(actual, list) and isinstance(expected, list):
        return len(actual) == len(expected) and all(map(_equal, actual, expected))
    return actual == expected
