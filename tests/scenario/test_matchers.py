"""Argument matchers: every YAML form, the rejected forms, and properties of matching."""

from __future__ import annotations

import copy
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from supportsim.scenario import Matcher


def m(raw: Any) -> Matcher:
    return Matcher.model_validate(raw)


# --- plain values ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expected", "actual", "matches"),
    [
        (1, 1, True),
        (1, 1.0, True),
        (1.0, 1, True),
        (30, 30.000001, False),
        ("1", 1, False),
        (1, "1", False),
        (True, 1, False),
        (1, True, False),
        (False, 0, False),
        (0, False, False),
        (True, True, True),
        (False, False, True),
        ("CH-2", "CH-2", True),
        ("CH-2", "ch-2", False),
        ("CH-2", " CH-2", False),
        (None, None, True),
        (None, "", False),
        (None, 0, False),
        ([1, "a"], [1, "a"], True),
        ([1, "a"], ["a", 1], False),
    ],
)
def test_plain_value_is_an_exact_match(expected: Any, actual: Any, matches: bool) -> None:
    assert m(expected).matches(actual) is matches


def test_plain_value_describes_itself_as_its_repr() -> None:
    assert m("CH-2").describe() == "'CH-2'"
    assert m(30).describe() == "30"


# --- keyed forms ----------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["x", 0, None, False, [1], {"a": 1}, ""])
def test_any_accepts_every_value(value: Any) -> None:
    assert m({"any": True}).matches(value) is True
    assert m({"any": True}).describe() == "any value"


def test_one_of_compares_each_option_like_a_plain_value() -> None:
    matcher = m({"one_of": [1, "two"]})
    assert matcher.matches(1) is True
    assert matcher.matches(1.0) is True
    assert matcher.matches("two") is True
    assert matcher.matches("1") is False
    assert matcher.matches(True) is False
    assert matcher.matches("TWO") is False
    assert matcher.matches(None) is False
    assert matcher.describe() == "one of 1, 'two'"


def test_regex_must_match_the_whole_value() -> None:
    matcher = m({"regex": r"CH-\d+"})
    assert matcher.matches("CH-2") is True
    assert matcher.matches("CH-123") is True
    assert matcher.matches("CH-2x") is False
    assert matcher.matches("xCH-2") is False
    assert matcher.matches("ch-2") is False
    assert matcher.describe() == r"matching /CH-\d+/"


def test_regex_matches_numbers_as_text_and_spans_lines() -> None:
    assert m({"regex": r"\d+"}).matches(30) is True
    assert m({"regex": r"30\.5"}).matches(30.5) is True
    assert m({"regex": "a.b"}).matches("a\nb") is True


@pytest.mark.parametrize("value", [None, ["CH-2"], {"id": "CH-2"}])
def test_regex_rejects_values_that_are_not_text_or_numbers(value: Any) -> None:
    assert m({"regex": ".*"}).matches(value) is False


def test_icase_ignores_case_and_surrounding_space_only() -> None:
    matcher = m({"icase": "CH-2"})
    assert matcher.matches("ch-2") is True
    assert matcher.matches("  Ch-2\n") is True
    assert matcher.matches("CH- 2") is False
    assert matcher.matches("CH-22") is False
    assert matcher.matches(2) is False
    assert matcher.describe() == "'CH-2' (any case)"


def test_icase_folds_unicode_case() -> None:
    assert m({"icase": "STRASSE"}).matches("straße") is True


def test_approx_accepts_numbers_within_the_tolerance() -> None:
    matcher = m({"approx": 30, "tol": 0.01})
    assert matcher.matches(30) is True
    assert matcher.matches(30.01) is True
    assert matcher.matches(29.99) is True
    assert matcher.matches(30.02) is False
    assert matcher.matches(29.98) is False
    assert matcher.matches("30") is False
    assert matcher.matches(True) is False
    assert matcher.matches(None) is False
    assert matcher.describe() == "30.0 ± 0.01"


def test_approx_default_tolerance_is_half_a_cent() -> None:
    matcher = m({"approx": 49.99})
    assert matcher.matches(49.995) is True
    assert matcher.matches(49.996) is False


def test_approx_with_zero_tolerance_is_numeric_equality() -> None:
    matcher = m({"approx": 2, "tol": 0})
    assert matcher.matches(2.0) is True
    assert matcher.matches(2.001) is False


def test_exact_compares_a_mapping_literally() -> None:
    matcher = m({"exact": {"id": "CH-2", "amount": 30}})
    assert matcher.matches({"id": "CH-2", "amount": 30}) is True
    assert matcher.matches({"amount": 30, "id": "CH-2"}) is True
    assert matcher.matches({"id": "CH-2", "amount": 30.0}) is True
    assert matcher.matches({"id": "CH-2"}) is False
    assert matcher.matches({"id": "CH-2", "amount": 30, "extra": 1}) is False
    assert matcher.matches({"id": "ch-2", "amount": 30}) is False
    assert matcher.describe() == "{'id': 'CH-2', 'amount': 30}"


def test_exact_keeps_a_mapping_that_looks_like_a_matcher_literal() -> None:
    matcher = m({"exact": {"regex": "a+"}})
    assert matcher.matches({"regex": "a+"}) is True
    assert matcher.matches("aaa") is False


