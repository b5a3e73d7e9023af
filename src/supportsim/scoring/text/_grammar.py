"""Language data for reading acts in Agent text: ``lexicons/<lang>.acts.yaml`` (package data).

What a language contributes to the clause-and-mode reading (``_clauses``, ``_modes``,
``_acts``) is data, so a language is added by writing a file, not code: how its words are
split (contractions, clitics), what starts a clause (contrast, condition and time words),
what negates, what asks, which auxiliaries mark done / committed / able / ..., how its verbs
inflect (paradigms), and the acts (refund, cancel, book, ...) with the verbs, nouns and state
phrases that name them. The file's header documents the format; this module is its model
(pydantic, so a bad file is a clear error naming the file and the field), the loader and
the inflection of verbs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from supportsim.errors import Problem, ScenarioError
from supportsim.scenario import Action, PromiseKind

Slot = Literal["base", "present", "past", "participle", "gerund", "future"]
"""A verb form's grammatical slot: the infinitive or bare form (``base``), another present
form (``present``: "refunds", "erstatte", "reembolso"), the simple past (``past``), the
perfect / passive participle (``participle``), the progressive form (``gerund``) and a
synthetic future (``future``: "reembolsaré", "rembourserai")."""
SLOTS: tuple[Slot, ...] = ("base", "present", "past", "participle", "gerund", "future")

Mode = Literal[
    "done",
    "doing",
    "committed",
    "state",
    "expected",
    "offered",
    "hypothetical",
    "asked",
    "conditional",
    "negated",
    "generic",
    "other",
    "none",
]
"""How a mention of an act is said: ``done`` (past, perfect, "is now cancelled"), ``doing``
("I'm transferring you now"), ``committed`` ("I'll refund"), ``state`` (a present state
with no act behind it: "there's no fee"), ``expected`` ("it should arrive Friday"),
``offered`` (an ability or offer: "I can refund it"), ``hypothetical`` ("we'd refund"),
``asked`` (a question: "shall I refund it?"), ``conditional`` ("if it's faulty, we refund
it"), ``negated``, ``generic`` (policy: "refunds go back to the card"), ``other`` (the
customer's or someone else's act) and ``none`` (an infinitive, an imperative, a bare noun)."""
MODES: tuple[Mode, ...] = Mode.__args__  # type: ignore[attr-defined]
ClaimKind = Action
"""A claim is a completed action, the same names a domain's tools perform."""
TIME = "<time>"
"""An ``objects`` entry that stands for any time expression: a clock time ("10:30", "3 pm"),
or one of the language's ``time_words`` (weekdays, months, "noon", "tomorrow")."""


def _no_bar(pattern: str) -> str:
    if "|" in pattern or not pattern.strip():
        raise ValueError(f"{pattern!r}: one non-empty pattern per list item, no '|'")
    return pattern


def _regex(fragment: str) -> str:
    try:
        re.compile(fragment)
    except re.error as exc:
        raise ValueError(f"{fragment!r} is not a valid regex: {exc}") from exc
    return fragment


Pattern = Annotated[str, AfterValidator(_no_bar)]
Regex = Annotated[str, AfterValidator(_regex)]


class _Model(BaseModel):
    model_config = ConfigDict(
        extra="forbid", frozen=True, use_attribute_docstrings=True, populate_by_name=True
    )


class Tokens(_Model):
    """How words are split before the rules read them."""

    contractions: dict[str, list[str]] = {}
    """Whole words read as several: ``can't: [can, not]``, ``du: [de, le]``."""
    suffixes: dict[str, list[str]] = {}
    """Word endings split off and read as words: ``"n't": [not]``, ``"'ll": [will]``."""
    prefixes: dict[str, list[str]] = {}
    """Word beginnings split off: ``"j'": [je]``, ``"n'": [ne]``."""
    abbreviations: list[str] = []
    """Words whose following full stop ends no sentence: ``dr``, ``nr``, ``sra``."""
    accented: dict[str, str] = {}
    """Words whose accent carries their grammar, written with it (lower case), and the word
    they are read as, so folding does not make them another word: ``"würde": wuerde`` (not
    the past "wurde"), ``"sí": "sí"`` (not the condition "si")."""


