"""The words the customer review reads in Customer messages, per language (en, de, fr,
es; English is always read too, as Customers fall back to it).

Kept small and literal on purpose: a false finding hides an Agent failure (it can make a
unit ``customer_hindered``), which is worse than a missed one, so each table holds only
phrases that say one thing. The Agent's confirmation questions are read with the scoring
lexicon's ``asking_confirmation`` concept, the one the scorer uses.
"""

from __future__ import annotations

import re
from functools import lru_cache

from supportsim.scoring.text._lexicon import find_phrase
from supportsim.scoring.text._text import fold

_DONE = {
    "en": (
        r"that'?s all(?! (i|we) (know|have|remember|got|can))|that is all(?! i)|"
        r"that'?s everything|nothing else|no,? that'?s it|"
        r"(good)?bye|have a (good|nice|great) day|(please|you can|go ahead and) "
        r"(end|close) (the|this) (chat|conversation)|end_conversation|end the chat"
    ),
    "de": r"das (ist|war) alles|sonst nichts|auf wiedersehen|tschuss|schonen tag noch",
    "fr": r"c'?est tout|rien d'?autre|au revoir|bonne journee",
    "es": r"eso es todo|nada mas|adios|que tenga un buen dia",
}
"""A Customer saying it is finished (accents folded away)."""
_ACCEPT = {
    "en": (
        r"\b(ok(ay)?|fine|sure|yes|yeah|deal|sounds good|that works|works for me|"
        r"i'?ll take|i accept|go ahead|please do)\b"
    ),
    "de": r"\b(ok(ay)?|ja|einverstanden|gut|in ordnung|passt|machen sie das|gerne)\b",
    "fr": r"\b(ok|oui|d'?accord|tres bien|ca me va|allez-y|volontiers)\b",
    "es": r"\b(ok|vale|si|de acuerdo|esta bien|me parece bien|adelante)\b",
}
_REFUSE = {
    "en": (
        r"\b(no|not|don'?t|won'?t|rather|instead|refuse|unacceptable|doesn'?t|does not|"
        r"can'?t|cannot|isn'?t|never)\b"
    ),
    "de": r"\b(nein|nicht|kein|keine|lieber|stattdessen)\b",
    "fr": r"\b(non|pas|plutot|refuse)\b",
    "es": r"\b(no|prefiero|rechazo)\b",
}
_IDENTITY = {
    "en": (
        r"(customer|account|order|member)\s*(id|number|no\.?)|date of birth|\bdob\b|"
        r"(security )?pin\b|e-?mail( address)?|post ?code|zip( code)?|phone number|"
        r"last (four|4) digits"
    ),
    "de": r"kundennummer|geburtsdatum|\bpin\b|bestellnummer|e-?mail|postleitzahl",
    "fr": r"numero (de )?client|date de naissance|\bcode\b|numero de commande|e-?mail",
    "es": r"numero de cliente|fecha de nacimiento|\bpin\b|numero de pedido|correo",
}
_YOUR = {
    "en": (
        r"\b(provide|give|send|tell|share|confirm|verify)\b[^.?!]{0,20}\byour\b|"
        r"\b(what is|what'?s|may i have|can i have|could i have|i need)\b[^.?!]{0,10}\byour\b"
    ),
    "de": r"\b(ihre|ihr|deine|dein)\b",
    "fr": r"\b(votre|vos|ton|ta)\b",
    "es": r"\b(su|sus|tu)\b",
}
"""A request for the other side's details (the Agent's own question, asked back)."""


def _langs(lang: str) -> tuple[str, ...]:
    return ("en",) if lang == "en" or lang not in _DONE else (lang, "en")


@lru_cache(maxsize=16)
def _regex(table: str, lang: str) -> re.Pattern[str]:
    source = {"done": _DONE, "accept": _ACCEPT, "refuse": _REFUSE}[table]
    return re.compile("|".join(f"(?:{source[x]})" for x in _langs(lang)))


def folded(text: str) -> str:
    """Lower case, accents and typographic quotes folded (what the tables are written in)."""
    return fold(text, accents=True)[0].replace("\u2019", "'")


def says_done(text: str, lang: str) -> bool:
    """The message says the Customer is finished ("that's all, goodbye")."""
    return _regex("done", lang).search(folded(text)) is not None


def accepts(text: str, lang: str) -> bool:
    """The message agrees (an acceptance word, and no refusal word anywhere in it)."""
    f = folded(text)
    return _regex("accept", lang).search(f) is not None and not refuses(text, lang)


def refuses(text: str, lang: str) -> bool:
    """The message holds a refusal or negation word."""
    return _regex("refuse", lang).search(folded(text)) is not None


def asks_for_identity(text: str, lang: str) -> str | None:
    """The sentence of a request for the other side's identity details ("please provide
    me with your customer id"): a request word, then "your" and, at most two words on, an
    identity detail; outside English, a question (or a "please") with "Ihre"/"votre"/"su"
    and the detail. None when there is none."""
    for sentence in re.split(r"(?<=[.?!])\s+|\n", folded(text)):
        for x in _langs(lang):
            for ask in re.finditer(_YOUR[x], sentence):
                rest = sentence[ask.end() :]
                detail = re.match(rf"\s*(?:\w+\s+){{0,2}}?(?:{_IDENTITY[x]})", rest)
                polite = "?" in sentence or re.search(r"bitte|por favor|s'?il vous", sentence)
                if detail is not None and (x == "en" or polite):
                    return sentence.strip()
    return None


def asks_go_ahead(text: str, lang: str) -> bool:
    """An Agent message that asks the Customer's go-ahead ("shall I go ahead?"): the
    scoring lexicon's ``asking_confirmation`` concept, in a message with a question mark."""
    return "?" in text and (
        find_phrase("asking_confirmation", text, lang) is not None
        or _GO_AHEAD.search(folded(text)) is not None
    )


_GO_AHEAD = re.compile(
    r"\b(should i|ok(ay)? to|may i go ahead|can i go ahead|soll ich|dois-je|debo)\b"
)
"""Go-ahead questions the lexicon's concept leaves out ("Should I refund the duplicate?",
"Okay to refund 30 USD?")."""


def mentions(text: str, phrase: str) -> bool:
    """``phrase`` (folded) occurs in ``text`` as whole words."""
    words = folded(phrase).strip()
    return bool(words) and re.search(rf"(?<!\w){re.escape(words)}(?!\w)", folded(text)) is not None
