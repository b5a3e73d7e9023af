"""Ways a person writing a language states a fact, rendered with Babel.

The perturbation tester rewords reference conversations with these, and the property tests
check that every one is found by value and that no other value is. They cover the forms
the locale's own formats produce (``format_currency``, ``format_date``, ``format_time``,
``format_unit``) plus the everyday forms CLDR has no pattern for ("14 Uhr", "14 h 30").
"""

from __future__ import annotations

import re
from datetime import date, time
from decimal import Decimal

from babel.dates import format_date, format_skeleton, format_time
from babel.numbers import format_currency, format_decimal, format_percent
from babel.units import format_unit

_DEFAULT_CURRENCY = {"en": "USD"}
_UNIT_IDS = {
    "minutes": "duration-minute",
    "hours": "duration-hour",
    "days": "duration-day",
    "weeks": "duration-week",
    "months": "duration-month",
}


def render(kind: str, value: object, unit: str | None, lang: str) -> list[str]:
    """Renderings of a parsed fact value (see ``_facts._parse``) in ``lang``."""
    if kind == "money":
        assert isinstance(value, float)
        return _money(value, unit, lang)
    if kind == "time":
        assert isinstance(value, str)
        hour, minute = (int(p) for p in value.split(":"))
        return _time(time(hour, minute), lang)
    if kind == "date":
        assert isinstance(value, tuple)
        return _date(date(*value), lang)
    if kind == "duration":
        assert isinstance(value, float)
        amount = _decimal(value, "0.001")
        return [
            format_unit(amount, _UNIT_IDS[unit or "hours"], length=length, locale=lang)
            for length in ("long", "short", "narrow")
        ]
    if kind == "percent":
        assert isinstance(value, float)
        amount = _decimal(value, "0.001")
        return [
            format_percent(amount / 100, locale=lang, decimal_quantization=False),
            format_unit(amount, "concentr-percent", length="long", locale=lang),
        ]
    assert isinstance(value, str)
    return _id(value)


def _decimal(value: float, step: str) -> Decimal:
    return Decimal(str(value)).quantize(Decimal(step)).normalize()


def _money(value: float, unit: str | None, lang: str) -> list[str]:
    amount = Decimal(str(value)).quantize(Decimal("0.01"))
    currency = unit or _DEFAULT_CURRENCY.get(lang, "EUR")
    plain = format_decimal(amount, "#,##0.00", locale=lang)
    out = [
        format_currency(amount, currency, locale=lang, currency_digits=False),
        plain,
        f"{currency} {plain}",
        format_currency(amount, currency, locale=lang, format_type="name", currency_digits=False),
    ]
    if amount == amount.to_integral_value():
        out.append(format_decimal(amount, "#,##0", locale=lang))
    return out


def _time(t: time, lang: str) -> list[str]:
    h, m = t.hour, t.minute
    out = [
        f"{h:02d}:{m:02d}",
        format_time(t, "h:mm a", locale="en"),
        format_time(t, "short", locale=lang),
        format_time(t, "h:mm B", locale=lang),
    ]
    if lang == "en" and m == 0:
        out.append(format_time(t, "h a", locale="en"))
    elif lang == "de":
        out += [f"{h}:{m:02d} Uhr", f"{h}.{m:02d} Uhr"] + ([f"{h} Uhr"] if m == 0 else [])
    elif lang == "fr":
        out += [f"{h} h {m:02d}", f"{h}h{m:02d}"] + ([f"à {h} h"] if m == 0 else [])
    elif lang == "es":
        out.append(f"a las {h}:{m:02d}")
    return out


def _date(d: date, lang: str) -> list[str]:
    return [
        d.isoformat(),
        format_date(d, "long", locale=lang),
        format_date(d, "medium", locale=lang),
        format_date(d, "short", locale=lang),
        format_date(d, "full", locale=lang),
        format_skeleton("MMMMd", d, locale=lang),
        format_skeleton("MMMd", d, locale=lang),
    ]


def _id(value: str) -> list[str]:
    groups = re.findall(r"[^\W\d_]+|\d+", value)
    out = [value, value.upper(), " ".join(groups).lower(), "".join(groups).upper()]
    if len(set(out)) < 2:
        out.append(f"#{value}")
    return out