class Clauses(_Model):
    """Words that start a new clause (all lower case, accents stripped; several words allowed)."""

    contrast: list[str] = []
    """Contrast and cause: "but", "because", "aber", "porque", "car"."""
    adverbs: list[str] = []
    """Contrast words that open a clause only after a break (a comma, a sentence start):
    inside a clause they are adverbs (German "die Gebühr habe ich Ihnen aber erlassen",
    "ich habe den Fall deshalb weitergeleitet", where the conjunction takes a comma)."""
    conditions: list[str] = []
    """A clause that sets a condition: "if", "unless", "wenn", "si"; the clause it governs
    (after a comma, or before it) is conditional too."""
    asking: list[str] = []
    """Verbs of asking or checking: a condition word right after one (an object pronoun or
    a comma may come between) opens an indirect question, asked and not conditional ("you
    asked whether the fee could be waived", "Sie hatten gefragt, ob ...")."""
    asking_comma: bool = False
    """Whether a comma may stand between the verb of asking and its condition word (German
    punctuates "gefragt, ob"; in English "I've verified, if it matches, ..." the comma ends the
    verb's clause and the "if" is a real condition)."""
    precautions: list[str] = []
    """Conditions of precaution ("in case", "au cas où"): their clause is conditional, the
    clause before it is not ("I've noted it on file in case it happens again")."""
    inverted_conditions: list[str] = []
    """Openings that set a condition by inversion, at the start of a clause only: "had
    you", "should you" ("Had you cancelled earlier, ...")."""
    times: list[str] = []
    """A clause that says when: "once", "as soon as", "sobald", "cuando" (not conditional)."""
    time_prepositions: list[str] = []
    """Time words that are prepositions too ("before", "until"): they open a time clause
    only before a new subject ("before you arrive", not "before the test")."""
    joins: list[str] = []
    """Coordinators that start a clause when a new subject follows: "and", "und", "y", "et"."""
    subjects: list[str] = []
    """What a new subject starts with after a join: "I", "we", "the", "your"."""
    particles_last: bool = False
    """A verb's particle closes its clause, however far (German "ich schreibe Ihnen die
    10 € auf der nächsten Rechnung gut"); otherwise it must come within a few words
    ("paid you back")."""


class Negation(_Model):
    """What negates. Entries are regex fragments over folded, accent-stripped text, matched
    as whole words."""

    negators: list[Regex] = []
    """Negate what follows in the clause: "not", "never", "nicht", "nunca", "pas"."""
    noun_negators: list[Regex] = []
    """Negate only the noun phrase they open: "no", "without", "kein*", "sin", "aucun*"
    ("no fee applies" negates the fee, not the cancelling next to it)."""
    idioms: list[Regex] = []
    """Set phrases holding a negator that negate nothing: "no worries", "don't panic"."""
    offers: list[Regex] = []
    """Offers and questions that state nothing done: "would you like", "soll ich"."""
    requests: list[Regex] = []
    """Offers that ask the customer to act ("pourriez-vous me transmettre", "können Sie"):
    an act after one is the customer's, so no go-ahead for the Agent's act is asked."""
    after: list[Regex] = []
    """Said right after a mention, negating it: "is not necessary", "has been waived"."""
    trailing: bool = False
    """A negator after a verb in its clause negates it too: the finite verb comes second in
    German, its negation later ("Sie bekommen Ihr Geld nicht zurück", "wir erstatten die
    Versandkosten nicht")."""
    trailing_stops: list[str] = []
    """Coordinators after which a trailing negator negates the next verb, not the one before
    ("Ihre Bestellung ist storniert und wird nicht versendet": the sending is negated)."""


