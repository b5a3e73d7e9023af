"""The run configuration: a YAML file under ``runs/`` that command-line flags override."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from supportsim.errors import InputError, Problem, ScenarioError


class Retries(BaseModel):
    model_config = ConfigDict(extra="forbid")
    max_attempts: int = Field(default=4, ge=1, le=20)
    base_delay_s: float = Field(default=0.5, ge=0)
    max_delay_s: float = Field(default=30.0, ge=0)


class RunConfig(BaseModel):
    """What to run. Every field can be set in the file; flags override the file."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    name: str = "run"
    """Readable name; the default run id is ``<name>-<UTC date and time>``."""
    scenarios: list[str] = ["scenarios"]
    """Scenario files or folders."""
    personas: str = "personas"
    """Folder of persona files."""
    tags: list[str] = []
    """Keep scenarios having any of these categories (empty: all)."""
    ids: list[str] = []
    """Keep only these scenario ids (empty: all)."""
    suite: str | None = None
    """A named selection from ``scenarios/suites.yaml``."""
    models_file: str | None = None
    """YAML file of named models (provider, model, base_url, prices, rate limits)."""
    agents: list[str] = ["oracle"]
    """Agents under test: oracle, openai:M, anthropic:M, a models-file name, http:URL,
    python:module:attr, langgraph:module:attr."""
    customer: str = "scripted"
    """The simulated Customer: scripted, or a model spec."""
    trials: int = Field(default=1, ge=1, le=1000)
    concurrency: int = Field(default=8, ge=1, le=4096)
    """Conversations in flight at once."""
    max_turns: int | None = Field(default=None, ge=1)
    """Override every scenario's max_turns."""
    timeout_s: float = Field(default=600.0, gt=0)
    """Wall-clock bound of one conversation."""
    call_timeout_s: float | None = Field(default=None, gt=0)
    """Bound of one model call (default: each model's timeout_s)."""
    retries: Retries = Retries()
    budget_usd: float | None = Field(default=None, ge=0)
    """Stop starting units when spend would exceed this."""
    deadline_s: float | None = Field(default=None, gt=0)
    """Stop starting units this many seconds after the start."""
    out: str = "runs"


def load_run_config(path: Path) -> RunConfig:
    """Parse a run config file; errors name the file and field (InputError)."""
    import yaml

    try:
        data: Any = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise InputError(f"{path}: cannot read run config: {exc}") from exc
    if not isinstance(data, dict):
        raise InputError(f"{path}: a run config is a mapping of fields")
    data.setdefault("name", path.stem)
    try:
        return RunConfig.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(
            [
                Problem(
                    str(path),
                    ".".join(str(p) for p in e["loc"]),
                    "unknown field" if e["type"] == "extra_forbidden" else e["msg"],
                )
                for e in exc.errors(include_url=False)
            ]
        ) from None
