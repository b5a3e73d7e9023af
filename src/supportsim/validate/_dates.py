"""Dates and durations in corpus sentences, found and rewritten for another value
(``_values.rewrite``).

A date is swapped where the sentence writes it with digits and month names: ``2026-03-18``,
``18/03``, ``18.03.2026``, ``18 March``, ``March 18th``, ``18. März``, ``18 de marzo``,
``le 1er mars``, a day alone (``the 12th``, ``el martes 19``) when the month stays, and the
weekday named with it (``Wednesday 18 March`` -> ``Friday 20 March``). A sentence that says
the date relative to its day (``tomorrow``, ``heute``, ``mañana``, a weekday alone) is not
swapped: its words mean another date in another scenario. A duration is swapped where a
number in digits comes with its unit (``5 business days``, ``48 Stunden``, ``30 min``), in the
same unit. This is language data of its own, not the scorer's readers.
"""

from __future__ import annotations

import datetime as dt
import re

Edit = tuple[int, int, str]

MONTHS = {
    "en": ("january february march april may june july august september october november "
           "december"),
    "de": "januar februar märz april mai juni juli august september oktober november dezember",
    "es": ("enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre "
           "diciembre"),
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
}  # fmt: skip
WEEKDAYS = {
    "en": "monday tuesday wednesday thursday friday saturday sunday",
    "de": "montag dienstag mittwoch donnerstag freitag samstag sonntag",
    "es": "lunes martes miércoles jueves viernes sábado domingo",
    "fr": "lundi mardi mercredi jeudi vendredi samedi dimanche",
}
RELATIVE = {
    "en": r"\b(today|tomorrow|yesterday|tonight|this (morning|afternoon|evening)|next week|"
    r"day after)\b",
    "de": r"\b(heute|morgen|übermorgen|gestern)\b",
    "es": r"\b(hoy|mañana|ayer)\b",
    "fr": r"\b(aujourd'hui|demain|hier|après-demain|lendemain|veille)\b",
}
UNITS = {
    "en": (
        (r"min(ute)?s?", 1 / 60),
        (r"h(ou)?rs?|h", 1.0),
        (r"(business |working )?days?", 24.0),
        (r"weeks?", 168.0),
    ),
    "de": (
        (r"Min(uten?|\.)?", 1 / 60),
        (r"Stunden?|Std\.?|h", 1.0),
        (r"(Werk)?Tage?n?", 24.0),
        (r"Wochen?", 168.0),
    ),
    "es": (
        (r"minutos?|min", 1 / 60),
        (r"horas?|h", 1.0),
        (r"días?( hábiles)?", 24.0),
        (r"semanas?", 168.0),
    ),
    "fr": (
        (r"minutes?|min", 1 / 60),
        (r"heures?|h", 1.0),
        (r"jours?( ouvrés| ouvrables)?", 24.0),
        (r"semaines?", 168.0),
    ),
}


NATURAL = {1 / 60: 120, 1.0: 72, 24.0: 120, 168.0: 52}
"""The most of each unit a person says (90 days, not 129600 minutes)."""


def _names(table: dict[str, str], lang: str) -> list[str]:
    return table.get(lang, table["en"]).split()


def _cased(word: str, like: str) -> str:
    if like.isupper():
        return word.upper()
    return word.capitalize() if like[:1].isupper() else word


def _ordinal(day: int, lang: str, old_suffix: str) -> str:
    if not old_suffix:
        return str(day)
    if lang == "en":
        suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
        return f"{day}{suffix}"
    if lang == "fr":
        return "1er" if day == 1 else str(day)
    return f"{day}{old_suffix}"


def relative(text: str, lang: str) -> bool:
    """Whether ``text`` names a day relative to today: ``tomorrow``, or a weekday with no
    day number next to it (``by Friday``)."""
    if re.search(RELATIVE.get(lang, RELATIVE["en"]), text, re.I):
        return True
    for name in _names(WEEKDAYS, lang):
        for m in re.finditer(rf"\b{name}\b", text, re.I):
            around = text[max(0, m.start() - 12) : m.end() + 12]
            if not re.search(r"\d", around):
                return True
    return False


