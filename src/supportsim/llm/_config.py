"""Model configuration: the models file, model specs, credentials and prices.

A run names each model by one spec string: ``openai:MODEL``, ``anthropic:MODEL`` or a name
from the models file. Config values are passed in (``env`` is a mapping, never
``os.environ`` read here) so that importing or testing this module touches no process state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from supportsim._yaml import Document, PathKey, read_yaml
from supportsim.errors import InputError, Problem, ScenarioError

from ._prices import Price, Usage, charge, price_table

Provider = Literal["openai", "anthropic"]
ReasoningEffort = Literal["none", "minimal", "low", "medium", "high", "xhigh", "max"]

DEFAULT_BASE_URLS: dict[str, str] = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
}
DEFAULT_KEY_ENV: dict[str, str] = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
DEFAULT_URL_ENV: dict[str, str] = {"openai": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL"}
# Sent to local servers that need no auth: the SDKs refuse to build a client without a key.
PLACEHOLDER_API_KEY = "not-needed"

_SPEC_FORMS = (
    "openai:MODEL (e.g. openai:gpt-4.1-mini), anthropic:MODEL (e.g. anthropic:claude-sonnet-4-5)"
    ", or a model name from the models file"
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ModelParams(_Strict):
    """Sampling parameters; None means "the provider's default", so nothing is sent.

    ``reasoning_effort`` goes to OpenAI as ``reasoning_effort`` and to Anthropic as
    ``output_config.effort``. ``thinking_budget`` turns on Anthropic extended thinking.
    ``seed`` has no Anthropic equivalent and is ignored there.
    """

    temperature: float | None = Field(default=None, ge=0)
    max_tokens: int | None = Field(default=None, gt=0)
    reasoning_effort: ReasoningEffort | None = None
    seed: int | None = None
    thinking_budget: int | None = Field(default=None, gt=0)


class RateLimit(_Strict):
    """Limits of a provider, an endpoint or a model; unset fields do not limit. The one
    type for them: a models file's ``rate_limit`` and a run config's ``rate_limits``."""

    rpm: int | None = Field(default=None, gt=0)
    """Requests per minute."""
    tpm: int | None = Field(default=None, gt=0)
    """Tokens (input + output) per minute, counted from responses' usage."""
    max_concurrency: int | None = Field(default=None, gt=0)
    """Calls in flight at once; lowered on repeated 429s and raised again slowly (unset:
    the run's concurrency)."""


class ModelConfig(_Strict):
    """One model as a run uses it.

    Attributes:
        name: The spec or models-file name the run refers to it by.
        provider: Which SDK talks to it.
        model: The provider's model id.
        base_url: A custom endpoint (any OpenAI-compatible server for ``openai``); None
            means the provider's own API.
        api_key_env: The variable holding the key. Left out, it defaults to
            ``OPENAI_API_KEY``/``ANTHROPIC_API_KEY``; ``null`` (with a ``base_url``) means
            the server needs no key.
        timeout_s: Deadline of one whole call, streaming included: a stalled stream that
            keeps sending pings must still fail.
        stream: Stream the reply (the default, needed for ``ttft_ms``); set false for
            OpenAI-compatible servers that cannot stream.
        price: USD per million tokens. Left out, the shipped table's price for the model
            (``prices.yaml``); ``null`` means unpriced (costs are then null, never 0).
        structured_output: How a judge or drafting call asks for its structured answer:
            ``true`` also asks for ``response_format`` JSON schema output (local servers
            enforce it with a grammar), ``false`` only the forced tool call, ``auto``
            (default) JSON schema output for OpenAI-compatible servers at a custom
            ``base_url`` and the forced tool call for the providers' own APIs.
        context_window: Most tokens the model takes (prompt plus ``max_tokens``); a
            prompt estimated above it fails at once with ``ContextTooLong`` naming the
            limit, instead of the server's 400 (any role: judge, author, Customer, Agent).
        owned: An agent-owned ``http:`` service (an ``openai`` entry with a ``base_url``):
            it brings its own prompt and tool loop, so it is sent only the Customer's
            messages and its own replies, never our system prompt or tool list, plus the
            conversation's MCP URL in the ``X-Supportsim-MCP-URL`` header. Agents only.
    """

    name: str
    provider: Provider
    model: str = Field(min_length=1)
    base_url: str | None = None
    api_key_env: str | None = None
    params: ModelParams = ModelParams()
    price: Price | None = None
    rate_limit: RateLimit = RateLimit()
    timeout_s: float = Field(default=60.0, gt=0)
    stream: bool = True
    structured_output: bool | Literal["auto"] = "auto"
    context_window: int | None = Field(default=None, gt=0)
    owned: bool = False

    @model_validator(mode="before")
    @classmethod
    def _default_key_env(cls, data: Any) -> Any:
        # Absent and null differ: absent is the provider's usual variable, null is "no key".
        if isinstance(data, dict) and "api_key_env" not in data:
            provider = data.get("provider")
            if provider in DEFAULT_KEY_ENV:
                data = {**data, "api_key_env": DEFAULT_KEY_ENV[provider]}
        return data

    @model_validator(mode="after")
    def _fits_provider(self) -> ModelConfig:
        # A parameter the provider cannot take is an error here, naming its field, rather
        # than silently dropped or a 400 in the middle of a run.
        problems = [
            InitErrorDetails(
                type=PydanticCustomError("provider_param", message), loc=loc, input=value
            )
            for loc, value, message in _misfits(self)
        ]
        if problems:
            raise ValidationError.from_exception_data(type(self).__name__, problems)
        return self


