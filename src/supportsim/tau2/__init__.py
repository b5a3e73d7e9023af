"""tau2-bench as a plug-in benchmark: its conversation rules, prompts and user simulator.

Nothing in the core imports this package: ``conversation/_rules.py`` registers it by name
(``register_rules("tau2", "supportsim.tau2:conversation_rules", claims)``) and imports it
the first time a conversation is held by tau2's rules (a scenario imported from tau2, or
``--conversation-mode tau2``), so a run without one never pays for it.

Why a top-level package (``supportsim.tau2``, after ``scoring`` in ``tests/test_layering.py``)
rather than ``domains/tau2_retail`` grown into one: the rules need ``conversation``, which
sits above ``domains``; a plug-in that needs the core must sit above the parts it uses, and
nothing below may import it. The other pieces of tau2 are plugged in through the extension
point each belongs to, and stay where that point reads them:

- the Domain: ``domains/tau2_retail`` (built by ``domains.builtin_domains`` when the scenario
  paths carry imported tau2 data);
- the scorer: ``scoring/_tau2.py`` and ``scoring/_tau2_judge.py`` (``score`` and
  ``assertion_verdicts`` use them for a scenario with ``Scenario.tau2``);
- the task format: ``scenario/_tau2.py`` (``Scenario.tau2``, part of the scenario file);
- the importer: ``importers/tau2.py`` (``supportsim import tau2``);
- the record state and report figures: ``store/_tau2_state.py``, ``report/_tau2.py``.

Those paths are public to the tests that prove tau2's numbers hash-exact, and each is
imported by the layer beneath this package, so they cannot move here without re-exports
pointing up the layering.

A second benchmark plugs in the same way without touching the core: a package of its own
with a zero-argument factory returning its ``ConversationRules``, registered by
``supportsim.conversation.register_rules(name, "pkg.module:factory", claims)`` from the
module that brings its Domain (a workspace domain plug-in, ``domains/_plugin.py``), where
``claims(scenario)`` picks the scenarios the ``auto`` mode holds by its rules without
importing the package; its checks come from a plug-in Scorer (``scoring/_scorer.py``) the
domain names; its importer goes in ``importers/``. One limit: forcing its rules on every
scenario (``--conversation-mode NAME``) also needs NAME in ``ConversationMode``, the literal
the run config validates against (``auto`` needs nothing).
"""

from __future__ import annotations

from supportsim.tau2._data_dir import DATA_DIRNAME, retail_domain_for, tau2_data_dir
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
    "Tau2Customer",
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
    "tau2_initial",
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
