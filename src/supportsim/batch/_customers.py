"""Repeatable Customers: the seed of each unit's Customer, and the stored run whose
Customer replies a run replays (``--replay-customer``).

Seeds. A unit's Customer seed is derived from the run's ``customer_seed`` setting, the
scenario id, the scenario's persona and the trial (``customer_seed``): the first four
bytes, as an unsigned integer below 2**31, of the SHA-256 of
``"supportsim-customer-seed|{setting}|{scenario}|{persona}|{trial}"``. It does not depend
on the Agent or the Customer, so every Agent (and every Customer of a run of several) meets
the same draw for the same (scenario, persona, trial): comparisons are paired. It is sent
with every call of the Customer's model to a provider that takes one (``llm.takes_seed``:
OpenAI-compatible ``seed``, which providers treat as best effort); Anthropic's API has no
seed, so none is sent and the record's ``customer_seed`` is null. ``customer_seed: null``
sends none (a models file's ``params.seed`` for the Customer's model then stands, and is
what the record keeps).

Replay. A stored run's records are read once per process (the driver and each worker):
per unit (scenario, Agent label, Customer, trial), the completed record's messages, which
of its tool calls were successful writes, and what it was run on: the scenario file's hash
(``scenario_sha256``) and the persona's hash as the stored run.json records it. A unit the
stored run lacks (or did not complete) is simply not replayed; nor is one whose scenario
file changed (its opening, facts or goal may differ: a stored reply would answer another
conversation) or whose persona changed (its id is in the scenario file; its content hash
is compared when the stored run.json has it). ``run`` says at its start how many units
were not replayed for a change (``ReplaySource.changed``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from supportsim.batch._manifest import persona_sha256
from supportsim.conversation import (
    CallerFor,
    ConversationRules,
    Message,
    StoredReply,
    stored_replies,
)
from supportsim.errors import InputError
from supportsim.llm import LLMRequest, LLMResponse, ModelCaller, ModelConfig, ToolCall, takes_seed
from supportsim.scenario import Persona, Scenario
from supportsim.store import (
    CONVERSATIONS,
    MANIFEST,
    ConversationRecord,
    latest_records,
    read_json,
)

SEED_BITS = 31
"""Seeds are below 2**31: every OpenAI-compatible server takes a 32-bit signed seed."""


def customer_seed(setting: int, scenario_id: str, persona: str, trial: int) -> int:
    """The Customer seed of one (scenario, persona, trial) under the run's setting (see
    the module docstring): deterministic, the same for every Agent and Customer."""
    text = f"supportsim-customer-seed|{setting}|{scenario_id}|{persona}|{trial}"
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") % (1 << SEED_BITS)


def sent_seed(
    model: ModelConfig | None, setting: int | None, scenario_id: str, persona: str, trial: int
) -> int | None:
    """The seed a unit's Customer calls are sent with, None when none is: a scripted
    Customer (``model`` None), a provider without seeds, or no setting and no
    ``params.seed``."""
    if model is None or not takes_seed(model):
        return None
    if setting is None:
        return model.params.seed
    return customer_seed(setting, scenario_id, persona, trial)


def seeded(caller_for: CallerFor, seed: int | None) -> CallerFor:
    """``caller_for`` whose ``customer`` callers send ``seed`` with every request (the
    other roles' callers are unchanged); ``caller_for`` itself when ``seed`` is None."""
    if seed is None:
        return caller_for

    def for_role(model: ModelConfig, role: str) -> ModelCaller:
        call = caller_for(model, role)
        if role != "customer":
            return call

        async def with_seed(request: LLMRequest) -> LLMResponse:
            return await call(replace(request, seed=seed))

        return with_seed

    return for_role


ReplayKey = tuple[str, str, str, int]
"""(scenario id, Agent label, Customer label, trial): how a unit finds its stored record."""


@dataclass(frozen=True, slots=True)
class _Stored:
    messages: tuple[Message, ...]
    termination: str
    end_reason: str
    writes: frozenset[str] | None
    """Ids of the tool calls that were successful writes; None: the record has no log."""
    scenario_sha256: str


@dataclass(frozen=True, slots=True)
class ReplaySource:
    """The Customer replies of a stored run, by unit (``load_replay``)."""

    source: str
    """The run directory as given (``--replay-customer``)."""
    units: Mapping[ReplayKey, _Stored]
    personas: Mapping[str, str]
    """Persona id -> hash, as the stored run.json records them (empty when it does not)."""

    def changed(self, key: ReplayKey, scenario: Scenario, persona: Persona | None) -> bool:
        """True when the stored unit exists but ran on another scenario file or persona
        (see the module docstring): it is not replayed."""
        stored = self.units.get(key)
        if stored is None:
            return False
        if stored.scenario_sha256 != scenario.sha256:
            return True  # the persona id too: it is in the scenario file
        known = self.personas.get(scenario.persona)
        return known is not None and persona is not None and known != persona_sha256(persona)

    def replies(
        self,
        key: ReplayKey,
        rules: ConversationRules,
        scenario: Scenario,
        persona: Persona | None,
    ) -> tuple[StoredReply, ...] | None:
        """The stored unit's Customer steps as the Customer saw them under ``rules``;
        None when the stored run has no completed record of the unit, or it ran on a
        changed scenario or persona (``changed``)."""
        stored = self.units.get(key)
        if stored is None or self.changed(key, scenario, persona):
            return None
        return stored_replies(
            stored.messages,
            termination=stored.termination,
            end_reason=stored.end_reason,
            shows=rules.shows_customer,
            writes=stored.writes,
        )


def _message(record: ConversationRecord, index: int) -> Message:
    m = record.messages[index]
    calls = tuple(ToolCall(c.id, c.name, c.arguments) for c in m.tool_calls)
    return Message(m.role, m.content, tool_calls=calls, tool_call_id=m.tool_call_id, turn=m.turn)


def _writes(record: ConversationRecord) -> frozenset[str] | None:
    if record.calls is None:
        return None
    return frozenset(c.call_id for c in record.calls if c.ok and c.kind == "write")


def _persona_hashes(run_dir: Path) -> dict[str, str]:
    """The stored run.json's persona hashes; none when it has none or cannot be read
    (then only the scenario file's hash decides: the persona id is in it)."""
    try:
        manifest = read_json(run_dir / MANIFEST)
    except (OSError, ValueError):
        return {}
    found = manifest.get("personas") if isinstance(manifest, dict) else None
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}