def _misfits(config: ModelConfig) -> list[tuple[tuple[str, ...], object, str]]:
    p = config.params
    found: list[tuple[tuple[str, ...], object, str]] = []
    if config.api_key_env is None and config.base_url is None:
        found.append((("api_key_env",), None, "null (no key) is only for a custom base_url"))
    if config.provider == "anthropic":
        if p.temperature is not None:
            found.append(
                (
                    ("params", "temperature"),
                    p.temperature,
                    "not accepted by the Anthropic API (version 2026-10-21 rejects sampling"
                    " parameters)",
                )
            )
        if p.seed is not None:
            found.append((("params", "seed"), p.seed, "Anthropic has no seed parameter"))
        if not config.stream:
            found.append((("stream",), False, "only OpenAI-compatible servers may skip streaming"))
        if config.structured_output is True:
            message = "response_format is an OpenAI-compatible option; Anthropic uses the tool"
            found.append((("structured_output",), True, message))
        if config.owned:
            found.append((("owned",), True, "only an openai-compatible http service can be owned"))
    elif p.thinking_budget is not None:
        message = "only for anthropic; use reasoning_effort for openai"
        found.append((("params", "thinking_budget"), p.thinking_budget, message))
    if config.owned and config.base_url is None:
        found.append((("owned",), True, "an owned agent is a service: give its base_url"))
    return found


class _ModelsFile(_Strict):
    models: dict[str, dict[str, Any]]


@dataclass(frozen=True, slots=True)
class ResolvedModel:
    """A model with the credentials and endpoint it will actually use.

    ``config.base_url`` equals ``base_url`` (the environment's URL is folded in for plain
    specs) so that ``connection_key(resolved.config)`` names the real endpoint.
    """

    config: ModelConfig
    api_key: str = field(repr=False)
    base_url: str | None


def _problems(doc: Document, err: ValidationError, prefix: PathKey = ()) -> list[Problem]:
    problems = []
    for item in err.errors():
        loc = (*prefix, *(p for p in item["loc"] if isinstance(p, str | int)))
        problems.append(doc.problem(loc, item["msg"].removeprefix("Value error, ")))
    return problems


def load_models_file(path: str | Path) -> dict[str, ModelConfig]:
    """Read a models file (YAML) into configs keyed by name.

    Every problem is reported at once, each naming the file, the line and the field path,
    so a user fixes the file in one pass. A key given twice is an error, not "the last one
    wins"; the shared reader's limits (size, depth, no aliases) apply.

    Raises:
        ScenarioError: The file is missing, not YAML, or has invalid entries (an InputError:
            exit code 2).
    """
    doc, problems = read_yaml(Path(path))
    if doc is None:
        raise ScenarioError(problems)
    if not isinstance(doc.data, dict):
        raise ScenarioError([*problems, doc.problem((), "expected a mapping with a 'models' key")])
    try:
        parsed = _ModelsFile.model_validate(doc.data)
    except ValidationError as exc:
        raise ScenarioError([*problems, *_problems(doc, exc)]) from None

    models: dict[str, ModelConfig] = {}
    for name, entry in parsed.models.items():
        if "name" in entry:
            loc = ("models", name, "name")
            problems.append(doc.problem(loc, "not allowed: the entry's key is its name"))
            continue
        try:
            config = ModelConfig.model_validate({**entry, "name": name})
            models[name] = config if "price" in entry else with_table_price(config)
        except ValidationError as exc:
            problems.extend(_problems(doc, exc, ("models", name)))
    if problems:
        raise ScenarioError(problems)
    return models


