"""What the driver and every worker build alike from a run's effective config: the
scenarios selected, the participants parsed (plug-ins checked once), the model pool, the
unit context and the fingerprint (``build_context``).

The driver (``_command.prepare_run``) and each worker process (``_worker.py``, which
compares its fingerprint with the driver's) both call ``build_context``; it sits below
both, so neither imports the other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from supportsim.batch._concurrency import Concurrency
from supportsim.batch._config import RunConfig, chosen_statement_judge
from supportsim.batch._customers import load_replay
from supportsim.batch._manifest import fingerprint
from supportsim.batch._names import keyed_by_label
from supportsim.batch._unit import UnitContext
from supportsim.conversation import (
    CONVERSATION_BUDGET,
    AgentSpec,
    CustomerSpec,
    parse_agent_spec,
    parse_customer_spec,
    rules_for,
)
from supportsim.domains import Domain
from supportsim.errors import InputError
from supportsim.llm import (
    ModelConfig,
    ModelPool,
    ResponseCache,
    load_models_file,
    parse_model_spec,
    resolve_credentials,
    scrubber,
)
from supportsim.scenario import (
    SUITES_FILE,
    Persona,
    Scenario,
    find_suites_file,
    load_suites,
    select_suite,
)
from supportsim.scoring import StatementJudge
from supportsim.workspace import Workspace, load_inputs


def select(
    scenarios: Sequence[Scenario], config: RunConfig, *, suites_file: Path | None = None
) -> list[Scenario]:
    """The scenarios the config selects: suite, then tags (any), then ids.

    ``suites_file``: the workspace's, used when it exists; else the first scenario folder
    holding one."""
    chosen = list(scenarios)
    if config.suite:
        if suites_file is None or not suites_file.exists():
            suites_file = find_suites_file(config.scenarios)
        if suites_file is None:
            raise InputError(
                f"suite {config.suite!r}: no {SUITES_FILE} in {', '.join(config.scenarios)}"
            )
        chosen = select_suite(
            chosen, load_suites(suites_file), config.suite, source=str(suites_file)
        )
    chosen = [
        s
        for s in chosen
        if (not config.tags or set(s.tags) & set(config.tags))
        and (not config.ids or s.id in config.ids)
    ]
    missing = set(config.ids) - {s.id for s in scenarios}
    if missing:
        raise InputError(f"unknown scenario id(s): {', '.join(sorted(missing))}")
    if not chosen:
        raise InputError("no scenario matches the selection (paths, suite, tags, ids)")
    return chosen


@dataclass(slots=True)
class Built:
    """A run's inputs turned into what its units need: built alike by the driver and by
    each worker process (``_worker.py``), which compares ``fingerprint`` with the driver's."""

    ctx: UnitContext
    pool: ModelPool
    fingerprint: dict[str, Any]
    scenario_count: int
    models: dict[str, ModelConfig]


def build_context(
    config: RunConfig,
    env: Mapping[str, str],
    workspace: Workspace,
    *,
    concurrency: Concurrency,
    cache: ResponseCache | None = None,
    cache_agents: bool = False,
    make_limiter: Callable[..., Any] | None = None,
) -> Built:
    """Load and select the inputs of an effective config, build the pool and the unit
    context, and fingerprint them; raises InputError (nothing is written here).

    ``concurrency`` is the session's (``Session.concurrency``; a worker is sent the
    driver's): its ceiling is the endpoints' default in-flight limit."""
    inputs = load_inputs(
        replace(workspace.with_categories(config.categories), domains=()),
        scenarios=[Path(p) for p in config.scenarios],
        personas=Path(config.personas),
        domains=config.domains,
    )
    domains, personas = inputs.domains, inputs.personas
    chosen = select(inputs.scenarios, config, suites_file=workspace.suites_file)
    models = load_models_file(config.models_file) if config.models_file else {}
    pool = ModelPool(
        env=env,
        policy=config.retries,
        limits=config.rate_limits,
        # calls in flight never exceed conversations in flight: the run's ceiling
        default_concurrency=concurrency.ceiling,
        cache=cache,
        # the statement judge grades, it is not under test: its replies are kept like the
        # Customer's (one question, one verdict, whichever trial asks it)
        cache_roles=frozenset({"customer", "judge", *(["agent"] if cache_agents else [])}),
        make_limiter=make_limiter,
        budget=CONVERSATION_BUDGET,  # calls pause the conversation's bound (llm/_budget)
    )
    parts = participants(config, models)  # once: a plug-in factory runs once to be checked
    ctx = unit_context(
        config,
        participants=parts,
        domains=domains,
        scenarios=chosen,
        personas=personas,
        models=models,
        pool=pool,
    )
    _check_inprocess_tools(config, chosen, ctx.agents)
    labels = {label: spec.spec or label for label, spec in ctx.agents.items()}
    print_ = fingerprint(config, chosen, parts.models, personas, agents=labels)
    return Built(ctx, pool, print_, len(chosen), parts.models)


def _check_inprocess_tools(
    config: RunConfig, scenarios: Sequence[Scenario], agents: Mapping[str, AgentSpec]
) -> None:
    """Rules that ``needs_inprocess_tools`` (tau2's) show tool results in their own text form
    and count their steps and errors in our loop; tools reached over MCP bypass both, so the
    figures would not be theirs. Refused before anything is written.

    Raises:
        InputError: a scenario held by such rules with ``--tools`` other than inprocess, or
            with an Agent that calls its tools over MCP itself (owned, ``tools = "mcp"``,
            mcp_url).
    """
    needing = [
        r
        for r in (rules_for(config.conversation_mode, s) for s in scenarios)
        if r.needs_inprocess_tools
    ]
    if not needing:
        return
    name = needing[0].name
    over_mcp = sorted(label for label, spec in agents.items() if spec.mcp)
    if config.tools != "inprocess" or over_mcp:
        who = f"agents {', '.join(over_mcp)} call" if over_mcp else f"--tools {config.tools} calls"
        raise InputError(
            f"{name}'s conversation mode needs in-process tools, but {who} tools over MCP: "
            f"tool texts and step counts would not be {name}'s. Run those agents with "
            f"--conversation-mode supportsim, or the {name} tasks with --tools inprocess"
        )


