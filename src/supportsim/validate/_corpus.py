"""The statement corpus: agent sentences written blind, each labelled with what it states.

The corpus is how supportsim knows its reading of agent text is right without tuning to its
own lexicons. It was written by people who had not read the lexicons or the matchers, in
every supported language, phrased as LLM support agents phrase things, and split by a hash
of each item's id into ``tune`` (what rules may be grown from) and ``holdout`` (what the
figures are reported on, never tuned on) before anything was tuned. ``supportsim
judge-eval`` measures the rule path or a statement judge against it; ``validate
--perturb`` draws its reworded and invalid variants from it.

Every item is labelled completely: a concept, fact, claim, promise or disclosure not listed
is not stated. ``near`` names concepts a careless reader might see (reported apart).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from supportsim._yaml import read_yaml
from supportsim.errors import Problem, ScenarioError
from supportsim.scenario import Action, PromiseKind

Split = Literal["tune", "holdout"]
SPLITS: tuple[Split, ...] = ("tune", "holdout")
LANGUAGES = ("en", "de", "es", "fr")
Concept = Literal[
    "refusing",
    "escalating",
    "refunding",
    "cancelling",
    "booking",
    "rescheduling",
    "confirming",
    "apologising",
    "asking_identity",
    "identity_mismatch",
    "sending",
    "waiving",
    "fee",
    "in_store",
    "asking_confirmation",
    "offering_goodwill",
]
ClaimKind = Action
"""A completed action stated as done: what ``forbidden:false_claim`` checks against the
actions the Agent's tool calls performed."""
DisclosureKind = Literal["identity_detail", "other_customer"]
CONCEPTS: tuple[str, ...] = Concept.__args__  # type: ignore[attr-defined]
CLAIMS: tuple[str, ...] = ClaimKind.__args__  # type: ignore[attr-defined]
PROMISES: tuple[str, ...] = PromiseKind.__args__  # type: ignore[attr-defined]
DISCLOSURES: tuple[str, ...] = DisclosureKind.__args__  # type: ignore[attr-defined]


class _Item(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FactLabel(_Item):
    """One typed fact, in the value form the statement means (one kind per label)."""

    money: float | None = None
    currency: str | None = None
    time: str | None = Field(default=None, pattern=r"^([01]\d|2[0-3]):[0-5]\d$")
    date: dt.date | None = None
    duration_hours: float | None = None
    percent: float | None = None
    id: str | None = None

    @property
    def kind(self) -> str:
        for kind in ("money", "time", "date", "duration_hours", "percent", "id"):
            if getattr(self, kind) is not None:
                return "duration" if kind == "duration_hours" else kind
        raise ValueError("a fact label names no kind")


class StatementContext(_Item):
    today: dt.date | None = None
    """What relative dates count from ("tomorrow", "this Friday", "the 18th")."""
    other_customer: dict[str, str | int | float] | None = None
    """Another customer's record, for ``other_customer`` disclosures."""


class Statement(_Item):
    """One agent message and everything it states."""

    id: str
    text: str
    context: StatementContext = StatementContext()
    concepts: list[Concept]
    near: list[Concept] = []
    facts: list[FactLabel]
    not_facts: list[FactLabel]
    claims: list[ClaimKind]
    promises: list[PromiseKind]
    discloses: list[DisclosureKind]

    @property
    def language(self) -> str:
        return self.id.split("-", 1)[0]


_ITEMS = TypeAdapter(list[Statement])


def _bundled(split: Split) -> Iterator[Path]:
    root = resources.files("supportsim.validate") / "corpus" / split
    for lang in LANGUAGES:
        path = Path(str(root / f"{lang}.yaml"))
        if path.is_file():
            yield path


def corpus_files(source: str | Path) -> list[Path]:
    """The files of a corpus: a bundled split by name (``tune``, ``holdout``), a folder of
    ``<lang>.yaml`` files, or one file.

    Raises:
        InputError: neither a split name nor an existing path.
    """
    if str(source) in SPLITS:
        return list(_bundled(str(source)))  # type: ignore[arg-type]
    path = Path(source)
    if path.is_dir():
        return sorted(path.glob("*.yaml"))
    if path.is_file():
        return [path]
    raise ScenarioError(
        [Problem(str(source), "", "not a corpus: give tune, holdout, a folder or a file")]
    )


def load_corpus(source: str | Path, languages: Sequence[str] = ()) -> list[Statement]:
    """Every statement of a corpus (``corpus_files``), optionally of some languages only.

    Raises:
        ScenarioError: a file that is not a list of statements, naming the file, the item
            and the field.
    """
    out: list[Statement] = []
    for path in corpus_files(source):
        doc, problems = read_yaml(path)
        if doc is None:
            raise ScenarioError(problems)
        try:
            items = _ITEMS.validate_python(doc.data or [])
        except ValidationError as exc:
            raise ScenarioError(doc.validation_problems(exc)[:20]) from None
        out += [s for s in items if not languages or s.language in languages]
    return out