def parse_model_spec(spec: str, models: Mapping[str, ModelConfig]) -> ModelConfig:
    """Turn a model spec into its config; the one parser every command uses.

    A models-file name wins over the ``provider:MODEL`` forms, so a file can shadow them.

    Raises:
        InputError: The spec is none of the accepted forms.
    """
    if spec in models:
        return models[spec]
    provider, sep, model = spec.partition(":")
    if sep and provider in DEFAULT_KEY_ENV and model.strip():
        config = ModelConfig(name=spec, provider=provider, model=model.strip())  # type: ignore[arg-type]
        return with_table_price(config)
    known = ", ".join(sorted(models)) or "none loaded"
    raise InputError(f"unknown model spec {spec!r}: use {_SPEC_FORMS} (models file: {known})")


def resolve_credentials(
    config: ModelConfig, env: Mapping[str, str], *, purpose: str = "agent"
) -> ResolvedModel:
    """Find the key and endpoint for a model in ``env`` (the caller passes ``os.environ``).

    Plain ``openai:``/``anthropic:`` specs also honour ``OPENAI_BASE_URL`` and
    ``ANTHROPIC_BASE_URL``; models-file entries use their own ``base_url`` only, since the
    file is meant to describe the model completely. ``purpose`` (agent, customer, judge)
    only words the error, so the user knows which flag needs the key.

    Raises:
        InputError: The key's variable is not set (the message names it and the model).
    """
    base_url = config.base_url
    if base_url is None and config.name == f"{config.provider}:{config.model}":
        base_url = env.get(DEFAULT_URL_ENV[config.provider]) or None
    if config.api_key_env is None:
        api_key = PLACEHOLDER_API_KEY
    else:
        api_key = env.get(config.api_key_env, "")
        if not api_key:
            raise InputError(f"{config.api_key_env} is not set (needed by {purpose} {config.name})")
    if base_url != config.base_url:
        config = config.model_copy(update={"base_url": base_url})
    return ResolvedModel(config=config, api_key=api_key, base_url=base_url)


def with_table_price(config: ModelConfig) -> ModelConfig:
    """``config`` priced from the shipped table (``prices.yaml``) when it has no price and
    the table knows its model; otherwise unchanged (unknown stays unpriced)."""
    if config.price is not None:
        return config
    price = price_table().lookup(config.provider, config.model)
    return config if price is None else config.model_copy(update={"price": price})


def cost_usd(
    config: ModelConfig,
    input_tokens: int | None,
    output_tokens: int | None,
    *,
    cached_input_tokens: int = 0,
    cache_write_tokens: int = 0,
) -> float | None:
    """Price one call; None (never 0) when the model is unpriced, a count is unknown, or
    cached tokens occurred and the price has no cache rate (see ``_prices.charge``).

    ``input_tokens`` counts every prompt token; the cache counts are parts of it. A made-up
    0 would read as "free" in reports; None reads as "unknown".
    """
    usage = Usage(input_tokens, output_tokens, cached_input_tokens, cache_write_tokens)
    return charge(config.price, usage)


def takes_seed(config: ModelConfig) -> bool:
    """Whether the model's provider takes a sampling seed (``LLMRequest.seed``): the
    OpenAI-compatible ``seed``; Anthropic's API has none (nothing is sent there)."""
    return config.provider == "openai"


def connection_key(config: ModelConfig) -> tuple[str, str]:
    """The endpoint a model's requests go to, so rate limits can be shared per endpoint.

    Pass ``resolved.config`` when the environment may have set the base URL.
    """
    base_url = config.base_url or DEFAULT_BASE_URLS[config.provider]
    return (config.provider, base_url.rstrip("/"))


def sdk_kwargs(
    resolved: ResolvedModel,
    http_client: Any,
    *,
    default_base_url: str,
    default_client: Callable[[bool], Any],
) -> dict[str, Any]:
    """What every SDK client is built with: an explicit key and base URL (left None, an SDK
    reads its environment variables itself), no SDK retries (``ModelPool`` owns them),
    the call timeout, and an HTTP client: the caller's, else ``default_client(verify)``
    (the SDK's default client over a stamping transport, ``_wire``), which for a
    plain-HTTP endpoint skips the TLS set-up."""
    if http_client is None:
        http_client = default_client(not plain_http(resolved.base_url))
    return {
        "api_key": resolved.api_key,
        "base_url": resolved.base_url or default_base_url,
        "max_retries": 0,
        "timeout": resolved.config.timeout_s,
        "http_client": http_client,
    }


def plain_http(base_url: str | None) -> bool:
    """True for an ``http://`` endpoint (a local server, the mock): no TLS, so the client
    need not build a certificate context (about 0.25 s of CPU per client)."""
    return bool(base_url) and base_url.lower().startswith("http://")  # type: ignore[union-attr]