class Modes(_Model):
    """Auxiliaries and other words that decide a mention's mode (plain words, lower case,
    accents stripped, after contractions are split; several words allowed). The nearest one
    before the act's word in its clause decides; ``passive`` words pass on to the word
    before them ("has been refunded" is done, "will be refunded" committed)."""

    future: list[str] = []
    """Committed future: "will", "going to", "let me", "werde", "voy a", "vais"."""
    perfect: list[str] = []
    """Perfect auxiliaries (with a participle: done): "have", "haben", "he", "ai"."""
    copula: list[str] = []
    """Present of "be" (participle: done or, of a policy, generic; progressive: doing)."""
    support: list[str] = []
    """Present support verbs (with a base form: a present state): "do", "does"."""
    past: list[str] = []
    """Past auxiliaries and copulas (done): "was", "did", "wurde", "fue"."""
    passive: list[str] = []
    """Transparent auxiliaries: "be", "been", "being", "get", "worden"."""
    ability: list[str] = []
    """Ability and permission (offered): "can", "could", "may", "kann", "puedo", "peux"."""
    hypothetical: list[str] = []
    """Hypothetical: "would", "might", "wurde", "podria", "pourrais"."""
    expectation: list[str] = []
    """Expectation (expected): "should", "sollte", "deberia", "devrait"."""
    obligation: list[str] = []
    """Present obligation (none): "must", "need to", "muss", "tiene que"."""
    past_obligation: list[str] = []
    """Past obligation (done): "had to", "musste", "tuve que"."""
    infinitive: list[str] = []
    """Infinitive markers (none): "to", "zu", "de"."""
    causative: list[str] = []
    """Verbs before an infinitive marker that pass the mode on ("I'll get someone to call")."""
    imperative: list[str] = []
    """Imperative markers (the customer's act, none): "please", "bitte"."""
    desire: list[str] = []
    """Wanting (none): "want", "like", "prefer" ("you want your plan switched")."""
    reported: list[str] = []
    """Verbs of saying and thinking: after the customer as their subject, what follows is
    the customer's word, not the Agent's (other): "you mentioned you were refunded"."""
    generic: list[str] = []
    """Adverbs of habit and policy in the clause (generic): "usually", "normalerweise"."""
    now: list[str] = []
    """Words that make a present state a change just made: "now", "jetzt", "ya"."""
    customer: list[str] = []
    """The customer as the subject of an active act (other): "you", "Sie"."""
    others: list[str] = []
    """Third persons as a subject: "they", "ellos", "ils". Their act is no request of the
    customer's completed ("they cancelled it"), their words are reported ("they said")."""
    records: list[str] = []
    """Records and systems whose content is reported, not the Agent's own statement ("the
    system shows it was refunded", "laut System", "el sistema muestra")."""
    specific: list[str] = []
    """Determiners and pronouns that make a present-tense subject a particular thing, not a
    policy ("your order is cancelled" vs "orders are cancelled after 30 days")."""
    unable: list[str] = []
    """Predicates of possibility (offered): "possible", "available", "eligible"."""
    first_person: list[str] = []
    """The Agent's own pronouns: "I", "we", "ich", "wir"."""
    determiners: list[str] = []
    """Words that make the verb form after them (at most two words after) a noun: "the
    refund", "a bank transfer", "your full refund"."""
    pronouns: list[str] = []
    """Subject pronouns: a noun form right after one is a verb ("we charge a fee")."""
    existential: list[str] = []
    """The existential subject: "there" ("there won't be any fee": no fee, a state)."""
    prepositions: list[str] = []
    """Prepositions: a verb form right after one is a noun too ("by post", "via email")."""
    agent: list[str] = []
    """The word that introduces a passive's agent: "by" ("cancelled by the clinic")."""


class Paradigm(_Model):
    """One inflection class: a lemma ending in ``ending`` (a regex, matched at the end) has
    that ending replaced by each suffix of each slot."""

    ending: Regex = ""
    forms: dict[Slot, list[str]]


class Trigger(_Model):
    """One verb, noun or state phrase of an act, with the conditions it needs."""

    word: Pattern
    """The lemma (verbs), the noun (one or more words), or the state pattern (lexicon
    pattern syntax: ``*`` for any ending, ``~`` for one word)."""
    forms: dict[Slot, list[str]] = {}
    """Verbs: forms the paradigms get wrong or lack (replacing the slot's forms)."""
    particle: list[str] = []
    """Verbs: one of these words must follow in the clause ("pay ... back", "call off")."""
    objects: list[Pattern | list[Pattern]] = []
    """Words the clause must hold: one of the plain entries, and one of each nested list
    (``[credit, discount, [you, your]]``: a credit or a discount, and you or your).
    ``<time>`` stands for any time expression."""
    subjects: list[Pattern] = []
    """One of these must occur in the clause before the word."""
    with_: list[Pattern] = Field(default=[], alias="with")
    """One of these must occur in the sentence."""
    without: list[Pattern] = []
    """None of these may occur in the sentence."""
    receipt: bool = False
    """The customer may be the subject: "you'll get your money back", "you'll receive"."""
    copula: bool = True
    """Nouns: a copula after it states it ("the cancellation is confirmed"); false for
    nouns that name a thing as often as the act ("your email address is on file")."""


Entry = Trigger | Pattern


