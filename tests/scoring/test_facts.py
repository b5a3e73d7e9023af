"""Typed fact matchers: a fact is found by value however it is written, in en/de/es/fr, and a
different value is never found."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from supportsim.scoring.text.facts._read import LANGUAGES, Fact, FactKind, find_fact, renderings

PROPERTY = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Case = tuple[FactKind, object, str | None, str, str, str]

# (kind, value, unit, lang, text, the substring the span must cover)
FOUND: list[Case] = [
    # money
    ("money", 10, None, "en", "That is $10 in total.", "$10"),
    ("money", 10, None, "en", "Refunded: 10.00", "10.00"),
    ("money", 10, None, "en", "a credit of 10", "10"),
    ("money", 10, "USD", "en", "You get 10 USD back.", "10 USD"),
    ("money", 10, "USD", "en", "You get USD 10 back.", "USD 10"),
    ("money", 10, "EUR", "de", "Sie erhalten 10,00 € zurück.", "10,00 €"),
    ("money", 10, "EUR", "en", "A refund of €10.", "€10"),
    ("money", 10, "USD", "en", "That's 10 dollars.", "10 dollars"),
    ("money", 10, "EUR", "fr", "Cela fait 10 euros.", "10 euros"),
    ("money", 10, "EUR", "de", "Das sind 10 Euro.", "10 Euro"),
    ("money", 10, "USD", "es", "Son 10 dólares.", "10 dólares"),
    ("money", 10, "USD", "es", "Son 10,00 US$.", "10,00 US$"),
    ("money", 10, "USD", "fr", "Soit 10,00 $US.", "10,00 $US"),
    ("money", 10, "EUR", "de", "Preis: 10,- €", "10,- €"),
    ("money", 10, "USD", "en", "a 10-dollar fee", "10-dollar"),
    ("money", 1234.5, None, "en", "Total 1,234.50", "1,234.50"),
    ("money", 1234.5, None, "de", "Gesamt 1.234,50", "1.234,50"),
    ("money", 1234.5, None, "es", "Total 1.234,50", "1.234,50"),
    ("money", 1234.5, None, "fr", "Total 1 234,50", "1 234,50"),
    ("money", 1234.5, "EUR", "fr", "Total 1\u00a0234,50\u00a0€", "1\u00a0234,50\u00a0€"),
    ("money", 1234.5, "EUR", "fr", "Total 1\u202f234,50 €", "1\u202f234,50 €"),
    ("money", 1234.5, None, "de", "Gesamt 1234.50 (English style)", "1234.50"),
    ("money", 30, "USD", "en", "It was $30 — not CH-1030 — and 30 USD.", "$30"),
    ("money", 10, None, "en", "Your refund of ＄１０ is done", "＄１０"),
    ("money", 10.12, None, "en", "The total is 10.12.", "10.12"),
    ("money", 10, "USD", "en", "A fee of $10 may apply.", "$10"),
    ("money", 10, None, "en", "a fee of 10 may apply", "10"),
    ("money", 10, "CHF", "en", "That is CHF10.", "CHF10"),
    ("money", 10, "EUR", "en", "That is 10EUR.", "10EUR"),
    ("money", 10, "CAD", "fr", "Soit 10 $.", "10 $"),
    ("money", -10, "USD", "en", "Adjustment: -$10.00", "-$10.00"),
    ("money", 10, None, "en", "between 5-10", "10"),
    # time
    ("time", "14:00", None, "en", "at 14:00 sharp", "14:00"),
    ("time", "14:00", None, "de", "um 14.00", "14.00"),
    ("time", "14:00", None, "en", "at 2 pm", "2 pm"),
    ("time", "14:00", None, "en", "at 2:00 PM", "2:00 PM"),
    ("time", "14:00", None, "en", "at 2 p.m. today", "2 p.m."),
    ("time", "14:00", None, "en", "at 2pm", "2pm"),
    ("time", "14:00", None, "en", "at 2 o'clock in the afternoon", "2 o'clock in the afternoon"),
    ("time", "14:00", None, "de", "um 14 Uhr", "14 Uhr"),
    ("time", "14:00", None, "de", "um 14:00 Uhr", "14:00 Uhr"),
    ("time", "14:00", None, "de", "um 2 Uhr nachmittags", "2 Uhr nachmittags"),
    ("time", "14:00", None, "fr", "à 14h", "14h"),
    ("time", "14:00", None, "fr", "à 14 h", "14 h"),
    ("time", "14:00", None, "fr", "à 14h00", "14h00"),
    ("time", "14:30", None, "fr", "à 14 h 30", "14 h 30"),
    ("time", "14:00", None, "fr", "rendez-vous à 14 heures", "14 heures"),
    ("time", "14:00", None, "fr", "à 2 heures de l’après-midi", "2 heures de l’après-midi"),
    ("time", "14:00", None, "es", "a las 14:00", "14:00"),
    ("time", "14:00", None, "es", "a las 2 de la tarde", "2 de la tarde"),
    ("time", "23:00", None, "es", "a las 11 de la noche", "11 de la noche"),
    ("time", "02:00", None, "en", "at 2 at night", "2 at night"),
    ("time", "00:00", None, "es", "a las 12 de la noche", "12 de la noche"),
    ("time", "12:00", None, "es", "a las 12 del mediodía", "12 del mediodía"),
    ("time", "15:00", None, "de", "um 3 Uhr nachmittags", "3 Uhr nachmittags"),
    ("time", "20:00", None, "fr", "à 8 heures du soir", "8 heures du soir"),
    ("time", "09:00", None, "en", "from 9am to 5pm", "9am"),
    ("time", "17:00", None, "en", "from 9am to 5pm", "5pm"),
    ("time", "00:05", None, "en", "at 12:05 AM", "12:05 AM"),
    ("time", "12:00", None, "en", "at noon", "noon"),
    ("time", "12:00", None, "en", "around midday", "midday"),
    ("time", "12:00", None, "de", "gegen Mittag", "Mittag"),
    ("time", "12:00", None, "es", "al mediodía", "mediodía"),
    ("time", "12:00", None, "fr", "à midi", "midi"),
    ("time", "00:00", None, "fr", "à minuit", "minuit"),
    ("time", "00:00", None, "de", "bis 24:00 Uhr", "24:00 Uhr"),
    ("time", "14:00", None, "en", "See you at 2\u202fPM", "2\u202fPM"),
    ("time", "14:00", None, "en", "at １４：００", "１４：００"),
    # date
    ("date", "2026-04-20", None, "en", "on 2026-04-20", "2026-04-20"),
    ("date", "2026-04-20", None, "de", "am 20.04. um", "20.04."),
    ("date", "2026-04-20", None, "de", "am 20.04.2026", "20.04.2026"),
    ("date", "2026-04-20", None, "de", "am 20.4.26", "20.4.26"),
    ("date", "2026-04-20", None, "fr", "le 20/04/2026", "20/04/2026"),
    ("date", "2026-04-20", None, "es", "el 20/04/2026", "20/04/2026"),
    ("date", "2026-04-20", None, "en", "on 04/20/2026", "04/20/2026"),
    ("date", "2026-04-20", None, "en", "on 4/20", "4/20"),
    ("date", "2026-04-20", None, "en", "on 20/04/2026", "20/04/2026"),  # day > 12: unambiguous
    ("date", "2026-04-20", None, "de", "am 4/20", "4/20"),  # likewise
    ("date", "2026-04-20", None, "en", "on 20 April", "20 April"),
    ("date", "2026-04-20", None, "en", "on April 20", "April 20"),
    ("date", "2026-04-20", None, "en", "on April 20th, 2026", "April 20th, 2026"),
    ("date", "2026-04-20", None, "en", "on the 20th of April", "20th of April"),
    ("date", "2026-04-20", None, "en", "on Monday, April 20", "April 20"),
    ("date", "2026-04-20", None, "en", "on Tuesday, April 20", "April 20"),  # weekday ignored
    ("date", "2026-04-20", None, "de", "am 20. April", "20. April"),
    ("date", "2026-04-20", None, "es", "el 20 de abril de 2026", "20 de abril de 2026"),
    ("date", "2026-04-20", None, "fr", "le 20 avril", "20 avril"),
    ("date", "2026-04-01", None, "fr", "le 1er avril", "1er avril"),
    ("date", "2026-04-20", None, "en", "on Apr 20", "Apr 20"),
    ("date", "2026-04-20", None, "en", "on Apr. 20", "Apr. 20"),
    ("date", "2026-04-20", None, "fr", "le 20 avr.", "20 avr."),
    ("date", "2026-02-03", None, "fr", "le 3 fevrier", "3 fevrier"),  # accent left out
    ("date", "2026-01-15", None, "de", "am 15. Jänner", "15. Jänner"),
    ("date", "2026-09-05", None, "en", "on 5 Sept", "5 Sept"),
    ("date", "2026-04-05", None, "en", "on 04/05", "04/05"),  # en: month first
    ("date", "2026-05-04", None, "de", "am 04/05", "04/05"),  # de: day first
    # duration
    ("duration", 24, "hours", "en", "within 24 hours", "24 hours"),
    ("duration", 24, "hours", "en", "within 24h", "24h"),
    ("duration", 24, "hours", "en", "within 24 hrs", "24 hrs"),
    ("duration", 24, "hours", "en", "a 24-hour window", "24-hour"),
    ("duration", 24, "hours", "de", "innerhalb von 24 Stunden", "24 Stunden"),
    ("duration", 24, "hours", "es", "en 24 horas", "24 horas"),
    ("duration", 24, "hours", "fr", "sous 24 heures", "24 heures"),
    ("duration", 10, "minutes", "en", "in 10 min", "10 min"),
    ("duration", 10, "minutes", "en", "in 10 mins", "10 mins"),
    ("duration", 10, "minutes", "de", "in 10 Minuten", "10 Minuten"),
    ("duration", 10, "minutes", "es", "en 10 minutos", "10 minutos"),
    ("duration", 3, "days", "fr", "sous 3 jours", "3 jours"),
    ("duration", 3, "days", "de", "in 3 Tagen", "3 Tagen"),
    ("duration", 3, "days", "de", "3 Tage", "3 Tage"),
    ("duration", 3, "days", "es", "3 días", "3 días"),
    ("duration", 2, "weeks", "fr", "2 semaines", "2 semaines"),
    ("duration", 2, "weeks", "de", "2 Wochen", "2 Wochen"),
    ("duration", 2, "weeks", "es", "2 semanas", "2 semanas"),
    ("duration", 6, "months", "de", "6 Monate", "6 Monate"),
    ("duration", 6, "months", "es", "6 meses", "6 meses"),
    ("duration", 6, "months", "fr", "6 mois", "6 mois"),
    ("duration", 2, "weeks", "en", "two weeks", "two weeks"),
    ("duration", 3, "days", "de", "drei Tage", "drei Tage"),
    ("duration", 1, "days", "es", "un día", "un día"),
    ("duration", 1.5, "hours", "de", "1,5 Stunden", "1,5 Stunden"),
    ("duration", 5, "days", "de", "in 5 Werktagen", "5 Werktagen"),
    ("duration", 5, "days", "es", "en 5 días hábiles", "5 días"),
    ("duration", 30, "days", "en", "a 30-day return window", "30-day"),
    ("duration", 14, "days", "en", "within 2 weeks", "2 weeks"),  # units converted
    ("duration", 2, "weeks", "en", "within 14 days", "14 days"),
    # percent
    ("percent", 10, None, "en", "a 10% discount", "10%"),
    ("percent", 10, None, "fr", "une remise de 10 %", "10 %"),
    ("percent", 10, None, "en", "10 percent off", "10 percent"),
    ("percent", 10, None, "en", "10 per cent off", "10 per cent"),
    ("percent", 10, None, "de", "10 Prozent Rabatt", "10 Prozent"),
    ("percent", 10, None, "es", "un 10 por ciento", "10 por ciento"),
    ("percent", 10, None, "fr", "10 pour cent", "10 pour cent"),
    ("percent", 10.5, None, "de", "10,5 % Rabatt", "10,5 %"),
    ("percent", 10.5, None, "es", "10,5 %", "10,5 %"),
    ("percent", 10.5, None, "fr", "10,5\u202f%", "10,5\u202f%"),
    # id
    ("id", "CH-778", None, "en", "charge CH-778 is refunded", "CH-778"),
    ("id", "CH-778", None, "en", "charge ch 778 is refunded", "ch 778"),
    ("id", "CH-778", None, "en", "charge CH778 is refunded", "CH778"),
    ("id", "CH-778", None, "en", "charge CH–778 (en dash)", "CH–778"),
    ("id", "CH-778", None, "en", "charge (CH-778).", "CH-778"),
    ("id", "ord_4521", None, "en", "order ORD-4521", "ORD-4521"),
]

# (kind, value, unit, lang, text): must NOT be found
NOT_FOUND: list[tuple[FactKind, object, str | None, str, str]] = [
    ("money", 10, None, "en", "That is $100."),
    ("money", 10, None, "en", "That is 10.50."),
    ("money", 10.5, None, "en", "That is 10.00."),
    ("money", 10, "USD", "en", "That is 10 €."),
    ("money", 10, "USD", "en", "That is €10."),
    ("money", 10, "USD", "de", "Das sind 10 Euro."),
    ("money", 10, "EUR", "en", "That is 10 dollars."),
    ("money", 10, "EUR", "en", "That is 10 USD."),
    ("money", 10, None, "en", "Charge CH-1010 is refunded."),
    ("money", 10, None, "en", "Charge CH1010 is refunded."),
    ("money", 10, None, "en", "On 2026-03-10."),
    ("money", 10, None, "en", "At 10:30."),
    ("money", 10, None, "en", "A 10% discount."),
    ("money", 10, None, "en", "Within 10 days."),
    ("money", 10, None, "en", "On 10 April."),
    ("money", 10, None, "en", "On April 10th."),
    ("money", 10, None, "en", "Order #10 shipped."),
    ("money", 10, None, "en", "Call 555-10-10."),
    ("money", 1.234, None, "de", "Das sind 1.234 Punkte."),
    ("money", 10, None, "fr", "Soit 10 000 €."),
    ("money", 10, "EUR", "fr", "Soit 10 $."),
    ("money", 10, None, "en", "On 10 May."),
    ("money", 10, None, "en", "Plan 10GB"),
    ("money", 10, None, "en", "Adjustment: -$10.00"),
    # time
    ("time", "14:00", None, "en", "at 4:00"),
    ("time", "14:00", None, "en", "at 2 am"),
    ("time", "14:00", None, "en", "at 2:00"),  # a bare clock time is 24-hour
    ("time", "14:30", None, "en", "at 2 pm"),
    ("time", "14:00", None, "en", "It costs $14.00."),
    ("time", "14:00", None, "de", "Er kostet 14.00 €."),
    ("time", "14:00", None, "en", "in 14 days"),
    ("time", "12:00", None, "fr", "l'après-midi"),
    ("time", "12:00", None, "de", "am Nachmittag"),
    ("time", "02:00", None, "en", "at 12:00"),
    ("time", "00:00", None, "en", "24h support"),
    ("time", "00:00", None, "fr", "dans 10 min"),  # Swiss French "min." is midnight; not here
    ("time", "22:00", None, "fr", "dans 10 min"),
    ("time", "10:00", None, "fr", "dans 10 min"),
    # date
    ("date", "2026-04-20", None, "en", "on 2 April"),
    ("date", "2026-04-02", None, "en", "on 20 April"),
    ("date", "2026-04-20", None, "en", "on April 2026"),
    ("date", "2026-04-20", None, "en", "on 2026-04-21"),
    ("date", "2026-04-20", None, "en", "on April 20, 2025"),
    ("date", "2026-05-04", None, "en", "on 04/05"),  # en reads April 5
    ("date", "2026-04-05", None, "de", "am 04/05"),  # de reads 4 May
    ("date", "2026-04-05", None, "fr", "le 04/05"),
    ("date", "2026-04-10", None, "en", "between 10-15 April"),
    ("date", "2026-04-20", None, "en", "20 Aprilia"),
    # duration
    ("duration", 24, "hours", "en", "within 24 days"),
    ("duration", 5, "days", "en", "in 3-5 business days"),  # a range states no one value
    ("duration", 24, "hours", "en", "within 240 hours"),
    ("duration", 4, "hours", "en", "within 24 hours"),
    ("duration", 10, "minutes", "en", "within 10 months"),
    ("duration", 3, "days", "de", "in 3 Wochen"),
    ("duration", 3, "days", "en", "in 3-5 business days"),
    # percent
    ("percent", 10, None, "en", "a 100% refund"),
    ("percent", 10, None, "en", "a 10.5% discount"),
    ("percent", 10, None, "en", "10 points"),
    ("percent", 10.5, None, "de", "10 % Rabatt"),
    # id
    ("id", "CH-778", None, "en", "charge CH-7781"),
    ("id", "CH-778", None, "en", "charge XCH-778"),
    ("id", "CH-778", None, "en", "charge CH-778-2"),
    ("id", "CH-778", None, "en", "charge CH-77"),
    ("id", "CH-778", None, "en", "charge CX-778"),
    ("id", "778", None, "en", "charge CH-778"),
]


@pytest.mark.parametrize(("kind", "value", "unit", "lang", "text", "expected"), FOUND)
def test_fact_is_found_where_it_is_stated(
    kind: FactKind, value: str | float, unit: str | None, lang: str, text: str, expected: str
) -> None:
    span = find_fact(Fact(kind, value, unit), text, lang)
    assert span is not None, f"{kind} {value!r} not found in {text!r}"
    assert text[span.start : span.end] == expected


@pytest.mark.parametrize(("kind", "value", "unit", "lang", "text"), NOT_FOUND)
def test_a_different_value_is_not_found(
    kind: FactKind, value: str | float, unit: str | None, lang: str, text: str
) -> None:
    span = find_fact(Fact(kind, value, unit), text, lang)
    assert span is None, f"{kind} {value!r} found in {text!r} at {span}"


def test_spans_point_into_the_original_text_after_typography() -> None:
    prefix = "“Thanks” — it’s ﬁne:\u00a0\u202fcafe\u0301 résumé…\u2009ＯＫ. "
    cases: list[tuple[Fact, str]] = [
        (Fact("money", 10, "USD"), "$10.00"),
        (Fact("time", "14:00"), "2\u202fp.m."),
        (Fact("date", "2026-04-20"), "20 avril"),
        (Fact("duration", 24, "hours"), "24\u00a0heures"),
        (Fact("percent", 10), "10\u00a0%"),
        (Fact("id", "CH-778"), "ＣＨ‑778"),
    ]
    for fact, stated in cases:
        text = prefix + stated + " — merci."
        span = find_fact(fact, text, "fr")
        assert span is not None, stated
        assert text[span.start : span.end] == stated


def test_first_occurrence_is_returned() -> None:
    text = "Not $100 but $10, and again 10 USD."
    span = find_fact(Fact("money", 10, "USD"), text, "en")
    assert span is not None and text[span.start : span.end] == "$10"


@pytest.mark.parametrize(
    "fact",
    [
        Fact("money", "ten"),
        Fact("money", float("nan")),
        Fact("time", "25:00"),
        Fact("time", "2 pm"),
        Fact("date", "2026-02-30"),
        Fact("date", "20.04.2026"),
        Fact("duration", 3, "fortnights"),
        Fact("id", "--"),
        Fact("colour", "red"),  # type: ignore[arg-type]
    ],
)
def test_a_malformed_fact_is_found_nowhere_and_cannot_be_rendered(fact: Fact) -> None:
    assert (
        find_fact(fact, "ten 10 25:00 2 pm 2026-02-30 20.04.2026 3 fortnights -- red", "en") is None
    )
    with pytest.raises(ValueError):
        renderings(fact, "en")


def test_odd_inputs_never_raise() -> None:
    fact = Fact("money", 10)
    assert find_fact(fact, "", "en") is None
    assert find_fact(fact, "   ", "de") is None
    assert find_fact(fact, "$10", "xx") is not None  # unknown language: read as English
    assert find_fact(fact, "10,00 €", "de-DE") is not None
    assert find_fact(Fact("money", True), "1", "en") is None  # a boolean is no amount


@pytest.mark.parametrize(
    "fact",
    [
        Fact("money", 10, "USD"),
        Fact("time", "14:00"),
        Fact("date", "2026-04-20"),
        Fact("duration", 24, "hours"),
        Fact("percent", 10),
        Fact("id", "CH-778"),
    ],
)
@settings(max_examples=40, deadline=None)
@given(text=st.text(), lang=st.sampled_from([*LANGUAGES, "pt", ""]))
def test_any_text_is_read_without_raising(fact: Fact, text: str, lang: str) -> None:
    span = find_fact(fact, text, lang)
    assert span is None or 0 <= span.start < span.end <= len(text)


def test_a_currency_code_in_lower_case_is_the_code() -> None:
    assert find_fact(Fact("money", 10, "usd"), "That is $10.", "en") is not None
    assert find_fact(Fact("money", 10, "usd"), "That is €10.", "en") is None
    assert len(renderings(Fact("money", 10, "usd"), "en")) >= 3


def test_english_is_read_besides_the_language() -> None:
    assert find_fact(Fact("time", "14:00"), "um 2 pm", "de") is not None
    assert find_fact(Fact("date", "2026-04-20"), "el April 20th", "es") is not None
    assert find_fact(Fact("duration", 2, "weeks"), "en 2 weeks", "fr") is not None
    # ... but a French decimal comma is not read in an English conversation
    assert find_fact(Fact("percent", 10.5), "10,5 %", "en") is None


# --- properties: every rendering is found, no other value is -----------------------------

CURRENCIES = st.sampled_from([None, "USD", "EUR", "GBP", "JPY", "CHF", "CAD", "MXN"])
CENTS = st.integers(min_value=-(10**6), max_value=10**9)


def _all_found(fact: Fact, lang: str, minimum: int) -> list[str]:
    shown = renderings(fact, lang)
    assert len(shown) >= minimum and len(set(shown)) == len(shown), shown
    for i, text in enumerate(shown):
        if i % 2:  # every other one inside a sentence, with typographic punctuation
            text = f"Hello — so: {text}. Thanks!"
        assert find_fact(fact, text, lang) is not None, (fact, lang, text)
    return shown


def _none_found(other: Fact, shown: list[str], lang: str) -> None:
    for text in shown:
        assert find_fact(other, text, lang) is None, (other, lang, text)


@pytest.mark.parametrize("lang", LANGUAGES)
@PROPERTY
@given(
    cents=CENTS,
    delta=st.integers(1, 10**9).map(lambda d: d * (1 if d % 2 else -1)),
    unit=CURRENCIES,
)
def test_money_renderings_are_found_by_value(
    lang: str, cents: int, delta: int, unit: str | None
) -> None:
    shown = _all_found(Fact("money", cents / 100, unit), lang, 3)
    _none_found(Fact("money", (cents + delta) / 100, unit), shown, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
@PROPERTY
@given(at=st.integers(0, 24 * 60 - 1), other=st.integers(0, 24 * 60 - 1))
def test_time_renderings_are_found_by_value(lang: str, at: int, other: int) -> None:
    assume(at != other)
    shown = _all_found(Fact("time", f"{at // 60:02d}:{at % 60:02d}"), lang, 3)
    _none_found(Fact("time", f"{other // 60:02d}:{other % 60:02d}"), shown, lang)


DAYS = st.dates(min_value=date(2000, 1, 1), max_value=date(2099, 12, 31))


@pytest.mark.parametrize("lang", LANGUAGES)
@PROPERTY
@given(day=DAYS, other=DAYS, year=st.integers(2000, 2099))
def test_date_renderings_are_found_by_value(lang: str, day: date, other: date, year: int) -> None:
    assume((day.month, day.day) != (other.month, other.day))
    shown = _all_found(Fact("date", day.isoformat()), lang, 3)
    _none_found(Fact("date", other.isoformat()), shown, lang)
    # the same day in another year: not found where the year is stated ("April 20" is
    # rendered for both years and matches both)
    assume(year != day.year and (day.month, day.day) != (2, 29))
    moved = Fact("date", day.replace(year=year).isoformat())
    stating_year = [t for t in shown if t not in renderings(moved, lang)]
    assert stating_year
    _none_found(moved, stating_year, lang)


UNITS = st.sampled_from(["minutes", "hours", "days", "weeks", "months"])


@pytest.mark.parametrize("lang", LANGUAGES)
@PROPERTY
@given(halves=st.integers(1, 2000), other=st.integers(1, 2000), unit=UNITS)
def test_duration_renderings_are_found_by_value(
    lang: str, halves: int, other: int, unit: str
) -> None:
    assume(halves != other)
    shown = _all_found(Fact("duration", halves / 2, unit), lang, 2)
    _none_found(Fact("duration", other / 2, unit), shown, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
@PROPERTY
@given(tenths=st.integers(0, 10000), other=st.integers(0, 10000))
def test_percent_renderings_are_found_by_value(lang: str, tenths: int, other: int) -> None:
    assume(tenths != other)
    shown = _all_found(Fact("percent", tenths / 10), lang, 2)
    _none_found(Fact("percent", other / 10), shown, lang)


IDS = st.tuples(
    st.text("ABCDEFGHJKLMNPQRSTUVWXYZ", min_size=1, max_size=4),
    st.sampled_from(["-", "", "_", " "]),
    st.integers(0, 10**6),
)


@pytest.mark.parametrize("lang", LANGUAGES)
@PROPERTY
@given(parts=IDS, extra=st.sampled_from(["1", "X"]), changed=st.integers(0, 9))
def test_id_renderings_are_found_and_longer_ids_are_not(
    lang: str, parts: tuple[str, str, int], extra: str, changed: int
) -> None:
    letters, sep, number = parts
    value = f"{letters}{sep}{number}"
    shown = _all_found(Fact("id", value), lang, 2)
    longer = [f"{letters}{sep}{number}{extra}", f"{extra}{letters}{sep}{number}"]
    for text in longer:
        assert find_fact(Fact("id", value), text, lang) is None, text
    other = f"{letters}{sep}{number + changed + 1}"
    _none_found(Fact("id", other), shown, lang)


@pytest.mark.parametrize(
    ("fact", "text", "lang", "found"),
    [
        (Fact("money", 15.0, "USD"), "I've added fifteen dollars of store credit.", "en", True),
        (Fact("money", 15.0, "USD"), "I've added fifteen euros of store credit.", "en", False),
        (Fact("money", 1.0, None), "I need one moment.", "en", False),
        (Fact("duration", 30.0, "days"), "You have thirty days to return it.", "en", True),
        (Fact("duration", 24.0, "hours"), "Bis vierundzwanzig Stunden vorher.", "de", True),
        (Fact("duration", 35.0, "days"), "Tiene treinta y cinco días.", "es", True),
        (Fact("duration", 36.0, "days"), "Tiene treinta y cinco días.", "es", False),
        (Fact("duration", 15.0, "minutes"), "Arrivez un quart d'heure en avance.", "fr", True),
        (Fact("duration", 15.0, "minutes"), "Bitte eine Viertelstunde früher.", "de", True),
        (Fact("duration", 30.0, "minutes"), "It takes half an hour.", "en", True),
        (Fact("duration", 15.0, "minutes"), "It takes half an hour.", "en", False),
        (Fact("duration", 30.0, "minutes"), "Dura media hora.", "es", True),
    ],
)
def test_spelled_out_numbers_and_spoken_durations(
    fact: Fact, text: str, lang: str, found: bool
) -> None:
    assert (find_fact(fact, text, lang) is not None) is found