def test_nested_values_follow_the_plain_value_rules() -> None:
    """True is not 1 and "1" is not 1 inside lists and mappings too; 1 is still 1.0."""
    assert m({"exact": {"flag": True}}).matches({"flag": 1}) is False
    assert m({"exact": {"flag": 1}}).matches({"flag": True}) is False
    assert m([True, 0]).matches([1, False]) is False
    assert m({"exact": {"n": "1"}}).matches({"n": 1}) is False
    assert m({"exact": {"n": [1, {"x": 2}]}}).matches({"n": [1.0, {"x": 2.0}]}) is True


# --- rejected forms -------------------------------------------------------------------------

NEEDS_ONE = "a matcher mapping needs exactly one of any, approx, exact, icase, one_of, regex"


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"approx": 1, "regex": "x"}, NEEDS_ONE + " (got ['approx', 'regex'])"),
        ({"aprox": 30}, NEEDS_ONE + " (got ['aprox'])"),
        ({"tol": 0.1}, NEEDS_ONE + " (got ['tol'])"),
        ({}, NEEDS_ONE + " (got [])"),
        ({"id": "CH-2", "amount": 30}, NEEDS_ONE + " (got ['amount', 'id'])"),
    ],
)
def test_mappings_that_are_not_one_matcher_are_rejected(raw: Any, message: str) -> None:
    with pytest.raises(ValidationError) as info:
        m(raw)
    text = str(info.value)
    assert message in text
    assert "write {exact: {...}} to match a mapping literally" in text


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"one_of": []}, "List should have at least 1 item"),
        ({"regex": "("}, "invalid regular expression: missing ), unterminated subpattern"),
        ({"approx": 1, "tol": -1}, "Input should be greater than or equal to 0"),
        ({"icase": 3}, "Input should be a valid string"),
        ({"approx": "thirty"}, "Input should be a valid number"),
        ({"any": True, "tol": 1}, "Extra inputs are not permitted"),
    ],
)
def test_malformed_matcher_arguments_are_rejected(raw: Any, message: str) -> None:
    with pytest.raises(ValidationError) as info:
        m(raw)
    assert message in str(info.value)


# --- properties -----------------------------------------------------------------------------

# What an Agent's arguments can hold once orjson has parsed them: 64-bit integers, finite
# floats, text, booleans, null, lists and mappings.
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def literal(value: Any) -> Matcher:
    """The matcher a scenario author writes for ``value`` (mappings need ``exact``)."""
    return m({"exact": value} if isinstance(value, dict) else value)


matchers = st.one_of(
    json_values.map(literal),
    st.just(m({"any": True})),
    st.lists(json_values, min_size=1, max_size=3).map(lambda o: m({"one_of": o})),
    st.sampled_from([r"CH-\d+", ".*", "", "a|b", r"\d+(\.\d+)?"]).map(lambda r: m({"regex": r})),
    st.text(max_size=10).map(lambda t: m({"icase": t})),
    st.tuples(
        st.floats(allow_nan=False, allow_infinity=False),
        st.floats(min_value=0, max_value=1e6),
    ).map(lambda p: m({"approx": p[0], "tol": p[1]})),
)


@given(json_values)
def test_a_literal_matches_itself_and_its_json_round_trip(value: Any) -> None:
    matcher = literal(value)
    assert matcher.matches(value) is True
    assert matcher.matches(copy.deepcopy(value)) is True
    assert matcher.matches(orjson.loads(orjson.dumps(value))) is True


@given(matchers, json_values)
@settings(max_examples=300)
def test_matching_never_raises_and_answers_a_bool(matcher: Matcher, value: Any) -> None:
    assert isinstance(matcher.matches(value), bool)
    assert isinstance(matcher.describe(), str)


def shape(value: Any) -> Any:
    """The JSON types of a value, all the way down (1 and 1.0 are both numbers)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, list):
        return ("list", tuple(shape(v) for v in value))
    if isinstance(value, dict):
        return ("object", tuple(sorted((k, repr(shape(v))) for k, v in value.items())))
    return type(value).__name__


@given(json_scalars, json_scalars)
def test_plain_values_of_different_json_types_never_match(expected: Any, actual: Any) -> None:
    if shape(expected) != shape(actual):
        assert m(expected).matches(actual) is False


@given(json_values, json_values)
def test_values_of_different_shapes_never_match(expected: Any, actual: Any) -> None:
    if shape(expected) != shape(actual):
        assert literal(expected).matches(actual) is False


@given(
    st.floats(min_value=-1e6, max_value=1e6),
    st.floats(min_value=0, max_value=100),
    st.floats(min_value=-200, max_value=200),
)
def test_approx_matches_exactly_the_numbers_within_tol(
    centre: float, tol: float, delta: float
) -> None:
    matcher = m({"approx": centre, "tol": tol})
    value = centre + delta
    if abs(delta) <= tol - 1e-6:
        assert matcher.matches(value) is True
    elif abs(delta) >= tol + 1e-6:
        assert matcher.matches(value) is False


@given(st.integers(min_value=-(10**6), max_value=10**6), st.integers(min_value=0, max_value=5))
def test_approx_on_integers_is_distance_at_most_tol(centre: int, tol: int) -> None:
    matcher = m({"approx": centre, "tol": tol})
    for value in range(centre - tol - 2, centre + tol + 3):
        assert matcher.matches(value) is (abs(value - centre) <= tol)
    assert matcher.matches(bool(centre)) is False
