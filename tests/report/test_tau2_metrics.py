"""tau2-bench's figures in a report: pass^k and average reward computed as tau2 computes them.

``tau2_reference`` below is tau2's ``get_metrics_df`` + ``get_tasks_pass_hat_k`` +
``compute_metrics`` (metrics/agent_metrics.py) transcribed without pandas: drop
infrastructure errors, success = reward within 1e-6 of 1, max_k = the fewest trials any
task kept (at most the trials asked for), per task C(c, k) / C(n, k), mean over tasks.
"""

from __future__ import annotations

import math
from collections import defaultdict
from io import StringIO
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from report_helpers import make_record
from rich.console import Console

from supportsim.report import agent_summary, render_summary, summarise
from supportsim.report._tau2 import tau2_metrics
from supportsim.store import ConversationRecord
from supportsim.tau2 import tau2_pass_hat_ks


def tau2_record(task: str, trial: int, *, reward: float, status: str = "completed") -> Any:
    record = make_record(task, "agent", trial, strict=reward == 1.0, status=status)
    return record.model_copy(update={"domain": "tau2_retail"})


def tau2_reference(sims: list[tuple[str, float, str]], trials: int) -> dict[str, float]:
    """(task id, reward, termination reason) per simulation -> {k: pass^k}, as tau2 does."""
    kept = [(t, r) for t, r, reason in sims if reason != "infrastructure_error"]
    by_task: dict[str, list[bool]] = defaultdict(list)
    for task, reward in kept:
        by_task[task].append((1 - 1e-6) <= reward <= (1 + 1e-6))
    if not by_task:
        return {}
    max_k = min(trials, min(len(v) for v in by_task.values()))
    out = {}
    for k in range(1, max_k + 1):
        per_task = [math.comb(sum(v), k) / math.comb(len(v), k) for v in by_task.values()]
        out[str(k)] = sum(per_task) / len(per_task)
    return out


SIMS = st.lists(
    st.tuples(
        st.sampled_from(["0", "1", "2", "3"]),
        st.sampled_from([0.0, 1.0]),
        st.sampled_from(["user_stop", "max_steps", "infrastructure_error"]),
    ),
    min_size=1,
    max_size=24,
)


@given(SIMS, st.integers(1, 6))
def test_our_tau2_pass_hat_k_is_tau2s_on_any_set_of_trials(
    sims: list[tuple[str, float, str]], trials: int
) -> None:
    status = {"infrastructure_error": "infra_error"}
    records = [
        tau2_record(task, i, reward=reward, status=status.get(reason, "completed"))
        for i, (task, reward, reason) in enumerate(sims, start=1)
    ]
    figures = tau2_metrics(records, trials)
    ours = figures.pass_hat_k if figures is not None else None
    expected = tau2_reference(sims, trials)
    assert ours is not None and ours.keys() == expected.keys()
    assert all(math.isclose(ours[k], expected[k]) for k in expected)


def test_pass_hat_k_per_task_then_averaged_with_tau2s_k_range() -> None:
    # task a: 3 trials, 2 passes; task b: 3 trials, 3 passes; task c: 2 kept trials
    outcomes = {"a": [True, True, False], "b": [True] * 3, "c": [True, False]}
    got = tau2_pass_hat_ks(outcomes, trials=3)
    assert list(got) == ["1", "2"]  # max_k: the fewest trials a task kept
    assert math.isclose(got["1"], (2 / 3 + 1 + 1 / 2) / 3)
    assert math.isclose(got["2"], (1 / 3 + 1 + 0) / 3)
    assert tau2_pass_hat_ks({}, trials=3) == {}
    assert list(tau2_pass_hat_ks({"a": [True] * 5}, trials=2)) == ["1", "2"]  # <= trials


def test_infra_harness_and_simulator_errors_are_left_out_as_tau2_leaves_them_out() -> None:
    records = [
        tau2_record("t", 1, reward=1.0),
        tau2_record("t", 2, reward=0.0, status="infra_error"),
        tau2_record("t", 3, reward=0.0, status="harness_error"),
        tau2_record("t", 4, reward=0.0, status="simulator_fault"),
    ]
    figures = tau2_metrics(records, trials=4)
    assert figures is not None
    m = figures.model_dump()
    assert (m["tasks"], m["simulations"], m["infra_errors"], m["harness_errors"]) == (1, 1, 1, 1)
    assert m["simulator_faults"] == 1
    assert m["avg_reward"] == 1.0  # the one kept simulation passed
    assert m["pass_hat_k"] == {"1": 1.0}
    assert m["termination"] == {"user_stop": 1, "max_steps": 0, "error": 0}


def test_units_of_our_own_scenarios_get_no_tau2_block() -> None:
    ours = [make_record("s", "agent", 1)]
    assert tau2_metrics(ours, trials=1) is None
    assert "tau2" not in agent_summary(ours, 1).model_dump(exclude_unset=True)
    mixed: list[ConversationRecord] = [*ours, tau2_record("t", 1, reward=1.0)]
    block = agent_summary(mixed, 1).model_dump()["tau2"]
    assert (block["tasks"], block["simulations"]) == (1, 1)  # our scenario is not a task


def test_the_terminal_report_shows_tau2s_table_only_for_tau2_runs() -> None:
    def shown(records: list[ConversationRecord]) -> str:
        buffer = StringIO()
        render_summary(summarise(records, trials=2), Console(file=buffer, width=200))
        return buffer.getvalue()

    tau2 = [
        tau2_record("t", 1, reward=1.0),
        tau2_record("t", 2, reward=0.0),
        tau2_record("u", 1, reward=1.0),
        tau2_record("u", 2, reward=1.0),
    ]
    text = shown(tau2)
    assert "tau2-bench metrics" in text
    after = text.split("tau2-bench metrics", 1)[1].splitlines()
    row = next(line for line in after if line.strip("│ ").startswith("agent"))
    assert "75.0%" in row and "50.0%" in row  # avg reward 3/4; pass^2 (0 + 1) / 2
    assert "tau2-bench metrics" not in shown([make_record("s", "agent", 1)])


def test_the_html_report_has_a_tau2_section_only_for_tau2_runs() -> None:
    from supportsim.report import render_report

    tau2 = [tau2_record("t", 1, reward=1.0), tau2_record("t", 2, reward=0.0)]
    html = render_report(summarise(tau2, trials=2), tau2, run_id="r", in_progress=False)
    section = html.split('<section id="tau2">', 1)[1].split("</section>", 1)[0]
    assert "tau2-bench metrics" in section and "50.0%" in section  # avg reward, pass^1
    ours = [make_record("s", "agent", 1)]
    html = render_report(summarise(ours, trials=1), ours, run_id="r", in_progress=False)
    assert '<section id="tau2">' not in html