def load_replay(run_dir: str) -> ReplaySource:
    """The stored run's Customer replies, keyed by unit; only what a replay needs of each
    completed record is kept (its messages, its successful writes, how it ended, what it
    ran on).

    Raises:
        InputError: the directory or its conversations.jsonl does not exist, or run.json
            or a line of conversations.jsonl cannot be read (each names the file; a
            damaged line also its number): a run that cannot be read is bad input.
    """
    path = Path(run_dir)
    if not path.is_dir():
        raise InputError(f"--replay-customer {run_dir}: no such run directory")
    conversations = path / CONVERSATIONS
    if not conversations.is_file():
        raise InputError(
            f"--replay-customer {conversations}: no conversations.jsonl (is {run_dir} a run "
            f"directory with a {MANIFEST}?)"
        )
    try:
        records = latest_records(path)
    except OSError as exc:
        raise InputError(f"--replay-customer {conversations}: cannot read it ({exc})") from None
    personas = _persona_hashes(path)
    units: dict[ReplayKey, _Stored] = {}
    for record in records.values():
        if record.status != "completed":
            continue
        kept = tuple(_message(record, i) for i in range(len(record.messages)))
        key = (record.scenario_id, record.agent, record.customer, record.trial)
        units[key] = _Stored(
            kept,
            record.termination,
            record.end_reason,
            _writes(record),
            record.scenario_sha256,
        )
    return ReplaySource(run_dir, units, personas)
