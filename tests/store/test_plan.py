"""RunPlan: the one definition of a run's units, read back from run.json."""

from __future__ import annotations

from supportsim.store import ConversationRecord, RunPlan, split_planned, unit_key


def record(scenario: str, agent: str, trial: int, unit_id: str | None = None) -> ConversationRecord:
    return ConversationRecord(
        unit_id=unit_id or unit_key(scenario, agent, trial),
        scenario_id=scenario,
        agent=agent,
        customer="scripted",
        trial=trial,
        status="completed",
        termination="customer_done",
        strict=True,
        partial=1.0,
        started_at="2026-01-01T00:00:00Z",
        ended_at="2026-01-01T00:00:01Z",
    )


def test_units_are_trial_major_over_labels() -> None:
    plan = RunPlan(("s1", "s2"), ("ours", "theirs"), 2)
    assert plan.unit_ids() == [
        "s1|ours|1",
        "s1|theirs|1",
        "s2|ours|1",
        "s2|theirs|1",
        "s1|ours|2",
        "s1|theirs|2",
        "s2|ours|2",
        "s2|theirs|2",
    ]
    assert len(plan) == 8


def test_the_manifest_plan_uses_the_stored_labels_not_the_specs() -> None:
    manifest = {
        "scenarios": {"s1": "h"},
        "agents": {"rule-agent": "python:examples.python_agent:RuleAgent"},
        "config": {"agents": ["python:examples.python_agent:RuleAgent"], "trials": 1},
    }
    plan = RunPlan.of_manifest(manifest)
    assert plan is not None and plan.unit_ids() == ["s1|rule-agent|1"]
    mine, foreign = split_planned([record("s1", "rule-agent", 1)], plan)
    assert [r.unit_id for r in mine] == ["s1|rule-agent|1"] and len(foreign) == 0


def test_an_old_manifest_infers_labels_from_label_equals_spec() -> None:
    manifest = {
        "scenarios": {"s1": "h"},
        "config": {"agents": ["ours=oracle", "openai:gpt-4.1", "http://x/?a=b"], "trials": 1},
    }
    plan = RunPlan.of_manifest(manifest)
    assert plan is not None and not plan.labels_stored
    assert plan.agents == ("ours", "openai:gpt-4.1", "http://x/?a=b")


def test_foreign_records_are_counted_with_why() -> None:
    plan = RunPlan(("s1",), ("ours",), 2)
    records = [
        record("s1", "ours", 1),
        record("s1", "theirs", 1),
        record("s2", "ours", 1),
        record("s1", "ours", 3),
        record("s1", "ours", 2, unit_id="s1/ours/2"),  # an id not in the plan's form
        record("s1", "ours", 2),
    ]
    mine, foreign = split_planned(records, plan)
    assert [r.unit_id for r in mine] == ["s1|ours|1", "s1|ours|2"]
    assert len(foreign) == 4
    why = dict(foreign.why)
    assert "agent 'theirs' is not one of the run's agents (ours)" in why["s1|theirs|1"]
    assert "scenario 's2' is not selected" in why["s2|ours|1"]
    assert "trial 3 is beyond the run's 2 trial(s)" in why["s1|ours|3"]
    assert "is not scenario|agent|trial of the plan" in why["s1/ours/2"]
    assert foreign.describe().startswith("4 unit(s) recorded outside the run's plan")


def test_without_a_plan_every_record_counts() -> None:
    mine, foreign = split_planned([record("x", "y", 1)], None)
    assert len(mine) == 1 and len(foreign) == 0
    assert RunPlan.of_manifest(None) is None
    assert RunPlan.of_manifest({"scenarios": {}, "config": {"trials": 0, "agents": []}}) is None


def test_a_plan_of_several_customers_names_the_customer_in_each_unit_id() -> None:
    plan = RunPlan(("s1",), ("ours", "theirs"), 1, customers=("scripted", "openai:c"))
    assert plan.unit_ids() == [
        "s1|ours|1|scripted",
        "s1|theirs|1|scripted",
        "s1|ours|1|openai:c",
        "s1|theirs|1|openai:c",
    ]
    assert len(plan) == 4
    # one Customer: the ids every run before several Customers has
    assert RunPlan(("s1",), ("ours",), 1, customers=("openai:c",)).unit_ids() == ["s1|ours|1"]


def test_the_manifest_plan_reads_one_customer_or_several() -> None:
    manifest = {
        "scenarios": {"s1": "h"},
        "agents": {"ours": "oracle"},
        "config": {"agents": ["oracle"], "trials": 1, "customer": ["scripted", "openai:c"]},
    }
    plan = RunPlan.of_manifest(manifest)
    assert plan is not None and plan.customers == ("scripted", "openai:c")
    assert plan.unit_ids() == ["s1|ours|1|scripted", "s1|ours|1|openai:c"]
    old = {**manifest, "config": {"agents": ["oracle"], "trials": 1}}
    plan = RunPlan.of_manifest(old)
    assert plan is not None and plan.customers == ("scripted",)
    assert plan.unit_ids() == ["s1|ours|1"]


def test_a_record_of_another_customer_is_foreign_with_why() -> None:
    plan = RunPlan(("s1",), ("ours",), 1, customers=("scripted", "openai:c"))
    other = record("s1", "ours", 1, unit_id="s1|ours|1|openai:x")
    other.customer = "openai:x"
    mine, foreign = split_planned([other], plan)
    assert not mine
    assert "customer 'openai:x' is not one of the run's Customers" in foreign.why[other.unit_id]
