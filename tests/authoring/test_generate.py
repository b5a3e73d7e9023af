"""`supportsim generate` over the mock server: only valid, oracle-solvable drafts are kept."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from supportsim.authoring import generate, submitted_yaml, write_drafts
from supportsim.domains import mock
from supportsim.llm import LLMResponse, ModelPool, ToolCall, parse_model_spec
from supportsim.scenario import load_personas
from supportsim.testing import MockLLMServer, call, say

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GOOD = (FIXTURES / "scenarios" / "mock_duplicate_refund.yaml").read_text(encoding="utf-8")


def _variant(**changes: object) -> str:
    data = yaml.safe_load(GOOD)
    data.update(changes)
    return yaml.safe_dump(data, sort_keys=False)


def _broken_oracle() -> str:
    data = yaml.safe_load(GOOD)
    data["id"] = "mock-oracle-cannot-pass"
    data["workflow"][-1]["say"] = ["a phrase the oracle text lacks"]
    return yaml.safe_dump(data, sort_keys=False)


async def test_generate_keeps_only_drafts_that_validate_and_pass_the_oracle(
    tmp_path: Path,
) -> None:
    domains = {"mock": mock.domain()}
    personas = load_personas([FIXTURES / "personas"])
    async with MockLLMServer() as server:
        server.script(
            "author",
            [
                say("Here is a scenario: id: x"),  # no tool call: nothing submitted
                call_reply("id: [unclosed"),  # not YAML
                call_reply(_variant(id="mock-unknown-tool", tools=["refund_charge", "teleport"])),
                call_reply(_broken_oracle()),
                call_reply(_variant(id="mock-duplicate-refund")),  # id already taken
                call_reply(_variant(id="mock-generated-refund")),
            ],
        )
        pool = ModelPool(env={"OPENAI_API_KEY": "test", "OPENAI_BASE_URL": server.url + "/v1"})
        config = parse_model_spec("openai:author", {})
        from supportsim.domains import DomainCatalogue
        from supportsim.scenario import load_scenarios

        existing = load_scenarios(
            [FIXTURES / "scenarios"], catalogue=DomainCatalogue(domains), personas=personas
        )
        try:
            drafts = await generate(
                domain=domains["mock"],
                domains=domains,
                category="billing",
                count=1,
                caller=pool.caller(config, "author"),
                personas=personas,
                existing=existing,
                candidates=6,
            )
        finally:
            await pool.aclose()
        [request] = server.requests(model="author")[:1]
        # An OpenAI-compatible server (custom base URL): JSON schema output, not a tool.
        assert request.body["response_format"]["type"] == "json_schema"
        assert request.body["response_format"]["json_schema"]["name"] == "submit_scenario"
        assert "tools" not in request.body
        assert "refund_charge" in request.text and "JSON schema of a scenario" in request.text

    assert drafts.attempts == 6
    assert [s.id for s, _ in drafts.kept] == ["mock-generated-refund"]
    reasons = [r.reasons for r in drafts.rejected]
    assert reasons[0] == ("no scenario was submitted",)
    assert "invalid YAML" in reasons[1][0]
    assert any("unknown tool 'teleport'" in r for r in reasons[2])
    assert any(r.startswith("oracle: step:tell") for r in reasons[3])
    assert reasons[4] == ("id: 'mock-duplicate-refund' is already taken",)

    [path] = write_drafts(drafts, tmp_path, model="openai:author")
    assert path.name == "mock-generated-refund.yaml"
    assert path.read_text().startswith("# Drafted by `supportsim generate` with openai:author")
    assert yaml.safe_load(path.read_text())["id"] == "mock-generated-refund"


def call_reply(text: str):
    from supportsim.testing import reply

    return reply("", tool_calls=[call("submit_scenario", yaml=text)])


async def test_hostile_drafts_are_rejected_with_a_reason_not_a_crash(tmp_path: Path) -> None:
    """A model-written draft goes through the same limited reader as a scenario file."""
    from supportsim.authoring import check_draft

    domains = {"mock": mock.domain()}
    personas = load_personas([FIXTURES / "personas"])

    async def check(text: str) -> tuple[object, list[str]]:
        return await check_draft(
            text,
            domain=domains["mock"],
            domains=domains,
            personas=personas,
            taken_ids=set(),
            workdir=tmp_path,
            name="draft",
        )

    scenario, reasons = await check(_variant(id="mock-fine-draft"))
    assert scenario is not None and reasons == []
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8)
    )
    for text, reason in [
        (GOOD + "notes: " + "[" * 5000 + "]" * 5000 + "\n", "file: nested deeper than 64"),
        (bomb, "file: YAML aliases (*a) are not accepted"),
        (GOOD.replace("max_turns:", "max_turns: " + "9" * 5000 + " #"), "max_turns: integer"),
    ]:
        scenario, reasons = await check(text)
        assert scenario is None
        assert reasons[0].startswith(reason), reasons


def _reply(text: str = "", *calls: ToolCall) -> LLMResponse:
    return LLMResponse(text, calls, None, None, "stop", 1, 1, None, 1.0, None, "m")


@pytest.mark.parametrize(
    "response",
    [
        _reply("", ToolCall("c", "submit_scenario", '{"yaml": "id: a\\n"}')),
        _reply('```json\n{"yaml": "id: a\\n"}\n```'),
        _reply('submit_scenario({"yaml": "id: a\\n"})'),
        _reply('{"name": "submit_scenario", "arguments": {"yaml": "id: a\\n"}}'),
        _reply('Here it is: {"yaml": "id: a\\n"}'),
        _reply("Draft:\n```yaml\nid: a\n```\nDone."),
    ],
)
def test_a_draft_is_read_from_every_reply_shape(response: LLMResponse) -> None:
    assert submitted_yaml(response) == "id: a\n"


@pytest.mark.parametrize(
    "response",
    [
        _reply("Here is a scenario: id: x"),
        _reply('{"scenario": "id: a"}'),
        _reply("", ToolCall("c", "submit_scenario", '{"yaml": ""}')),
        _reply("```yaml\n```"),
    ],
)
def test_a_reply_without_a_draft_submits_nothing(response: LLMResponse) -> None:
    assert submitted_yaml(response) is None