@dataclass(frozen=True, slots=True)
class Participants:
    """The run's Agents and Customers, parsed once per run start (``participants``)."""

    agents: dict[str, AgentSpec]
    """By label; a ``python:`` or ``langgraph:`` factory was called once to check it."""
    customers: dict[str, CustomerSpec]
    """By label (the spec), in ``--customer`` order."""
    models: dict[str, ModelConfig]
    """Every model the Agents, the Customer and the statement judge call, by name (the
    run's fingerprint holds these; the tau2 assertion judge is added by ``unit_context``)."""


def participants(config: RunConfig, models: Mapping[str, ModelConfig]) -> Participants:
    """Parse the agent and customer specs; also every model they and the statement judge
    use, by name.

    Called once per run start (the driver's ``build_context``, and each worker's): parsing
    a ``python:`` or ``langgraph:`` spec calls its factory once, to check what it returns
    (``conversation.parse_agent_spec``), and each conversation calls it once more for its
    own Agent. A run of N conversations thus calls a factory N + 1 times in one process;
    with W workers, N + 1 + W (each worker checks its inputs as the driver did). A
    ``langgraph:`` factory taking ``tools`` or ``mcp_url`` is checked by its signature
    only: N calls."""
    agents = keyed_by_label([parse_agent_spec(spec, models) for spec in config.agents])
    customers = {spec: parse_customer_spec(spec, models) for spec in config.customer}
    needed = {a.model.name: a.model for a in agents.values() if a.model is not None}
    for customer in customers.values():
        if customer.model is not None:
            needed[customer.model.name] = customer.model
    if (judge := statement_judge_model(config, models)) is not None:
        needed.setdefault(judge.name, judge)
    if config.call_timeout_s is not None:
        needed = {
            k: m.model_copy(update={"timeout_s": config.call_timeout_s}) for k, m in needed.items()
        }
    return Participants(agents, customers, needed)


def unit_context(
    config: RunConfig,
    *,
    participants: Participants,
    domains: Mapping[str, Domain],
    scenarios: Sequence[Scenario],
    personas: Mapping[str, Persona],
    models: Mapping[str, ModelConfig],
    pool: ModelPool,
) -> UnitContext:
    """Check the participants' credentials and build their callers, before any work starts.

    Each model's credentials are resolved once, by ``pool.check`` (the scrubber reads the
    pool's resolution); the tau2 assertion judge's endpoint is resolved first under its
    own spec (``assertion_judge``), then as the renamed model the pool calls."""
    needed = dict(participants.models)
    judge = assertion_judge(config, models, pool.env)
    if judge is not None:
        needed[judge.name] = judge
    pool.check(needed)

    def caller_for(model: ModelConfig, role: str) -> Any:
        return pool.caller(needed.get(model.name, model), role)

    resolved = [pool.resolved(m) for m in needed.values()]
    statements = None
    if (judge_model := statement_judge_model(config, models)) is not None:
        model = needed[judge_model.name]
        statements = StatementJudge(
            str(chosen_statement_judge(config)), model, pool.caller(model, "judge")
        )
    return UnitContext(
        domains=domains,
        scenarios={s.id: s for s in scenarios},
        personas=personas,
        agents=participants.agents,
        customer=next(iter(participants.customers.values())),
        customers=participants.customers,
        customer_seed=config.customer_seed,
        # read once per process, before any unit runs: an unreadable run is bad input
        replay=load_replay(config.replay_customer) if config.replay_customer else None,
        caller_for=caller_for,
        max_turns=config.max_turns,
        timeout_s=config.timeout_s,
        tools=config.tools,
        conversation_mode=config.conversation_mode,
        scrub=scrubber([r.api_key for r in resolved], [r.base_url for r in resolved]),
        assertion_judge=judge,
        statement_judge=statements,
    )


def statement_judge_model(
    config: RunConfig, models: Mapping[str, ModelConfig]
) -> ModelConfig | None:
    """The statement judge's model (``chosen_statement_judge``), or None (rules only). It
    is called with its own parameters, under its own name: the Customer's model as judge
    shares the Customer's limits.

    Raises:
        InputError: the spec names no model (``--statement-judge``).
    """
    spec = chosen_statement_judge(config)
    if spec is None:
        return None
    try:
        return parse_model_spec(spec, models)
    except InputError as exc:
        raise InputError(f"--statement-judge {spec}: {exc}") from None


def assertion_judge(
    config: RunConfig, models: Mapping[str, ModelConfig], env: Mapping[str, str]
) -> ModelConfig | None:
    """The tau2 assertion judge's model at temperature 0, under a name of its own (the
    same model may be the Agent with other parameters), its endpoint resolved now."""
    if config.assertion_judge is None:
        return None
    base = parse_model_spec(config.assertion_judge, models)
    resolved = resolve_credentials(base, env, purpose="assertion judge").config
    name = f"{base.name} (assertion judge)"
    from supportsim.tau2 import judge_config  # only a run with an assertion judge pays it

    return judge_config(resolved).model_copy(update={"name": name})
