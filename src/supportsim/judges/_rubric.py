"""The rubric: what judges grade, criterion by criterion, plus an overall pass/fail.

The default rubric ships as ``default_rubric.yaml`` in this package; ``--rubric FILE``
replaces it. The rubric's hash is stored with every judgment, so judgments made under
another rubric are never mixed into this rubric's statistics.
"""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path
from typing import Annotated

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from supportsim._yaml import Document, parse_yaml, read_yaml
from supportsim.errors import Problem, ScenarioError

OVERALL = "overall"
"""The id of the overall pass/fail verdict every rubric has."""

CriterionId = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]


class Criterion(BaseModel):
    """One thing a judge rules pass or fail on."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    id: CriterionId
    """Short snake_case id; the key of the verdict and of human labels."""
    question: str = Field(min_length=1)
    """What the judge decides, phrased so that yes means pass."""


class Rubric(BaseModel):
    """A rubric file."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    name: str = Field(min_length=1)
    instructions: str = Field(min_length=1)
    """The judge's brief, before the criteria."""
    criteria: list[Criterion] = Field(min_length=1)
    overall: str = Field(min_length=1)
    """When the conversation passes overall (the verdict agreement statistics centre on)."""

    @field_validator("criteria")
    @classmethod
    def _unique(cls, criteria: list[Criterion]) -> list[Criterion]:
        ids = [c.id for c in criteria]
        if OVERALL in ids:
            raise ValueError(f"{OVERALL!r} is reserved: write it as the top-level `overall`")
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ValueError(f"duplicate criterion id(s): {', '.join(duplicates)}")
        return criteria

    @property
    def criterion_ids(self) -> list[str]:
        """Every verdict key, the criteria's then ``overall``."""
        return [*(c.id for c in self.criteria), OVERALL]

    @property
    def sha256(self) -> str:
        """Hash of the rubric's content (not of its file's bytes: comments do not count)."""
        canonical = orjson.dumps(self.model_dump(mode="json"), option=orjson.OPT_SORT_KEYS)
        return hashlib.sha256(canonical).hexdigest()


def _parse(doc: Document | None, problems: list[Problem]) -> Rubric:
    if doc is None or problems:
        raise ScenarioError(problems)
    if not isinstance(doc.data, dict):
        message = "a rubric is a mapping (name, instructions, criteria, overall)"
        raise ScenarioError([doc.problem((), message)])
    try:
        return Rubric.model_validate(doc.data)
    except ValidationError as exc:
        raise ScenarioError(doc.validation_problems(exc)) from None


def default_rubric() -> Rubric:
    """The rubric that ships with supportsim."""
    text = resources.files("supportsim.judges").joinpath("default_rubric.yaml").read_text("utf-8")
    return _parse(*parse_yaml(text, "default_rubric.yaml"))


def load_rubric(path: Path) -> Rubric:
    """Read a rubric file; errors name the file, the line and the field (InputError)."""
    return _parse(*read_yaml(path))
