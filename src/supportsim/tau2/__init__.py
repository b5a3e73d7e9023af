"""tau2-bench as a plug-in benchmark: every part of it that a run uses, in one package.

- ``retail/``: the ``tau2_retail`` Domain (tau2's tools, database and policy);
  ``_data_dir.py``: the ``tau2_data`` folder an import writes beside its scenarios, and
  ``retail_domain_for``, the domain built from it;
- ``_rules.py`` (+ ``prompts/``, package data): the conversation rules, prompts, greeting,
  stop tokens and user simulator;
- ``_score.py``: tau2's reward (``tau2_score``; ``Tau2Scoring``), ``_judge.py``: its
  NL-assertion judge;
- ``_state.py``: a record's final state kept as tau2's hash and the changed records;
- ``_figures.py``: tau2's report figures (avg reward, pass^k, terminations).

Nothing below this package imports it (``tests/test_layering.py``: it sits after
``scoring``). Each low package has an extension point that names a plug-in by
``"module:attribute"`` and says which scenarios or scenario folders it claims without
importing it; tau2 is registered there, in the package that owns the point:

- ``domains/_data_domains.py``: ``register_data_domain("tau2", "tau2_data",
  "supportsim.tau2:retail_domain_for")``; ``builtin_domains(scenario_paths)`` imports this
  package only when a scenario path carries a ``tau2_data`` folder;
- ``conversation/_rules.py``: ``register_rules("tau2", "supportsim.tau2:conversation_rules",
  claims)``, imported when a conversation is held by tau2's rules (a scenario imported from
  tau2, or ``--conversation-mode tau2``);
- ``scoring/_benchmark.py``: ``register_scoring("tau2", "supportsim.tau2:benchmark_scoring",
  claims)``: ``score``, ``statement_questions`` and ``assertion_verdicts`` hand a claimed
  scenario to its ``BenchmarkScoring`` (tau2's reward is its own evaluator, not a Scorer).

Packages above import it lazily, only for a tau2 scenario: ``store`` (``compact_state``),
``rescore`` (``tau2_initial``, ``apply_changes``), ``report`` (``tau2_figures``, for an
agent that ran a tau2 task), ``batch`` (``judge_config``, with
``--assertion-judge``), ``importers/tau2.py`` (``supportsim import tau2``). So a run without
a tau2 scenario never imports it (``tests/tau2/test_tau2_import_cost.py``,
``tests/conversation/test_rules.py``).

Outside this package, because a package below or above it owns the concept:

- the task format ``scenario/_tau2.py`` (``Scenario.tau2``: a typed field of the scenario
  file, validated when it loads; ``scenario`` is the lowest package) and the reference plan
  of a tau2 scenario (its gold actions, ``scenario/_plan.py``);
- the ``tau2_`` end reasons in ``conversation/_transcript.py`` and ``ConversationMode``'s
  ``"tau2"`` (literals of the record and run-config schemas);
- which units are tau2's and their figures' schema, ``report/_tau2.py`` and
  ``store.Tau2Figures`` (``summary.json``): they read report's unit facts and build a store
  model, and both packages sit above this one;
- the importer ``importers/tau2.py`` (its own room, above this package).

A second benchmark plugs in the same way without touching the core: a package of its own
with zero-argument factories, registered from the module that brings its Domain (a
workspace domain plug-in, ``domains/_plugins.py``, or its own data domain with
``register_data_domain``): ``register_rules(name, "pkg.module:rules_factory", claims)``
for its conversation rules, and either a plug-in Scorer the domain names
(``scoring/_scorer.py``) for checks of ours, or ``register_scoring(name,
"pkg.module:scoring_factory", claims)`` for a reward of its own; its importer goes in
``importers/``. One limit: forcing its rules on every scenario (``--conversation-mode
NAME``) also needs NAME in ``ConversationMode``, the literal the run config validates
against (``auto`` needs nothing).
"""

from __future__ import annotations

from supportsim.tau2._data_dir import DATA_DIRNAME, retail_domain_for, tau2_data_dir
from supportsim.tau2._figures import TaskUnit, Tau2Metrics, tau2_figures, tau2_pass_hat_ks
from supportsim.tau2._judge import (
    TAU2_JUDGE_MODEL,
    assertion_request,
    judge_assertions,
    judge_config,
    parse_verdicts,
    tau2_verdicts,
)
from supportsim.tau2._rules import (
    MAX_ERRORS,
    MAX_STEPS,
    OUT_OF_SCOPE,
    STOP,
    STOP_TOKENS,
    TRANSFER,
    Tau2Customer,
    Tau2Prompts,
    Tau2Rules,
    build_tau2_customer,
    scenario_user_text,
    stop_reason,
    tau2_agent_system_prompt,
    tau2_prompts,
    tau2_rules,
    tau2_task_user_text,
    tau2_user_system_prompt,
    tool_content,
    user_scenario_text,
    uses_tau2,
)
from supportsim.tau2._score import NO_JUDGE, Tau2Scoring, action_matches, tau2_score
from supportsim.tau2._state import apply_changes, compact_state, state_changes, tau2_initial


def conversation_rules() -> Tau2Rules:
    """The rules factory ``conversation/_rules.py`` registers (looked up on every use)."""
    return tau2_rules()


def benchmark_scoring() -> Tau2Scoring:
    """The scoring factory ``scoring/_benchmark.py`` registers (looked up on every use)."""
    return Tau2Scoring()


__all__ = [
    "DATA_DIRNAME",
    "MAX_ERRORS",
    "MAX_STEPS",
    "NO_JUDGE",
    "OUT_OF_SCOPE",
    "STOP",
    "STOP_TOKENS",
    "TAU2_JUDGE_MODEL",
    "TRANSFER",
    "TaskUnit",
    "Tau2Customer",
    "Tau2Metrics",
    "Tau2Prompts",
    "Tau2Rules",
    "Tau2Scoring",
    "action_matches",
    "apply_changes",
    "assertion_request",
    "benchmark_scoring",
    "build_tau2_customer",
    "compact_state",
    "conversation_rules",
    "judge_assertions",
    "judge_config",
    "parse_verdicts",
    "retail_domain_for",
    "scenario_user_text",
    "state_changes",
    "stop_reason",
    "tau2_agent_system_prompt",
    "tau2_data_dir",
    "tau2_figures",
    "tau2_initial",
    "tau2_pass_hat_ks",
    "tau2_prompts",
    "tau2_rules",
    "tau2_score",
    "tau2_task_user_text",
    "tau2_user_system_prompt",
    "tau2_verdicts",
    "tool_content",
    "user_scenario_text",
    "uses_tau2",
]
