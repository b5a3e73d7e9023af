"""The ``scripted`` Customer: says the scenario's opening and script lines, in order.

Deterministic, for tests and for ``validate``. When its lines run out it ends the
conversation (``script_done``), unless ``keep_going()`` says the Agent still has work to
do, in which case it answers with a neutral go-ahead; ``validate`` wires that to the
oracle so a short script cannot cut the reference workflow off.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from supportsim.conversation._participants import CustomerStep, CustomerTurn
from supportsim.scenario import Scenario

FILLER = "Okay, please go ahead."
DEFAULT_OPENING = "Hello, I need some help with my account."


class ScriptedCustomer:
    name = "scripted"

    def __init__(
        self,
        lines: Sequence[str],
        *,
        keep_going: Callable[[], bool] | None = None,
        filler: str = FILLER,
    ) -> None:
        self._lines = list(lines) or [DEFAULT_OPENING]
        self._keep_going = keep_going
        self._filler = filler
        self._said = 0

    @classmethod
    def for_scenario(
        cls, scenario: Scenario, *, keep_going: Callable[[], bool] | None = None
    ) -> ScriptedCustomer:
        goal = scenario.customer
        opening = goal.opening or (goal.reason if not goal.script else None)
        lines = ([opening] if opening else []) + list(goal.script)
        return cls(lines, keep_going=keep_going)

    async def step(self, turn: CustomerTurn) -> CustomerStep:
        if self._said < len(self._lines):
            self._said += 1
            return CustomerStep(content=self._lines[self._said - 1])
        if self._keep_going is not None and self._keep_going():
            return CustomerStep(content=self._filler)
        return CustomerStep(end="script_done")
