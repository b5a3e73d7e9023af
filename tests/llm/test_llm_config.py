"""Models file, model specs, credentials, cost and connection keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from supportsim.errors import InputError, ScenarioError
from supportsim.llm import (
    ModelConfig,
    Price,
    connection_key,
    cost_usd,
    load_models_file,
    parse_model_spec,
    price_table,
    resolve_credentials,
)

GOOD = """\
models:
  fast-agent:
    provider: openai
    model: gpt-4.1-mini
    base_url: http://localhost:8000/v1
    api_key_env: MY_KEY
    params:
      {temperature: 0.2, max_tokens: 1024, reasoning_effort: low, seed: 7, thinking_budget: null}
    price: {input_per_mtok: 0.4, output_per_mtok: 1.6}
    rate_limit: {rpm: 500, tpm: 200000, max_concurrency: 32}
    timeout_s: 60
  local:
    provider: openai
    model: qwen3
    base_url: http://127.0.0.1:8000/v1
    api_key_env: null
  claude:
    provider: anthropic
    model: claude-sonnet-4-5
    params: {thinking_budget: 2048}
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "models.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_load_models_file_reads_every_field(tmp_path: Path) -> None:
    models = load_models_file(write(tmp_path, GOOD))
    fast = models["fast-agent"]
    assert fast.name == "fast-agent"
    assert fast.provider == "openai"
    assert fast.base_url == "http://localhost:8000/v1"
    assert fast.api_key_env == "MY_KEY"
    assert fast.params.temperature == 0.2
    assert fast.params.max_tokens == 1024
    assert fast.params.reasoning_effort == "low"
    assert fast.params.seed == 7
    assert fast.price == Price(input_per_mtok=0.4, output_per_mtok=1.6)
    assert fast.rate_limit.rpm == 500
    assert fast.rate_limit.max_concurrency == 32
    assert fast.timeout_s == 60
    assert models["local"].api_key_env is None
    assert models["claude"].api_key_env == "ANTHROPIC_API_KEY"  # absent -> the default
    assert models["claude"].params.thinking_budget == 2048
    # No price in the file: the shipped table's (a models-file price replaces it).
    assert models["claude"].price == price_table().lookup("anthropic", "claude-sonnet-4-5")
    assert models["local"].price is None  # qwen3 is in no table: unpriced


def test_models_file_error_names_file_and_field(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "models:\n  fast-agent:\n    provider: openai\n    model: m\n"
        "    params: {temperature: [1]}\n",
    )
    with pytest.raises(InputError) as info:
        load_models_file(path)
    assert str(info.value) == (
        f"{path}:5 [models.fast-agent.params.temperature]: Input should be a valid number"
    )


def test_models_file_reports_every_problem(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "models:\n"
        "  a: {provider: azure, model: m}\n"
        "  b: {provider: openai, model: m, colour: red}\n"
        "  c: {provider: openai, model: m, name: other}\n",
    )
    with pytest.raises(InputError) as info:
        load_models_file(path)
    lines = str(info.value).splitlines()
    assert f"{path}:2 [models.a.provider]: Input should be 'openai' or 'anthropic'" in lines
    assert f"{path}:3 [models.b.colour]: Extra inputs are not permitted" in lines
    assert any(line.startswith(f"{path}:4 [models.c.name]: not allowed") for line in lines)


def test_models_file_refuses_a_key_given_twice(tmp_path: Path) -> None:
    once = "models:\n  a:\n    provider: openai\n    model: m\n"
    assert load_models_file(write(tmp_path, once))["a"].model == "m"
    twice = once + "    model: n\n"
    with pytest.raises(ScenarioError) as info:
        load_models_file(write(tmp_path, twice))
    assert [(p.field, p.line, p.message) for p in info.value.problems] == [
        ("models.a.model", 5, "duplicate key")
    ]


def test_models_file_goes_through_the_limited_reader(tmp_path: Path) -> None:
    bomb = "a: &a [x, x]\nb: &b [*a, *a]\nmodels: {m: {provider: openai, model: *b}}\n"
    with pytest.raises(ScenarioError) as info:
        load_models_file(write(tmp_path, bomb))
    [problem] = info.value.problems
    assert (problem.line, problem.message) == (
        2,
        "YAML aliases (*a) are not accepted: write the value out",
    )


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ("{provider: anthropic, model: m, params: {temperature: 0.5}}", "params.temperature"),
        ("{provider: anthropic, model: m, params: {seed: 1}}", "params.seed"),
        ("{provider: anthropic, model: m, stream: false}", "stream"),
        ("{provider: openai, model: m, params: {thinking_budget: 2000}}", "params.thinking_budget"),
        ("{provider: openai, model: m, api_key_env: null}", "api_key_env"),
    ],
)
def test_params_a_provider_cannot_take_are_errors(tmp_path: Path, entry: str, field: str) -> None:
    path = write(tmp_path, f"models:\n  x: {entry}\n")
    with pytest.raises(InputError, match=rf"\[models\.x\.{field}\]"):
        load_models_file(path)


