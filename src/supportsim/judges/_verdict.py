"""The structured verdict: a pydantic model per rubric, asked for as a structured answer.

The verdict's schema is generated from the pydantic model and sent as the ``submit_verdict``
tool in ``LLMRequest.structured``: the client asks for a forced call of it (OpenAI's and
Anthropic's own APIs) or for ``response_format`` JSON schema output (OpenAI-compatible
servers, see ``supportsim.llm._structured``). The reply is read leniently, because small
open models answer a forced call in text: the call's arguments, else a fenced JSON block,
``submit_verdict({...})`` written out, or bare JSON. Whatever the shape, the verdict is
only accepted when it validates against the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, field_validator

from supportsim.judges._rubric import OVERALL, Rubric
from supportsim.llm import LLMResponse, ToolSpec, structured_candidates

TOOL_NAME = "submit_verdict"
JUSTIFICATION_MAX = 2000


class CriterionVerdict(BaseModel):
    """One criterion's ruling; the justification comes first so the judge reasons first."""

    model_config = ConfigDict(extra="forbid")

    justification: str = Field(
        min_length=1,
        max_length=JUSTIFICATION_MAX,
        description="One or two sentences citing the evidence in the transcript.",
    )
    verdict: Literal["pass", "fail"] = Field(description="pass or fail")

    @field_validator("verdict", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        # "PASS" or " Pass" is a verdict, not a malformed answer worth a retry.
        return value.strip().lower() if isinstance(value, str) else value


def verdict_model(rubric: Rubric) -> type[BaseModel]:
    """The pydantic model of a verdict under ``rubric``: one field per criterion."""
    fields: dict[str, Any] = {
        c.id: (CriterionVerdict, Field(description=c.question)) for c in rubric.criteria
    }
    fields[OVERALL] = (CriterionVerdict, Field(description=rubric.overall))
    return create_model("Verdict", __config__=ConfigDict(extra="forbid"), **fields)


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """Replace ``$ref``s by their definitions: some servers reject ``$defs`` in tools."""
    if isinstance(node, dict):
        if "$ref" in node:
            target = defs[str(node["$ref"]).rsplit("/", 1)[-1]]
            merged = {**_inline(target, defs), **{k: v for k, v in node.items() if k != "$ref"}}
            return merged
        return {k: _inline(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def _strip_titles(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip_titles(v) for k, v in node.items() if k != "title"}
    if isinstance(node, list):
        return [_strip_titles(v) for v in node]
    return node


def verdict_tool(rubric: Rubric) -> ToolSpec:
    """The ``submit_verdict`` tool whose arguments are the verdict."""
    schema = verdict_model(rubric).model_json_schema()
    parameters = _strip_titles(_inline(schema, schema.get("$defs", {})))
    return ToolSpec(
        name=TOOL_NAME,
        description=(
            "Submit your verdict on the conversation: for every criterion a short "
            "justification and pass or fail. Call it exactly once."
        ),
        parameters=parameters,
    )


@dataclass(frozen=True, slots=True)
class Parsed:
    """A validated verdict (criterion -> {verdict, justification}) or why there is none."""

    verdicts: dict[str, dict[str, str]] | None
    problem: str | None


def parse_verdict(model: type[BaseModel], response: LLMResponse) -> Parsed:
    """Validate a judge's reply: one ``submit_verdict`` call, or the verdict as JSON text
    (see the module docstring); the first candidate that fits ``model`` is the verdict."""
    calls = [c for c in response.tool_calls if c.name == TOOL_NAME]
    if len(calls) > 1:
        return Parsed(None, f"{TOOL_NAME} was called {len(calls)} times; call it once")
    candidates = structured_candidates(response, TOOL_NAME)
    if not candidates:
        said = response.content.strip()[:200]
        return Parsed(
            None, f"no {TOOL_NAME} call" + (f" (replied with text: {said!r})" if said else "")
        )
    first: ValidationError | None = None
    for text in candidates:
        try:
            verdict = model.model_validate_json(text or "{}")
        except ValidationError as exc:
            first = first or exc
            continue
        return Parsed(verdict.model_dump(mode="json"), None)
    assert first is not None
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
        for e in first.errors(include_url=False)[:10]
    )
    return Parsed(None, f"invalid {TOOL_NAME} arguments: {problems}")
