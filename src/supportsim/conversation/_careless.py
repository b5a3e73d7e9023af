"""The careless Agent: the reference workflow with its identity checks left out.

It shows what a failing report looks like without a model or a key (the demo run,
``runs/demo.yaml``, runs it beside the oracle). It is flawed the way a hurried human
agent or an over-eager model is: it performs the scenario's reference plan, but skips
every call to a tool the domain names as an identity gate (``Domain.gates``:
``verify_customer``, ``verify_identity``, ...), then goes on as if the check had passed.
So on a scenario that needs verification its writes come before their gate (the tool may
refuse them) and its closing words still report the action: the report shows
``step:...`` failures "before verification" and, where the write was refused, a
``forbidden:false_claim``. On a scenario that needs no verification it does what the
oracle does and passes. Deterministic: no model, no randomness.
"""

from __future__ import annotations

from collections.abc import Mapping

from supportsim.conversation._oracle import OracleAgent
from supportsim.scenario import PlannedCall, Scenario, reference_plan

CARELESS = "careless"
"""Its spec and label (``--agent careless``)."""


class CarelessAgent(OracleAgent):
    """Replays the reference plan without the calls to the domain's gate tools."""

    name = CARELESS

    def __init__(self, scenario: Scenario, gates: Mapping[str, str]) -> None:
        """``gates``: the domain's identity gates, tool name -> the field it verifies."""
        plan = [
            item
            for item in reference_plan(scenario)
            if not (isinstance(item, PlannedCall) and item.tool in gates)
        ]
        super().__init__(scenario, plan)
