"""``supportsim`` commands in process (typer's ``CliRunner``) against the threaded mock
server, as the end-to-end batch tests run them: the provider variables point at the
server, the terminal is wide enough that no asserted line wraps.

One home for what test_customers_run.py, test_judged_customer_review.py,
test_statement_judge_run.py and the customer review tests each had a copy of.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from supportsim.cli import app
from supportsim.testing import MockLLMServer

REPO = Path(__file__).parents[2]
REFUND = REPO / "tests" / "batch" / "scenarios" / "refund.yaml"
"""The refund scenario (mock-duplicate-refund)."""
PERSONAS = REPO / "tests" / "fixtures" / "personas"


def server_env(
    server: MockLLMServer, *, key: str = "sk-test", anthropic: bool = False
) -> dict[str, str]:
    """OpenAI's variables pointing at ``server`` (and Anthropic's, when asked: a test of a
    missing ``ANTHROPIC_API_KEY`` needs them absent)."""
    env = {"OPENAI_API_KEY": key, "OPENAI_BASE_URL": server.url + "/v1"}
    if anthropic:
        env |= {"ANTHROPIC_API_KEY": f"{key}-ant", "ANTHROPIC_BASE_URL": server.url}
    return env


def cli(
    server: MockLLMServer | None,
    *args: str,
    columns: int = 200,
    key: str = "sk-test",
    anthropic: bool = False,
) -> Any:
    """One command, its ``Result`` (exit code, output); ``server`` None: no provider
    variables at all (a command that must call no model)."""
    env = {"COLUMNS": str(columns)}
    if server is not None:
        env |= server_env(server, key=key, anthropic=anthropic)
    return CliRunner().invoke(app, list(args), env=env)
