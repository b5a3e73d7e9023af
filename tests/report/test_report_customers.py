"""The customers section: each Agent under each Customer, the spread, Kendall's tau-b
(with ties) and the pairs of Agents that swap."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from supportsim.report import summarise
from supportsim.report._customers import kendall_tau_b, swaps
from supportsim.report._facts import UnitFacts


def fact(agent: str, customer: str, trial: int, strict: bool, partial: float) -> UnitFacts:
    return UnitFacts(
        unit_id=f"s|{agent}|{trial}|{customer}",
        scenario_id="s",
        agent=agent,
        customer=customer,
        trial=trial,
        status="completed",
        termination="customer_done",
        strict=strict,
        partial=partial,
        domain="mock",
        category="refunds",
        unscored=False,
        cost_usd=None,
        agent_cost_usd=None,
        checks=(),
        replies=(),
        agent_calls=0,
        agent_input_tokens=None,
        agent_output_tokens=None,
        call_client_ms=(),
    )


def test_tau_b_is_one_for_the_same_order_and_minus_one_reversed() -> None:
    a = {"x": (1.0, 1.0), "y": (0.5, 0.5), "z": (0.0, 0.0)}
    b = {"x": (0.0, 0.1), "y": (0.5, 0.5), "z": (1.0, 0.9)}
    assert kendall_tau_b(a, a) == 1.0
    assert kendall_tau_b(a, b) == -1.0
    assert swaps(a, b) == [["x", "y"], ["x", "z"], ["y", "z"]]
    assert swaps(a, a) == []


def test_tau_b_counts_ties_and_a_tie_is_no_swap() -> None:
    a = {"x": (1.0, 1.0), "y": (0.5, 0.5), "z": (0.5, 0.5)}  # y and z tied
    b = {"x": (1.0, 1.0), "y": (0.5, 0.6), "z": (0.5, 0.5)}  # partial breaks the tie
    # concordant 2 (x-y, x-z), discordant 0, ties: 1 in a, 0 in b, of 3 pairs
    assert kendall_tau_b(a, b) == pytest.approx(2 / (2 * 3) ** 0.5)
    assert swaps(a, b) == []


def test_tau_b_is_undefined_with_fewer_than_two_agents_or_all_tied() -> None:
    assert kendall_tau_b({"x": (1.0, 1.0)}, {"x": (0.0, 0.0)}) is None
    tied = {"x": (0.5, 0.5), "y": (0.5, 0.5)}
    assert kendall_tau_b(tied, {"x": (1.0, 1.0), "y": (0.0, 0.0)}) is None


scores = st.dictionaries(
    st.sampled_from("abcdef"),
    st.tuples(st.sampled_from([0.0, 0.5, 1.0]), st.sampled_from([0.0, 0.5, 1.0])),
    min_size=2,
)


@given(scores, scores)
def test_tau_b_is_a_symmetric_correlation(a: dict, b: dict) -> None:
    tau = kendall_tau_b(a, b)
    assert tau == kendall_tau_b(b, a)
    if tau is not None:
        assert -1.0 - 1e-12 <= tau <= 1.0 + 1e-12
        assert tau < 1.0 or not swaps(a, b)


def test_the_section_gives_scores_spread_and_the_swapped_pair() -> None:
    # under "easy" ours beats theirs; under "hard" theirs beats ours
    facts = [
        fact("ours", "easy", 1, True, 1.0),
        fact("ours", "easy", 2, True, 1.0),
        fact("theirs", "easy", 1, False, 0.5),
        fact("theirs", "easy", 2, True, 0.9),
        fact("ours", "hard", 1, False, 0.2),
        fact("ours", "hard", 2, False, 0.4),
        fact("theirs", "hard", 1, True, 1.0),
        fact("theirs", "hard", 2, False, 0.6),
    ]
    summary = summarise(facts, trials=2, agents=["ours", "theirs"], customers=["easy", "hard"])
    section = summary.customers
    assert section is not None
    ours = section.agents["ours"]
    assert ours.by_customer["easy"].strict_rate == 1.0
    assert ours.by_customer["hard"].strict_rate == 0.0
    assert ours.strict_spread == 1.0
    assert ours.partial_spread == pytest.approx(1.0 - 0.3)
    assert section.agents["theirs"].strict_spread == 0.0
    [pair] = section.agreement
    assert pair.kendall_tau_b == -1.0
    assert pair.swaps == [["ours", "theirs"]]
    assert section.stable is False
    assert "customers" in summary.document()


def test_a_run_of_one_customer_has_no_section() -> None:
    facts = [fact(a, "only", t, True, 1.0) for a, t in itertools.product(("x", "y"), (1, 2))]
    summary = summarise(facts, trials=2)
    assert summary.customers is None
    assert "customers" not in summary.document()


def test_an_agent_without_scored_units_under_a_customer_is_left_out_of_that_ranking() -> None:
    facts = [
        fact("x", "c1", 1, True, 1.0),
        fact("y", "c1", 1, False, 0.0),
        fact("x", "c2", 1, True, 1.0),
    ]
    section = summarise(facts, trials=1, customers=["c1", "c2"]).customers
    assert section is not None
    [pair] = section.agreement
    assert pair.agents == 1 and pair.kendall_tau_b is None and pair.swaps == []
    assert section.agents["y"].by_customer["c2"].n == 0
    assert section.agents["y"].strict_spread is None


def test_the_html_and_markdown_reports_show_the_section_escaped() -> None:
    from supportsim.report._html import render_report
    from supportsim.report._markdown import render_markdown

    facts = [
        fact("ours", "<b>loud</b>", 1, True, 1.0),
        fact("theirs", "<b>loud</b>", 1, False, 0.0),
        fact("ours", "calm", 1, False, 0.0),
        fact("theirs", "calm", 1, True, 1.0),
    ]
    summary = summarise(facts, trials=1, customers=["<b>loud</b>", "calm"])
    page = render_report(summary, [], run_id="r", in_progress=False)
    section = page[page.index('<section id="customers">') :]
    section = section[: section.index("</section>")]
    assert "&lt;b&gt;loud&lt;/b&gt;" in section and "<b>loud" not in section
    assert "Kendall tau-b -1.00" in section and "ours &gt; theirs under A" in section
    markdown = render_markdown(summary, run_id="r")
    assert "### Customers" in markdown and "<b>" not in markdown
    assert "NOT stable" in markdown


def scripted_and_quitter() -> list[UnitFacts]:
    # the oracle passes every trial under "scripted" and none under "quitter"
    return [
        *(fact("oracle", "scripted", t, True, 1.0) for t in (1, 2)),
        *(fact("oracle", "quitter", t, False, 0.0) for t in (1, 2)),
    ]


def test_pass_hat_k_takes_the_trials_of_one_scenario_under_one_customer() -> None:
    summary = summarise(scripted_and_quitter(), trials=2, customers=["scripted", "quitter"])
    row = summary.agents["oracle"]
    # per (scenario, Customer): 1.0 under scripted, 0.0 under quitter; pooled it was 1/6
    assert row.pass_hat_k == {"1": 0.5, "2": 0.5}
    assert row.pass_hat_k_scenarios == {"1": 2, "2": 2}
    assert row.scenarios == 1
    section = summary.customers
    assert section is not None
    by = section.agents["oracle"].pass_hat_k
    assert by == {"scripted": {"1": 1.0, "2": 1.0}, "quitter": {"1": 0.0, "2": 0.0}}


def test_a_gate_fails_when_any_customers_figure_is_below_and_names_it() -> None:
    from supportsim.batch import check_gates

    summary = summarise(scripted_and_quitter(), trials=2, customers=["scripted", "quitter"])
    for metric in ("strict", "partial", "pass^2"):
        [miss] = check_gates(summary, {metric: 0.5})  # the pooled figure is 0.5: it passed
        assert (miss.agent, miss.customer, miss.value) == ("oracle", "quitter", 0.0)
        assert "agent oracle under Customer quitter" in miss.reason()


def test_the_header_counts_trials_per_scenario_under_each_customer() -> None:
    from rich.console import Console

    from supportsim.report._terminal import render_summary

    summary = summarise(scripted_and_quitter(), trials=2, customers=["scripted", "quitter"])
    console = Console(record=True, width=200)
    render_summary(summary, console)
    assert "2 trial(s) per scenario under each of 2 Customers" in console.export_text()


def test_equal_scores_that_differ_only_by_float_rounding_are_tied_not_swapped() -> None:
    # partial 0.1 + 0.2 + 0.3 over 3 (0.20000000000000004) against 0.3 + 0.2 + 0.1 (also
    # 0.2 in fractions, another float) and 0.2 three times: every mean is 20.0%
    parts = {"x": (0.1, 0.2, 0.3), "y": (0.3, 0.2, 0.1), "z": (0.2, 0.2, 0.2)}
    facts = [
        fact(agent, customer, t, False, p if customer == "c1" else list(reversed(ps))[t - 1])
        for agent, ps in parts.items()
        for customer in ("c1", "c2")
        for t, p in enumerate(ps, start=1)
    ]
    section = summarise(facts, trials=3, customers=["c1", "c2"]).customers
    assert section is not None
    means = {a: section.agents[a].by_customer["c1"].partial_mean for a in parts}
    assert len(set(means.values())) > 1  # the floats differ: only the ranking may ignore it
    [pair] = section.agreement
    assert pair.swaps == [] and pair.kendall_tau_b is None  # all tied: tau-b undefined
    assert pair.agents == 3 and section.stable is True


def unrun(f: UnitFacts) -> UnitFacts:
    return dataclasses.replace(f, status="infra_error", strict=None, partial=None)


def test_stable_is_not_determined_when_no_pair_of_customers_ranked_two_agents() -> None:
    from supportsim.report._format import agreement_lines

    one_agent = [fact("x", c, 1, True, 1.0) for c in ("c1", "c2")]
    lost = [  # every unit of c2 failed to run: nothing to rank under it
        fact("x", "c1", 1, True, 1.0),
        fact("y", "c1", 1, False, 0.0),
        *(unrun(fact(a, "c2", 1, False, 0.0)) for a in "xy"),
    ]
    for facts in (one_agent, lost):
        section = summarise(facts, trials=1, customers=["c1", "c2"]).customers
        assert section is not None and section.stable is None
        assert agreement_lines(section)[-1] == (
            "rank agreement: not determined (fewer than two Agents ranked under two Customers)"
        )
    compared = summarise(
        [fact(a, c, 1, a == "x", 1.0 if a == "x" else 0.0) for a in "xy" for c in ("c1", "c2")],
        trials=1,
        customers=["c1", "c2"],
    ).customers
    assert compared is not None and compared.stable is True
