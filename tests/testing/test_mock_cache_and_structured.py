"""The mock server reports cached prompt tokens in each wire's own fields, and honours
``response_format`` for ``structured`` replies (checked with the real SDKs)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anthropic
import openai
import pytest

from supportsim.errors import InputError
from supportsim.testing import MockLLMServer, load_script, reply, structured
from supportsim.testing.replies import reply_from_dict

USER: Any = [{"role": "user", "content": "hi"}]
SCHEMA = {
    "type": "object",
    "properties": {"verdict": {"enum": ["pass", "fail"]}},
    "required": ["verdict"],
    "additionalProperties": False,
}
FORMAT: Any = {"type": "json_schema", "json_schema": {"name": "v", "schema": SCHEMA}}


async def test_openai_usage_counts_cached_tokens_inside_prompt_tokens(
    server: MockLLMServer, oai: openai.AsyncOpenAI
) -> None:
    server.script("m", [reply("ok", input_tokens=1000, output_tokens=5, cached_input_tokens=768)])
    completion = await oai.chat.completions.create(model="m", messages=USER)
    usage = completion.usage
    assert usage is not None and usage.prompt_tokens == 1000
    assert usage.prompt_tokens_details is not None
    assert usage.prompt_tokens_details.cached_tokens == 768


async def test_openai_stream_usage_chunk_carries_cached_tokens(
    server: MockLLMServer, oai: openai.AsyncOpenAI
) -> None:
    server.script("m", [reply("ok", input_tokens=50, cached_input_tokens=20)])
    stream = await oai.chat.completions.create(
        model="m", messages=USER, stream=True, stream_options={"include_usage": True}
    )
    usages = [c.usage async for c in stream if c.usage is not None]
    assert len(usages) == 1 and usages[0].prompt_tokens == 50
    assert usages[0].prompt_tokens_details.cached_tokens == 20  # type: ignore[union-attr]


@pytest.mark.parametrize("stream", [False, True])
async def test_anthropic_input_tokens_exclude_cache_reads_and_writes(
    server: MockLLMServer, anth: anthropic.AsyncAnthropic, stream: bool
) -> None:
    server.script(
        "m", [reply("ok", input_tokens=1000, cached_input_tokens=300, cache_write_tokens=600)]
    )
    if stream:
        async with anth.messages.stream(model="m", max_tokens=10, messages=USER) as events:
            message = await events.get_final_message()
    else:
        message = await anth.messages.create(model="m", max_tokens=10, messages=USER)
    usage = message.usage
    assert (usage.input_tokens, usage.cache_read_input_tokens) == (100, 300)
    assert usage.cache_creation_input_tokens == 600


async def test_a_structured_reply_that_fits_response_format_is_sent_as_text(
    server: MockLLMServer, oai: openai.AsyncOpenAI
) -> None:
    server.script("m", [structured({"verdict": "pass"})])
    completion = await oai.chat.completions.create(model="m", messages=USER, response_format=FORMAT)
    assert completion.choices[0].message.content == '{"verdict": "pass"}'


async def test_a_structured_reply_that_breaks_response_format_is_a_400(
    server: MockLLMServer, oai: openai.AsyncOpenAI
) -> None:
    server.script("m", [structured({"verdict": "maybe"})])
    with pytest.raises(openai.BadRequestError, match="does not fit response_format"):
        await oai.chat.completions.create(model="m", messages=USER, response_format=FORMAT)


async def test_without_response_format_a_structured_reply_is_plain_text(
    server: MockLLMServer, oai: openai.AsyncOpenAI
) -> None:
    server.script("m", [structured({"anything": 1})])
    first = await oai.chat.completions.create(model="m", messages=USER)
    assert first.choices[0].message.content == '{"anything": 1}'


def test_script_files_take_json_and_cache_counts(tmp_path: Path) -> None:
    path = tmp_path / "script.yaml"
    path.write_text(
        "judge:\n  - json: {verdict: pass}\n"
        "agent:\n  - {say: hi, input_tokens: 10, cached_input_tokens: 4, cache_write_tokens: 2}\n",
        encoding="utf-8",
    )
    script = load_script(path)
    assert script["judge"][0].structured and script["judge"][0].text == '{"verdict": "pass"}'
    agent = script["agent"][0]
    assert (agent.input_tokens, agent.cached_input_tokens, agent.cache_write_tokens) == (10, 4, 2)
    with pytest.raises(InputError, match="unknown key"):
        reply_from_dict({"jsn": {}})