class Act(_Model):
    """One act: what it states, and the words that name it."""

    concept: str | None = None
    """The concept a stated mention states (``refunding``)."""
    claim: ClaimKind | None = None
    """The claim a mention in ``claim_modes`` makes (``refunded``)."""
    promise: PromiseKind | None = None
    """The promise a mention in ``promise_modes`` makes (``refund``)."""
    concept_modes: list[Mode] = ["done", "doing", "committed"]
    claim_modes: list[Mode] = ["done", "doing"]
    promise_modes: list[Mode] = ["committed"]
    confirms: bool = False
    """A done mention also states ``confirming`` (the customer's request is complete)."""
    negated_as: str | None = None
    """The act a negated mention states instead ("no fee", "won't be charged": waive)."""
    cancels: list[str] = []
    """Acts whose mentions in the same clause a stated mention of this one cancels
    ("I've waived the fee" states no fee)."""
    verbs: list[Entry] = []
    nouns: list[Entry] = []
    """Nouns (all their forms) stated through a ``light`` verb or a copula."""
    light: list[Entry] = []
    """Support verbs that state a noun of the act: "issue a refund", "the refund went through"."""
    states: list[Entry] = []
    """Patterns stating the act's result, read like a participle: "back on your card"."""
    unless: list[Pattern] = []
    """Patterns that, covering a mention, cancel it: "fully booked", "booked up"."""
    examples: list[str] = []
    """Plain phrases that state the concept (rewording; each is tested to be read)."""


class Identity(_Model):
    """How the language names a caller's identity details and judges them: the
    ``identity_detail`` disclosure (``_identity``). Entries are lexicon patterns (``*`` any
    ending, ``~`` one word) in the words the tokenizer reads ("isn't" is "is not")."""

    details: list[Pattern] = []
    """The nouns of identity details: "date of birth", "PIN", "postcode", "Kundennummer"."""
    right: list[Pattern] = []
    """Predicates that judge a detail right: "correct", "fine", "matches", "stimmt", "coincide";
    negated they judge it wrong ("doesn't match", "no coincide", "n'est pas le bon")."""
    wrong: list[Pattern] = []
    """Predicates that judge a detail wrong: "wrong", "off", "swapped", "different", "typo",
    "falsch", "vertauscht", "erróneo", "inversé"."""
    generic: list[Pattern] = []
    """Words that, just before a detail or between it and the predicate, make the judgement
    about details in general: "details", "information", "records", "Angaben", "datos"."""
    requests: list[Pattern] = []
    """Words that, just before a detail or between it and the predicate, ask for it: "please",
    "could you", "make sure", "bitte", "por favor", "veuillez"."""
    joins: list[Pattern] = []
    """Words that join details into a list ("name and date of birth"): a list names no
    single detail."""
    compared: list[Pattern] = []
    """Words between a predicate and a detail after it that make the detail what something
    else is compared with, not the one judged: "the parcel doesn't match your address"
    ("your", "with", "to", "à", "con")."""
    withheld: list[Pattern] = []
    """Verbs of telling that, negated before a detail, withhold the judgement: "I can't tell
    you whether the PIN is right" ("tell", "say", "confirm", "sagen", "decir", "dire")."""
    pronouns: list[Pattern] = []
    """Pronouns that carry a detail into the next clause of its sentence: "thanks for the PIN,
    but it doesn't match" ("it", "that", "es", "elle")."""
    unless: list[Pattern] = []
    """Phrases that, covering a predicate, make it no judgement of a detail: "right away", "you
    are right", "I made a mistake", "me he equivocado"."""
    parts: list[Pattern] = []
    """Links from a part of a detail to the detail ("of your", "de su", "de votre"): the
    words before one name a part ("swapped the day and the month of your date of birth"),
    which is the detail judged, not words between it and the predicate."""
    examples: list[str] = []
    """Plain phrases that name a wrong detail (rewording; each is tested to be read)."""


class Private(_Model):
    """What makes a word of another customer's record no secret of theirs: the
    ``other_customer_data`` disclosure's distinctive tokens (``_private``). Plain words,
    folded (lower case, accents stripped)."""

    common: list[str] = []
    """Words of records that identify no one: street and plan words, card brands ("street",
    "avenue", "plan", "unlimited", "visa", "strasse", "calle", "forfait"). Next to a token
    in a message, one its value does not hold makes it another thing: "Chapel Street" is
    not "9 Chapel Row"."""
    titles: list[str] = []
    """Words of address before a name ("mrs", "herrn", "sra", "mme"): no one's secret, and
    no other thing next to a name."""
    places: list[str] = []
    """The company's own sites: a value named right next to one ("our Seattle store", "notre
    magasin de l'avenue Foch") names the site, not a customer's record."""


