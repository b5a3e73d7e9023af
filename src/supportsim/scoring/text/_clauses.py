"""Agent messages split into words and clauses, the units an act's mode is decided in.

A message is read line by line. Each line is folded (case, typography, accents stripped,
``_text.fold_map``) and cut into tokens: numbers with their separators ("9:15", "1,049.00"),
words with their inner hyphens and apostrophes ("e-mail", "ORD-50387"), and punctuation.
A word whose accent carries its grammar is read as the language's data says instead
("würde" as "wuerde", not the past "wurde"; Spanish "sí" is not the condition "si").
Contractions and clitics are split the way the language's data says ("I've" is read as
"i have", "can't" as "can not", "j'ai" as "je ai"), each piece keeping the original word's
span, so a mention is quoted as the Agent wrote it.

A clause ends at a sentence end (. ! ? or the line's end), a semicolon, a colon (not one
inside "9:15", nor one after a heading word: "Refund: processed"), a comma (not one inside
"1,049"), a dash (spaced, or a typographic one), an emoji or other symbol; and a new one
starts before a contrast or cause word ("but", "because"), a condition ("if", "unless"), a
time clause ("once", "as soon as"; "before" and "until" only before a subject) and a join
followed by a new subject ("..., and I've sent"; "so you'll"). A clause opened by an
inverted condition ("had you", "should you") sets a condition; a condition word after a
verb of asking or checking ("asked whether", "gefragt, ob") opens an indirect question,
which asks and sets no condition. Each clause knows its
sentence, what opened it, whether it asks (its sentence ends in "?" and it is the last
clause, or it opens like a question: "would you", "shall I") and whether it is conditional
(a condition clause, the clause it governs after a comma, or the clause it follows
directly: "I can move it if you like").
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from typing import Literal

from supportsim.scoring.text._grammar import Grammar, Tokens, grammar, reading_language
from supportsim.scoring.text._text import fold_map, normalise
from supportsim.scoring.text.facts._vocab import languages_for, months

Kind = Literal["main", "condition", "time", "indirect"]

_TOKEN = re.compile(
    r"(?P<abbr>(?:[a-z]\.){2,})"  # a.m., e.g.
    r"|(?P<num>\d+(?:[.,:/]\d+)*)"  # 9:15, 1,049.00, 18/03
    r"|(?P<word>\w+(?:['-]\w+)*'?)"  # e-mail, ord-50387, i've, hours'
    r"|(?P<mark>\S)"
)
_KEEP = frozenset("$£€%&")  # read as words: "$35", "10% off"
_QUIET = frozenset("[]\"'*/+=#@<>~_^`{}\\")  # read as nothing, break nothing
_BREAKS = {".": ".", "!": "!", "?": "?", ";": ";", ":": ":", ",": ","}
_PARENS = frozenset("()")
_NEXT_WORD = re.compile(r"\s*(\w+)")
_SENTENCE_END = frozenset(".!?")
_TYPOGRAPHIC_DASHES = frozenset("‐‑‒–—―−")


@dataclass(frozen=True, slots=True)
class Token:
    """One word as the rules read it, with the span of the original text it came from."""

    text: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Clause:
    """A run of tokens no clause break cuts, with what the sentence around it says."""

    tokens: tuple[Token, ...]
    sentence: int
    """Index of its sentence in the message (clauses of one sentence share it)."""
    opener: str
    """What separates it from the clause before: "" (a sentence start), a punctuation mark
    (, ; : -), "*" (a symbol) or the word that opened it ("but", "if", "and")."""
    kind: Kind
    question: bool
    conditional: bool
    text: str
    """The tokens joined by single spaces (what patterns are matched against)."""
    starts: tuple[int, ...]
    """Where each token starts in ``text``."""
    before: str = ""
    """The text of the earlier clauses of its sentence ("would you like me to" of "would
    you like me to refund it, or ...")."""
    previous: str = ""
    """The text of the clause right before it in its sentence."""

    def index_at(self, offset: int) -> int:
        """The token that holds character ``offset`` of ``text``."""
        return max(0, bisect_right(self.starts, offset) - 1)

    def offset_after(self, index: int) -> int:
        """The ``text`` offset just after token ``index``."""
        return self.starts[index] + len(self.tokens[index].text)


def _split_word(word: str, rules: Tokens) -> list[str]:
    """A word as the words the rules read (contractions, then prefixes, then suffixes)."""
    if word in rules.contractions:
        return list(rules.contractions[word])
    head: list[str] = []
    for prefix in sorted(rules.prefixes, key=len, reverse=True):
        if word.startswith(prefix) and len(word) > len(prefix):
            head = list(rules.prefixes[prefix])
            word = word[len(prefix) :]
            break
    for suffix in sorted(rules.suffixes, key=len, reverse=True):
        if word.endswith(suffix) and len(word) > len(suffix):
            stem = word[: -len(suffix)]
            return [*head, *_split_word(stem, rules), *rules.suffixes[suffix]]
    return [*head, word]


def split_word(word: str, lang: str) -> list[str]:
    """A folded word as the words the rules of ``lang`` read ("i've" -> ["i", "have"])."""
    return _split_word(word, grammar(reading_language(lang)).tokens)


@cache
def _openers(
    lang: str,
) -> tuple[dict[tuple[str, ...], Kind], frozenset[str], tuple[tuple[str, ...], ...]]:
    g = grammar(lang)
    words: dict[tuple[str, ...], Kind] = {}
    adverbs = frozenset(g.clauses.adverbs)
    for w in g.clauses.contrast:
        if w not in adverbs:  # at a break it opens nothing more than the break does
            words[tuple(w.split())] = "main"
    for w in g.clauses.times:
        words[tuple(w.split())] = "time"
    for w in g.clauses.conditions:
        words[tuple(w.split())] = "condition"
    questions = tuple(tuple(q.split()) for q in g.questions)
    return words, frozenset(g.clauses.joins), questions


def _starts_with(tokens: Sequence[Token], at: int, words: tuple[str, ...]) -> bool:
    return tuple(t.text for t in tokens[at : at + len(words)]) == words


@cache
def _months(code: str) -> frozenset[str]:
    """The month names a text in ``code`` is read with (its own and English, as dates are
    read: ``languages_for``), folded, of three letters or more ("april", "mai"). Read from
    the shipped tables: a run never builds them (babel stays unimported)."""
    return frozenset(name for name in months(languages_for(code)) if len(name) >= 3)


@lru_cache(maxsize=2048)
def clauses(text: str, lang: str) -> tuple[Clause, ...]:
    """The clauses of ``text`` (an Agent message in ``lang``; an unknown language is split
    with English data)."""
    code = reading_language(lang)
    g = grammar(code)
    runs: list[tuple[list[Token], str, int]] = []  # tokens, opener, sentence
    asked: set[int] = set()
    sentence = 0
    for line in re.finditer(r"[^\n]+", text):
        current: list[Token] = []
        opener = ""
        for token, mark in _tokens(line.group(), line.start(), g, _months(code)):
            if mark is None:
                current.append(token)
                continue
            if mark == ":" and len(current) == 1 and opener in ("", "*", "-"):
                continue  # a heading word: "Refund: processed", "Booked: Friday at 3"
            if current:
                runs.append((current, opener, sentence))
            current, opener = [], mark
            if mark in _SENTENCE_END:
                if mark == "?":
                    asked.add(sentence)
                sentence += 1
                opener = ""
        if current:
            runs.append((current, opener, sentence))
        sentence += 1
    return _finish(_cut_words(_appositions(runs, g), code), code, g, asked)


_APPOSED = re.compile(r"\d+(?:[.:/]\d*)*")


def _appositions(
    runs: list[tuple[list[Token], str, int]], g: Grammar
) -> list[tuple[list[Token], str, int]]:
    """Runs with a date or time set off by commas inside a clause joined again: "ich habe
    den Termin auf Samstag, 13 Uhr, verschoben", "am Freitag, den 20.03., zugestellt". A run
    that opens with a comma, holds a number and is all numbers, the language's
    ``time_words`` and short words (at most three letters: "den", "um", "at", "a las")
    belongs to the run before it, and so does the comma run after it."""
    time_words = frozenset(g.time_words)
    out: list[tuple[list[Token], str, int]] = []
    glue = False
    for tokens, opener, sentence in runs:
        apposed = (
            opener == ","
            and out
            and out[-1][2] == sentence
            and any(_APPOSED.fullmatch(t.text) for t in tokens)
            and all(
                _APPOSED.fullmatch(t.text) or t.text in time_words or len(t.text) <= 3
                for t in tokens
            )
        )
        if apposed or (glue and opener == "," and out and out[-1][2] == sentence):
            out[-1] = (out[-1][0] + tokens, out[-1][1], sentence)
            glue = bool(apposed)
            continue
        glue = False
        out.append((tokens, opener, sentence))
    return out


def _tokens(
    line: str, offset: int, g: Grammar, months: frozenset[str] = frozenset()
) -> list[tuple[Token, str | None]]:
    """(token, None) for a word, (placeholder, mark) for a clause break; ``months`` are the
    language's month names, folded (a day's full stop before one ends no sentence)."""
    folded, starts, ends = fold_map(line, accents=True)
    out: list[tuple[Token, str | None]] = []
    abbreviations = frozenset(g.tokens.abbreviations)
    opened = False
    for m in _TOKEN.finditer(folded):
        a, b = starts[m.start()] + offset, ends[m.end() - 1] + offset
        value = m.group()
        if m.lastgroup == "mark":
            original = line[a - offset]
            if value in _PARENS:
                # a parenthesis that opens with a subject is a clause of its own ("a 5.99
                # USD fee (it's only waived for defects)"); one around a name or an id is not
                # ("your session (A-5004) is cancelled")
                if value == "(":
                    after = _NEXT_WORD.match(folded, m.end())
                    opened = after is not None and after.group(1) in g.clauses.subjects
                if opened:
                    out.append((Token("", a, b), ","))
                opened = opened and value == "("
                continue
            if value in _KEEP:
                out.append((Token(value, a, b), None))
            elif value in _QUIET:
                continue
            elif value == "-" and original not in _TYPOGRAPHIC_DASHES:
                spaced = m.start() > 0 and folded[m.start() - 1] == " "
                if spaced or m.end() == len(folded) or folded[m.end() : m.end() + 1] == " ":
                    out.append((Token("", a, b), "-"))
            elif value == "." and out and out[-1][1] is None and out[-1][0].text in abbreviations:
                continue
            elif value == "." and _date_stop(out, folded, m.end(), months):
                continue  # "den 20.03., wie besprochen": a date, no sentence end
            else:
                out.append((Token("", a, b), _BREAKS.get(value, "-" if value == "-" else "*")))
            continue
        if m.lastgroup == "word" and g.tokens.accented:
            value = g.tokens.accented.get(normalise(line[a - offset : b - offset]), value)
        pieces = _split_word(value, g.tokens) if m.lastgroup == "word" else [value]
        out += [(Token(p, a, b), None) for p in pieces if p]
    return out


_DAY_MONTH = re.compile(r"\d{1,2}\.\d{1,2}")
_DAY = re.compile(r"\d{1,2}")
_NEXT = re.compile(r" (\w+)")


def _date_stop(
    out: list[tuple[Token, str | None]], folded: str, at: int, months: frozenset[str]
) -> bool:
    """Whether the full stop at ``at`` closes a day of a date, so no sentence ends there: a
    day and month before a comma ("auf Freitag, den 20.03., verschoben") or an ordinal day
    before a month's name ("Wenn Sie am 15. April zahlen, entstehen keine Kosten": one
    sentence, a condition)."""
    if not out or out[-1][1] is not None:
        return False
    day = out[-1][0].text
    if _DAY_MONTH.fullmatch(day) is not None and folded[at : at + 1] == ",":
        return True
    after = _NEXT.match(folded, at)
    return (
        _DAY.fullmatch(day) is not None
        and 1 <= int(day) <= 31
        and after is not None
        and after.group(1) in months
    )


def _cut_words(
    runs: list[tuple[list[Token], str, int]], lang: str
) -> list[tuple[list[Token], str, int, Kind]]:
    """Runs cut again before opening words: contrast, condition and time words, and joins
    followed by a new subject."""
    openers, joins, _ = _openers(lang)
    subjects = frozenset(grammar(lang).clauses.subjects)
    preps = frozenset(grammar(lang).clauses.time_prepositions)
    longest = max((len(k) for k in openers), default=0)
    out: list[tuple[list[Token], str, int, Kind]] = []
    inverted = [tuple(w.split()) for w in grammar(lang).clauses.inverted_conditions]
    asking = frozenset(grammar(lang).clauses.asking)
    tail: tuple[str, ...] = ()  # the last words of the run before, in its sentence
    last_sentence = -1
    for tokens, opener, sentence in runs:
        start, first = 0, opener
        kind: Kind = "main"
        carry = sentence == last_sentence and opener == "," and grammar(lang).clauses.asking_comma
        lead = tail[-1:] if carry else ()  # the verb right before the comma, no join after
        tail, last_sentence = tuple(t.text for t in tokens[-2:]), sentence
        if any(_starts_with(tokens, 0, w) for w in inverted):
            kind = "condition"  # "Had you cancelled earlier, ..."
        i = 0
        while i < len(tokens):
            hit: tuple[str, Kind] | None = None
            for n in range(longest, 0, -1):
                words = tuple(t.text for t in tokens[i : i + n])
                if len(words) == n and words in openers:
                    hit = (" ".join(words), openers[words])
                    break
            word = tokens[i].text
            after = tokens[i + 1].text if i + 1 < len(tokens) else ""
            if hit is None and word in joins | preps and after in subjects:
                hit = (word, "time" if word in preps else "main")
            if hit is not None and i > start:
                out.append((tokens[start:i], first, sentence, kind))
                start, first = i, hit[0]
            if hit is not None:
                kind = hit[1]
                if kind == "condition" and _asked_before(tokens, i, lead if i == 0 else (), asking):
                    kind = "indirect"
                i += len(hit[0].split())
            else:
                i += 1
        if start < len(tokens):
            out.append((tokens[start:], first, sentence, kind))
    return out


def _asked_before(
    tokens: Sequence[Token], i: int, lead: tuple[str, ...], asking: frozenset[str]
) -> bool:
    """Whether a verb of asking or checking stands within two words before token ``i`` (in
    the run, or, at its start, at the end of the run before it): "you asked me whether",
    "Sie hatten gefragt, ob"."""
    words = (*lead, *(t.text for t in tokens[max(0, i - 2) : i]))
    return any(w in asking for w in words[-2:])


def _finish(
    cut: list[tuple[list[Token], str, int, Kind]], lang: str, g: Grammar, asked: set[int]
) -> tuple[Clause, ...]:
    _, _, questions = _openers(lang)
    last_of: dict[int, int] = {}
    for n, (_, _, sentence, _) in enumerate(cut):
        last_of[sentence] = n
    conditional = [kind == "condition" for _, _, _, kind in cut]
    precautions = [tuple(w.split()) for w in g.clauses.precautions]
    for n, (tokens, opener, sentence, kind) in enumerate(cut):
        if kind != "condition":
            continue
        prior = n - 1
        governs = opener in (",", *g.clauses.conditions) and not any(
            _starts_with(tokens, 0, w) for w in precautions
        )
        if prior >= 0 and cut[prior][2] == sentence and governs:
            conditional[prior] = True
        for m in range(n + 1, len(cut)):
            _, next_opener, next_sentence, next_kind = cut[m]
            if next_sentence != sentence or next_kind == "condition":
                break
            if next_kind == "time":
                continue
            if next_opener != ",":
                break
            conditional[m] = True
    out = []
    asks_in: dict[int, bool] = {}
    before: dict[int, str] = {}
    last: dict[int, str] = {}
    for n, (tokens, opener, sentence, kind) in enumerate(cut):
        words = [t.text for t in tokens]
        text = " ".join(words)
        lead, previous = before.get(sentence, ""), last.get(sentence, "")
        before[sentence] = f"{lead} {text}".strip()
        last[sentence] = text
        starts, pos = [], 0
        for w in words:
            starts.append(pos)
            pos += len(w) + 1
        asks = (sentence in asked and last_of[sentence] == n) or any(
            _starts_with(tokens, 0, q) for q in questions
        )
        asks_in[n] = asks
        out.append(
            Clause(
                tuple(tokens),
                sentence,
                opener,
                kind,
                asks,
                conditional[n],
                text,
                tuple(starts),
                lead,
                previous,
            )
        )
    # a time clause is asked with the question it belongs to: "Before I cancel anything,
    # could you confirm your PIN?" neither cancels nor commits to cancelling
    # an indirect question is asked: "you asked whether it could be waived" waives nothing
    return tuple(
        replace(c, question=True)
        if c.kind == "indirect"
        or (
            c.kind == "time"
            and not c.question
            and any(asks_in[m] for m, (_, _, s, _) in enumerate(cut) if s == c.sentence)
        )
        else c
        for c in out
    )
