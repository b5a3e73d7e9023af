"""``supportsim`` commands in process (typer's ``CliRunner``) against the threaded mock
server, as the end-to-end batch tests run them: the provider variables point at the
server, the terminal is wide enough that no asserted line wraps.

One home for what test_customers_run.py, test_judged_customer_review.py,
test_statement_judge_run.py and the customer review tests each had a copy of: the command,
a ``run`` of the refund scenario, a rescore that must make no call, and a scripted judge.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from supportsim.cli import app
from supportsim.testing import (
    MockLLMServer,
    RecordedRequest,
    Reply,
    asked_question,
    autopilot,
    http_error,
    is_statement_request,
    verdict,
)

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


def run(
    server: MockLLMServer,
    out: Path,
    *extra: str,
    run_id: str = "r",
    personas: Path = PERSONAS,
    key: str = "sk-test",
    anthropic: bool = False,
) -> tuple[Any, Path]:
    """``run`` of the refund scenario into ``out``/``run_id`` with ``extra`` options: the
    command's ``Result`` and the run's folder."""
    args = ["--scenarios", str(REFUND), "--personas", str(personas), "--out", str(out)]
    result = cli(server, "run", *args, "--run-id", run_id, *extra, key=key, anthropic=anthropic)
    return result, out / run_id


def rescore_without_calls(server: MockLLMServer, run_dir: Path, *extra: str) -> Any:
    """``rescore`` of ``run_dir`` where any model call would fail it: asserts it succeeded
    and called nothing, and returns its ``Result``."""
    server.clear()
    server.default(None, lambda _r: http_error(500))
    result = cli(server, "rescore", str(run_dir), *extra)
    assert result.exit_code == 0, result.output
    assert server.requests() == []
    return result


Answer = Callable[[tuple[tuple[int, str], ...]], Reply]
"""A scripted judge's answer to one question, from the question's (index, text) messages."""


def quoting(text: str, *, whole: bool = False, reason: str = "scripted") -> Answer:
    """``yes``, quoting the first message that holds ``text``: ``text`` itself, or that
    message whole (``whole``, so the quote is verbatim); index 0 when no message holds it."""

    def answer(messages: tuple[tuple[int, str], ...]) -> Reply:
        n, held = next(((n, t) for n, t in messages if text in t), (0, text))
        return verdict("yes", (n, held if whole else text), reason=reason)

    return answer


class ScriptedJudge:
    """A statement judge on the mock server: answers each question by its check id with a
    scripted ``Answer``, every other question ``no``; any other request is the autopilot's.
    ``asked`` lists the check ids asked, in order."""

    def __init__(self, answers: Mapping[str, Answer]) -> None:
        self.answers = answers
        self.asked: list[str] = []

    def __call__(self, request: RecordedRequest) -> Reply:
        if not is_statement_request(request):
            return autopilot(request)
        question = asked_question(request)
        self.asked.append(question.check_id)
        answer = self.answers.get(question.check_id)
        return answer(question.messages) if answer else verdict("no", reason="not stated")