class Grammar(_Model):
    """One language's data for the clause-and-mode reading."""

    tokens: Tokens = Tokens()
    clauses: Clauses = Clauses()
    negation: Negation = Negation()
    questions: list[str] = []
    """Clause openings that ask (plain words): "would you", "soll ich", "puede"."""
    modes: Modes = Modes()
    bare: dict[Slot, Mode] = {}
    """The mode of a verb form with no marker before it in its clause (default none)."""
    time_words: list[str] = []
    implies: dict[str, list[str]] = {}
    """Concepts whose phrases state another concept too: ``identity_mismatch:
    [identity_detail_wrong]`` (naming the detail that is wrong says the details do not
    match)."""
    identity: Identity = Identity()
    private: Private = Private()
    paradigms: list[Paradigm] = []
    acts: dict[Annotated[str, Field(pattern=r"^[a-z][a-z_]*$")], Act] = {}


def trigger(entry: Entry) -> Trigger:
    """A list entry as a Trigger (a plain string is a bare word)."""
    return entry if isinstance(entry, Trigger) else Trigger(word=entry)


def inflect(verb: Trigger, paradigms: list[Paradigm]) -> dict[Slot, frozenset[str]]:
    """Every form of a verb by slot: the first paradigm whose ending the lemma ends with,
    then the verb's own ``forms`` in place of that slot's."""
    lemma = verb.word
    out: dict[Slot, frozenset[str]] = {}
    for paradigm in paradigms:
        m = re.search(f"(?:{paradigm.ending})$", lemma)
        if m is None:
            continue
        stem = lemma[: m.start()]
        out = {slot: frozenset(stem + s for s in sufs) for slot, sufs in paradigm.forms.items()}
        break
    out.setdefault("base", frozenset({lemma}))
    for slot, forms in verb.forms.items():
        out[slot] = frozenset(forms)
    return out


FAST_LOADER: type[yaml.CSafeLoader] | type[yaml.SafeLoader] = getattr(
    yaml, "CSafeLoader", yaml.SafeLoader
)
"""libyaml's safe loader when PyYAML was built with it, else the pure-Python one: the
bundled language data is read before a run's first score, and the pure-Python parser took
a second over it."""


class _Loader(FAST_LOADER):  # type: ignore[valid-type,misc]  # a base chosen at import
    """YAML with only true/false as booleans: "no", "on" and "off" are words here."""


_BOOL = "tag:yaml.org,2002:bool"
_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != _BOOL]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    _BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def load_grammar(path: Path | Traversable) -> Grammar:
    """Read and validate one language data file. Raises ScenarioError naming the file and
    the field of every problem."""
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    except yaml.YAMLError as exc:
        raise ScenarioError([Problem(str(path), "", f"not valid YAML: {exc}")]) from exc
    try:
        grammar = Grammar.model_validate(raw or {})
    except ValidationError as exc:
        problems = [
            Problem(str(path), ".".join(str(p) for p in e["loc"]), e["msg"]) for e in exc.errors()
        ]
        raise ScenarioError(problems) from exc
    problems = [
        Problem(str(path), f"acts.{name}.negated_as", f"no act {act.negated_as!r}")
        for name, act in grammar.acts.items()
        if act.negated_as is not None and act.negated_as not in grammar.acts
    ]
    if problems:
        raise ScenarioError(problems)
    return grammar


def grammar_path(lang: str) -> Traversable:
    return resources.files("supportsim.scoring.text").joinpath("lexicons", f"{lang}.acts.yaml")


@cache
def grammar(lang: str) -> Grammar:
    """The bundled language data of ``lang`` (read once; a language without a file reads
    nothing, which the reading treats as English-only)."""
    path = grammar_path(lang)
    if not path.is_file():
        return Grammar()
    return load_grammar(path)


def act_concepts(lang: str) -> Mapping[str, list[str]]:
    """concept -> the acts of ``lang`` that state it."""
    out: dict[str, list[str]] = {}
    for name, act in grammar(lang).acts.items():
        if act.concept is not None:
            out.setdefault(act.concept, []).append(name)
        if act.confirms:
            out.setdefault("confirming", []).append(name)
    return out


def reading_language(lang: str) -> str:
    """The language whose data reads text in ``lang``: its own when bundled, else English."""
    return lang if grammar_path(lang).is_file() else "en"