def date_edits(text: str, old: dt.date, new: dt.date, lang: str) -> list[Edit] | None:
    """Where ``text`` writes ``old``, rewritten as ``new`` (None: not written in a way that
    can be swapped)."""
    if relative(text, lang):
        return None
    months, weekdays = _names(MONTHS, lang), _names(WEEKDAYS, lang)
    edits: list[Edit] = []
    day_done = False
    for m in re.finditer(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)", text):
        if dt.date(int(m[1]), int(m[2]), int(m[3])) == old:
            edits.append((m.start(), m.end(), new.isoformat()))
            day_done = True
    numeric = r"(?<![\d.,/-])(\d{1,2})([./])(\d{1,2})(?:\2(\d{4}))?(\.)?(?![\d/]|[.,]\d)"
    for m in re.finditer(numeric, text):
        d, mo = int(m[1]), int(m[3])
        if (d, mo) != (old.day, old.month) or (m[4] and int(m[4]) != old.year):
            continue
        year = f"{m[2]}{new.year}" if m[4] else ""
        out = f"{new.day:0{len(m[1])}d}{m[2]}{new.month:0{len(m[3])}d}{year}{m[5] or ''}"
        edits.append((m.start(), m.end(), out))
        day_done = True
    month = months[old.month - 1]
    day = r"(\d{1,2})(st|nd|rd|th|er|\.)?"
    year = r"(?:(,?\s+(?:de\s+)?)(\d{4})(?!\d))?"
    pattern = rf"(?:{day}(\s+(?:de\s+)?){month}\b|\b{month}(\s+){day}(?!\d)){year}"
    for m in re.finditer(pattern, text, re.I):
        num, suffix = (m[1], m[2]) if m[1] else (m[5], m[6])
        if int(num) != old.day or (m[8] and int(m[8]) != old.year):
            continue
        span_month = m.start() + m[0].lower().index(month)
        word = _cased(months[new.month - 1], text[span_month : span_month + len(month)])
        new_day = _ordinal(new.day, lang, suffix or "")
        out = f"{new_day}{m[3]}{word}" if m[1] else f"{word}{m[4]}{new_day}"
        edits.append((m.start(), m.end(), out + (f"{m[7]}{new.year}" if m[8] else "")))
        day_done = True
    if not day_done and new.month == old.month:
        alone = (
            rf"\b(the\s+){old.day}(st|nd|rd|th)\b"
            rf"|\b({'|'.join(weekdays)}|el|le|del|du|am|den|au)(,?\s+){old.day}(\.|er)?(?!\d|[.,]\d)"
        )
        for m in re.finditer(alone, text, re.I):
            if m[1]:
                edits.append((m.start(), m.end(), f"{m[1]}{_ordinal(new.day, 'en', 'th')}"))
                day_done = True
                continue
            lead = m[3]
            if lead.lower() in weekdays:
                if lead.lower() != weekdays[old.weekday()]:
                    continue  # another date's weekday
                lead = _cased(weekdays[new.weekday()], lead)
            new_day = _ordinal(new.day, lang, m[5] or "")
            edits.append((m.start(), m.end(), f"{lead}{m[4]}{new_day}"))
            day_done = True
    if not day_done:
        return None
    name = weekdays[old.weekday()]
    for m in re.finditer(rf"\b{name}\b", text, re.I):
        if not any(a <= m.start() < b for a, b, _ in edits):
            edits.append((m.start(), m.end(), _cased(weekdays[new.weekday()], m[0])))
    return edits


def duration_edits(text: str, old_hours: float, new_hours: float, lang: str) -> list[Edit] | None:
    """Where ``text`` writes a duration of ``old_hours`` in digits with its unit, rewritten
    as ``new_hours`` in the same unit (None: written otherwise, twice, or not a whole
    number of that unit)."""
    found: list[Edit] = []
    for unit, hours in UNITS.get(lang, UNITS["en"]):
        for m in re.finditer(rf"(?<![\w.,-])(\d+)(\s?-?\s?)(?:{unit})(?!\w)", text):
            if abs(int(m[1]) * hours - old_hours) > 0.01:
                continue
            count = new_hours / hours
            if abs(count - round(count)) > 0.01 or not 1 <= round(count) <= NATURAL[hours]:
                return None  # not a whole number of the unit, or not how one says it
            found.append((m.start(1), m.end(1), str(round(count))))
    return found if len(found) == 1 else None
