"""Values in corpus sentences are swapped where they are written in digits (and month and
weekday names), in the sentence's own format, and refused where a swap would be a guess."""

from __future__ import annotations

import datetime as dt

import pytest

from supportsim.validate._corpus import FactLabel
from supportsim.validate._values import Value, Want, rewrite

D = dt.date


def swap(text: str, label: dict[str, object], new: Value, lang: str = "en") -> str | None:
    return rewrite(text, [(FactLabel.model_validate(label), Want(new))], lang)


@pytest.mark.parametrize(
    ("text", "label", "new", "lang", "out"),
    [
        (
            "I've refunded the $35.00.",
            {"money": 35, "currency": "USD"},
            Value("money", 12.5, "USD"),
            "en",
            "I've refunded the $12.50.",
        ),
        (
            "Das kostet 40 USD.",
            {"money": 40, "currency": "USD"},
            Value("money", 25.5, "USD"),
            "de",
            "Das kostet 25,50 USD.",
        ),
        (
            "See you at 11:30 am.",
            {"time": "11:30"},
            Value("time", "16:30"),
            "en",
            "See you at 4:30 pm.",
        ),
        (
            "Rendez-vous à 9h00.",
            {"time": "09:00"},
            Value("time", "13:00"),
            "fr",
            "Rendez-vous à 13h00.",
        ),
        ("at 3pm", {"time": "15:00"}, Value("time", "09:00"), "en", "at 9am"),
        (
            "Charge CH-778 is back.",
            {"id": "CH-778"},
            Value("id", "CH-905"),
            "en",
            "Charge CH-905 is back.",
        ),
        (
            "Booked for Saturday 21 March at 10am.",
            {"date": "2026-03-21"},
            Value("date", D(2026, 3, 18)),
            "en",
            "Booked for Wednesday 18 March at 10am.",
        ),
        (
            "It runs until 14 October 2027.",
            {"date": "2027-10-14"},
            Value("date", D(2026, 4, 5)),
            "en",
            "It runs until 5 April 2026.",
        ),
        (
            "Es läuft bis zum 31.03.2026.",
            {"date": "2026-03-31"},
            Value("date", D(2026, 4, 5)),
            "de",
            "Es läuft bis zum 05.04.2026.",
        ),
        (
            "Montag, den 13. April",
            {"date": "2026-04-13"},
            Value("date", D(2026, 3, 18)),
            "de",
            "Mittwoch, den 18. März",
        ),
        (
            "para el martes 12 a las 8:45",
            {"date": "2026-05-12"},
            Value("date", D(2026, 5, 19)),
            "es",
            "para el martes 19 a las 8:45",
        ),
        (
            "émise le 1er mai",
            {"date": "2026-05-01"},
            Value("date", D(2026, 4, 1)),
            "fr",
            "émise le 1er avril",
        ),
        (
            "back within 5 days.",
            {"duration_hours": 120},
            Value("duration", 72.0),
            "en",
            "back within 3 days.",
        ),
        (
            "bis 24 Stunden vorher",
            {"duration_hours": 24},
            Value("duration", 48.0),
            "de",
            "bis 48 Stunden vorher",
        ),
    ],
)
def test_a_value_is_swapped_in_the_sentence_s_format(
    text: str, label: dict[str, object], new: Value, lang: str, out: str
) -> None:
    assert swap(text, label, new, lang) == out


@pytest.mark.parametrize(
    ("text", "label", "new"),
    [
        (
            "I've refunded thirty-five dollars.",
            {"money": 35, "currency": "USD"},
            Value("money", 12.0, "USD"),
        ),  # words
        (
            "35 USD now and 35 USD later.",
            {"money": 35, "currency": "USD"},
            Value("money", 12.0, "USD"),
        ),  # which one?
        (
            "It will arrive tomorrow, 17 March.",
            {"date": "2026-03-17"},
            Value("date", D(2026, 3, 20)),
        ),  # relative
        (
            "It will arrive by Friday.",
            {"date": "2026-03-20"},
            Value("date", D(2026, 3, 27)),
        ),  # a weekday alone
        (
            "Back within the next 15 minutes.",
            {"duration_hours": 0.25},
            Value("duration", 2160.0),
        ),  # 129600 minutes
        ("Charge CH-778 is back.", {"id": "CH-778"}, Value("id", "ORD-5")),  # another kind of id
        (
            "That's 35 EUR.",
            {"money": 35, "currency": "EUR"},
            Value("money", 12.0, "USD"),
        ),  # currency
    ],
)
def test_a_swap_that_would_be_a_guess_is_refused(
    text: str, label: dict[str, object], new: Value
) -> None:
    assert swap(text, label, new) is None


def test_a_wanted_difference_keeps_a_sentence_only_when_its_value_differs() -> None:
    label = FactLabel.model_validate({"date": "2026-03-20"})
    text = "Delivery on 20 March."
    assert rewrite(text, [(label, Want(Value("date", D(2026, 3, 18)), differ=True))], "en") == text
    assert rewrite(text, [(label, Want(Value("date", D(2026, 3, 20)), differ=True))], "en") is None
