"""Everything before a run's first conversation: the config with the command line's
fields, the workspace, the participants, the run directory (``prepare_run``).

Everything that can be wrong with the input (config, scenarios, specs, credentials, a
changed run) is found before the run directory is created or touched. The run itself
(execute, summarise, print) is ``supportsim.app``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from supportsim.batch._config import (
    RunConfig,
    RunFlags,
    chosen_statement_judge,
    load_run_config,
    with_overrides,
)
from supportsim.batch._context import build_context
from supportsim.batch._launch import check_ray_installed
from supportsim.batch._manifest import as_it_ran, manifest_to_resume
from supportsim.batch._session import (
    Session,
    default_run_id,
    prepare,
    stored_config,
)
from supportsim.batch._unit import UnitContext
from supportsim.domains import resolve_domain_spec
from supportsim.errors import InputError
from supportsim.llm import ModelConfig, ModelPool, ResponseCache
from supportsim.workspace import Workspace, find_workspace


@dataclass(frozen=True, slots=True)
class RunRequest:
    """What a run was asked for: a config file (or none), the fields set over it, which
    run directory, and the response cache."""

    config_path: Path | None = None
    overrides: RunFlags | Mapping[str, Any] = field(default_factory=RunFlags)
    """The command line's flags (``RunFlags``), or ``supportsim.run``'s keyword fields
    (any RunConfig field by name); either way validated by ``RunConfig``."""
    run_id: str | None = None
    resume: bool = False
    force: bool = False
    cache: ResponseCache | None = None
    """``--cache``: the simulated Customer's replies are kept; ``cache_agents`` adds the
    Agents' (never by default: an Agent under test is what a run measures)."""
    cache_agents: bool = False


def resolve_config(request: RunRequest) -> RunConfig:
    """The file (or, resuming without one, the stored config) with the flags applied."""
    if request.resume and not request.run_id:
        raise InputError("--resume needs --run-id")
    if request.config_path is not None:
        base = load_run_config(request.config_path)
    elif request.resume:
        given = request.overrides
        out = (given.out if isinstance(given, RunFlags) else given.get("out")) or RunConfig().out
        base = stored_config(out, request.run_id or "")
    else:
        base = RunConfig()
    config = with_overrides(base, request.overrides)
    if request.resume:
        config = as_it_ran(config, _stored_keys(config.out, request.run_id or ""))
    return config


def _stored_keys(out: str, run_id: str) -> dict[str, Any]:
    """The stored run's config, empty when it cannot be read (``prepare`` refuses it then,
    naming the file)."""
    try:
        return dict(manifest_to_resume(Path(out) / run_id)["config"])
    except InputError:
        return {}


@dataclass(slots=True)
class Prepared:
    config: RunConfig
    session: Session
    pool: ModelPool
    ctx: UnitContext
    scenario_count: int
    models: dict[str, ModelConfig]


def effective_config(config: RunConfig, workspace: Workspace) -> RunConfig:
    """The config as the run stores it: the workspace's scenarios, personas and domains
    where the config leaves them unset, domain folders made absolute, so ``--resume``,
    ``rescore`` and ``judge`` rebuild exactly the inputs this run used. The statement
    judge is stored as chosen (``auto`` resolved), so a resumed session is judged alike.
    ``--replay-customer`` is made absolute too (a missing one stays as typed: the error
    names it as given)."""
    update: dict[str, Any] = {"statement_judge": chosen_statement_judge(config)}
    scenarios = config.scenarios
    if "scenarios" not in config.model_fields_set:
        scenarios = [str(p) for p in workspace.scenarios]
    personas = config.personas
    if "personas" not in config.model_fields_set:
        personas = str(workspace.personas)
    # Absolute where they exist, so rescore and judge find them from any directory (a
    # missing path stays as typed: the bundled library, or an error naming it).
    update["categories"] = list(dict.fromkeys([*workspace.extra_categories, *config.categories]))
    update["scenarios"] = [_absolute(p) for p in scenarios]
    update["personas"] = _absolute(personas)
    if config.replay_customer:  # workers and a resume from elsewhere read the same run
        update["replay_customer"] = _absolute(config.replay_customer)
    own = [resolve_domain_spec(s, Path.cwd()) for s in config.domains]
    update["domains"] = list(dict.fromkeys([*workspace.domains, *own]))
    return config.model_copy(update=update)


def _absolute(path: str) -> str:
    return str(Path(path).resolve()) if Path(path).exists() else path


def prepare_run(request: RunRequest, env: Mapping[str, str]) -> Prepared:
    """Everything before the first conversation; raises InputError with nothing written."""
    config = resolve_config(request)
    workspace = find_workspace()
    config = effective_config(config, workspace)
    if config.ray is not None:
        check_ray_installed()
    concurrency = config.bounds  # what the flag means, resolved once for this session
    built = build_context(
        config,
        env,
        workspace,
        concurrency=concurrency,
        cache=request.cache,
        cache_agents=request.cache_agents,
    )
    session = prepare(
        config,
        built.fingerprint,
        concurrency=concurrency,
        run_id=request.run_id or default_run_id(config),
        resume=request.resume,
        force=request.force,
    )
    return Prepared(config, session, built.pool, built.ctx, built.scenario_count, built.models)