def test_models_file_missing_or_not_yaml(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nope\.yaml: cannot read"):
        load_models_file(tmp_path / "nope.yaml")
    with pytest.raises(InputError, match=r"models\.yaml:2: invalid YAML"):
        load_models_file(write(tmp_path, "models: [\n"))
    with pytest.raises(InputError, match=r"\[models\]: Field required"):
        load_models_file(write(tmp_path, "other: 1\n"))


def test_parse_plain_specs() -> None:
    config = parse_model_spec("openai:gpt-4o", {})
    assert (config.name, config.provider, config.model) == ("openai:gpt-4o", "openai", "gpt-4o")
    assert config.api_key_env == "OPENAI_API_KEY"
    config = parse_model_spec("anthropic:claude-sonnet-4-5", {})
    assert config.provider == "anthropic"
    assert config.api_key_env == "ANTHROPIC_API_KEY"


def test_parse_models_file_name(tmp_path: Path) -> None:
    models = load_models_file(write(tmp_path, GOOD))
    assert parse_model_spec("fast-agent", models) is models["fast-agent"]


@pytest.mark.parametrize("spec", ["gpt-4o", "azure:gpt-4o", "openai:", "openai: ", ""])
def test_parse_rejects_other_forms_listing_accepted_ones(spec: str) -> None:
    with pytest.raises(InputError) as info:
        parse_model_spec(spec, {})
    message = str(info.value)
    assert "openai:MODEL" in message
    assert "anthropic:MODEL" in message
    assert "models file" in message


def test_missing_key_names_the_variable() -> None:
    config = parse_model_spec("openai:gpt-4o", {})
    with pytest.raises(InputError) as info:
        resolve_credentials(config, {})
    assert str(info.value) == "OPENAI_API_KEY is not set (needed by agent openai:gpt-4o)"
    with pytest.raises(InputError, match=r"^ANTHROPIC_API_KEY is not set \(needed by judge"):
        resolve_credentials(parse_model_spec("anthropic:c", {}), {}, purpose="judge")


def test_plain_specs_honour_base_url_variables() -> None:
    config = parse_model_spec("openai:gpt-4o", {})
    env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
    resolved = resolve_credentials(config, env)
    assert resolved.api_key == "sk-test"
    assert resolved.base_url == "http://127.0.0.1:9/v1"
    assert resolved.config.base_url == "http://127.0.0.1:9/v1"
    assert connection_key(resolved.config) == ("openai", "http://127.0.0.1:9/v1")
    assert "sk-test" not in repr(resolved)

    anth = resolve_credentials(
        parse_model_spec("anthropic:c", {}),
        {"ANTHROPIC_API_KEY": "a", "ANTHROPIC_BASE_URL": "http://x"},
    )
    assert (anth.api_key, anth.base_url) == ("a", "http://x")


def test_models_file_entries_use_their_own_key_and_url(tmp_path: Path) -> None:
    models = load_models_file(write(tmp_path, GOOD))
    env = {"MY_KEY": "k1", "OPENAI_BASE_URL": "http://ignored"}
    resolved = resolve_credentials(models["fast-agent"], env)
    assert (resolved.api_key, resolved.base_url) == ("k1", "http://localhost:8000/v1")
    with pytest.raises(InputError, match=r"^MY_KEY is not set"):
        resolve_credentials(models["fast-agent"], {"OPENAI_API_KEY": "x"})


def test_keyless_local_server_gets_a_placeholder(tmp_path: Path) -> None:
    models = load_models_file(write(tmp_path, GOOD))
    resolved = resolve_credentials(models["local"], {})
    assert resolved.api_key
    assert resolved.base_url == "http://127.0.0.1:8000/v1"


def test_cost_is_none_when_unpriced_or_tokens_unknown() -> None:
    unpriced = ModelConfig(name="m", provider="openai", model="m")
    assert cost_usd(unpriced, 1000, 1000) is None
    priced = unpriced.model_copy(update={"price": Price(input_per_mtok=0.4, output_per_mtok=1.6)})
    assert cost_usd(priced, None, 10) is None
    assert cost_usd(priced, 10, None) is None


def test_cost_exact_when_priced() -> None:
    config = ModelConfig(
        name="m",
        provider="openai",
        model="m",
        price=Price(input_per_mtok=2.5, output_per_mtok=10.0),
    )
    assert cost_usd(config, 1_000_000, 0) == 2.5
    assert cost_usd(config, 0, 1_000_000) == 10.0
    assert cost_usd(config, 1200, 300) == pytest.approx(0.006, rel=1e-12)
    assert cost_usd(config, 0, 0) == 0.0


def test_connection_key_shares_default_hosts() -> None:
    a = parse_model_spec("openai:gpt-4o", {})
    b = parse_model_spec("openai:gpt-4.1-mini", {})
    c = parse_model_spec("anthropic:claude", {})
    assert connection_key(a) == connection_key(b) == ("openai", "https://api.openai.com/v1")
    assert connection_key(c) == ("anthropic", "https://api.anthropic.com")
    local = ModelConfig(name="l", provider="openai", model="m", base_url="http://h:1/v1/")
    assert connection_key(local) == ("openai", "http://h:1/v1")
