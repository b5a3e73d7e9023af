"""The shipped price table, models-file overrides, and cached tokens priced as billed."""

from __future__ import annotations

import datetime
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from supportsim.errors import ScenarioError
from supportsim.llm import (
    LLMMessage,
    LLMRequest,
    Price,
    Usage,
    charge,
    load_models_file,
    make_client,
    parse_model_spec,
    price_table,
    resolve_credentials,
)
from supportsim.testing import MockLLMServer, reply

OPENAI = Price(input_per_mtok=2.0, cached_input_per_mtok=0.5, output_per_mtok=8.0)
ANTHROPIC = Price(
    input_per_mtok=3.0, cached_input_per_mtok=0.3, cache_write_per_mtok=3.75, output_per_mtok=15.0
)
HI = LLMRequest(system="s", messages=(LLMMessage(role="user", content="hi"),))


def test_cached_part_of_the_prompt_is_charged_at_the_cached_rate() -> None:
    usage = Usage(input_tokens=1000, output_tokens=100, cached_input_tokens=400)
    assert charge(OPENAI, usage) == pytest.approx((600 * 2.0 + 400 * 0.5 + 100 * 8.0) / 1e6)
    # Not the full input price for every prompt token: that is what the issue complained of.
    assert charge(OPENAI, usage) != pytest.approx((1000 * 2.0 + 100 * 8.0) / 1e6)


def test_cache_writes_are_charged_at_the_write_rate() -> None:
    usage = Usage(1000, 10, cached_input_tokens=100, cache_write_tokens=800)
    expected = (100 * 3.0 + 100 * 0.3 + 800 * 3.75 + 10 * 15.0) / 1e6
    assert charge(ANTHROPIC, usage) == pytest.approx(expected)


def test_unknown_rates_and_counts_stay_null_never_zero() -> None:
    plain = Price(input_per_mtok=1.0, output_per_mtok=2.0)
    assert charge(plain, Usage(100, 10)) == pytest.approx(120 / 1e6)  # no cache: priced
    assert charge(plain, Usage(100, 10, cached_input_tokens=5)) is None  # no cached rate
    assert charge(OPENAI, Usage(100, 10, cache_write_tokens=5)) is None  # no write rate
    assert charge(None, Usage(100, 10)) is None
    assert charge(OPENAI, Usage(None, 10)) is None
    assert charge(OPENAI, Usage(0, 0)) == 0.0  # a real zero is still zero


def test_table_is_dated_and_every_entry_has_its_cache_rates() -> None:
    table = price_table()
    assert datetime.date.fromisoformat(table.as_of) <= datetime.date.today()
    assert set(table.sources) == {"openai", "anthropic"}
    for provider, rates in table.models.items():
        for model, price in rates.items():
            if model != "gpt-4o-2024-05-13":  # that snapshot predates prompt caching
                assert price.cached_input_per_mtok is not None, model
            if provider == "anthropic":
                assert price.cache_write_per_mtok is not None, model
            assert price.cached_input_per_mtok is None or (
                price.cached_input_per_mtok < price.input_per_mtok
            )


def test_specs_are_priced_from_the_table_snapshots_by_family() -> None:
    assert parse_model_spec("openai:gpt-4.1-mini", {}).price == price_table().lookup(
        "openai", "gpt-4.1-mini"
    )
    dated = parse_model_spec("anthropic:claude-sonnet-4-5-20250929", {}).price
    assert dated is not None and dated.input_per_mtok == 3.0
    # A listed snapshot wins over its family.
    old = parse_model_spec("openai:gpt-4o-2024-05-13", {}).price
    assert old is not None and old.input_per_mtok == 5.0
    assert parse_model_spec("openai:qwen2.5-7b-instruct", {}).price is None
    assert parse_model_spec("anthropic:gpt-4o", {}).price is None  # per provider


def test_models_file_price_replaces_the_table_and_null_unprices(tmp_path: Path) -> None:
    path = tmp_path / "models.yaml"
    path.write_text(
        "models:\n"
        "  mine:\n    provider: openai\n    model: gpt-4o\n"
        "    price: {input_per_mtok: 1, output_per_mtok: 2, cached_input_per_mtok: 0.25}\n"
        "  free-trial:\n    provider: openai\n    model: gpt-4o\n    price: null\n"
        "  table:\n    provider: openai\n    model: gpt-4o\n",
        encoding="utf-8",
    )
    models = load_models_file(path)
    assert models["mine"].price == Price(
        input_per_mtok=1, output_per_mtok=2, cached_input_per_mtok=0.25
    )
    assert models["free-trial"].price is None
    assert models["table"].price == price_table().lookup("openai", "gpt-4o")


def test_models_file_bad_price_names_the_field(tmp_path: Path) -> None:
    path = tmp_path / "models.yaml"
    path.write_text(
        "models:\n  m:\n    provider: openai\n    model: x\n"
        "    price: {input_per_mtok: 1, output_per_mtok: 2, cached_input_per_mtok: -1}\n",
        encoding="utf-8",
    )
    with pytest.raises(ScenarioError) as info:
        load_models_file(path)
    assert "models.m.price.cached_input_per_mtok" in str(info.value)


@pytest.fixture
async def server() -> AsyncIterator[MockLLMServer]:
    async with MockLLMServer() as mock:
        yield mock


@pytest.mark.parametrize("stream", [True, False])
async def test_openai_cached_tokens_end_to_end(server: MockLLMServer, stream: bool) -> None:
    server.script(
        "gpt-4.1-mini", [reply("ok", input_tokens=2000, output_tokens=50, cached_input_tokens=1536)]
    )
    config = parse_model_spec("openai:gpt-4.1-mini", {}).model_copy(update={"stream": stream})
    env = {"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": server.url + "/v1"}
    client = make_client(resolve_credentials(config, env))
    try:
        response = await client.complete(HI)
    finally:
        await client.aclose()
    (sent,) = server.requests(model="gpt-4.1-mini")
    assert sent.stream is stream
    assert (response.input_tokens, response.cached_input_tokens) == (2000, 1536)
    assert response.cache_write_tokens == 0
    assert response.cost_usd == pytest.approx((464 * 0.4 + 1536 * 0.1 + 50 * 1.6) / 1e6)


async def test_anthropic_cache_reads_and_writes_end_to_end(server: MockLLMServer) -> None:
    server.script(
        "claude-haiku-4-5",
        [
            reply(
                "ok",
                input_tokens=3000,
                output_tokens=20,
                cached_input_tokens=1000,
                cache_write_tokens=1500,
            )
        ],
    )
    config = parse_model_spec("anthropic:claude-haiku-4-5", {})
    env = {"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": server.url}
    client = make_client(resolve_credentials(config, env))
    try:
        response = await client.complete(HI)
    finally:
        await client.aclose()
    # On the wire input_tokens was 500: Anthropic's count leaves the cache out.
    assert response.input_tokens == 3000
    assert (response.cached_input_tokens, response.cache_write_tokens) == (1000, 1500)
    expected = (500 * 1.0 + 1000 * 0.1 + 1500 * 1.25 + 20 * 5.0) / 1e6
    assert response.cost_usd == pytest.approx(expected)


async def test_unknown_model_end_to_end_costs_null(server: MockLLMServer) -> None:
    server.script("my-finetune", [reply("ok", input_tokens=10, output_tokens=5)])
    config = parse_model_spec("openai:my-finetune", {})
    env = {"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": server.url + "/v1"}
    client = make_client(resolve_credentials(config, env))
    try:
        response = await client.complete(HI)
    finally:
        await client.aclose()
    assert response.input_tokens == 10
    assert response.cost_usd is None
