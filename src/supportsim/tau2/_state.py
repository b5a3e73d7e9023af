"""A tau2 conversation's final state, stored small: tau2's hash and the changed records.

tau2's retail database is 2.8 MB; storing it per conversation would make a 74-task run
with 4 trials 800 MB. A record of an imported tau2 scenario keeps instead
``state_sha256`` (tau2's database hash of the final state: what its DB reward compares)
and ``state_changes`` (every top-level table's records that differ from the scenario's
initial state, in full; ``null`` for a record that disappeared), from which ``rescore``
rebuilds the final state exactly. The initial state comes from the ``tau2_data`` folder
beside the scenario file (``supportsim import tau2`` writes it).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson

from supportsim.scenario import Scenario
from supportsim.tau2._data_dir import tau2_data_dir


def tau2_initial(scenario: Scenario) -> dict[str, Any] | None:
    """The scenario's initial state dump, or None (not a tau2 scenario, or no tau2 data
    beside its file: the record then keeps the whole final state)."""
    if scenario.tau2 is None or scenario.source.startswith("<"):
        return None
    data = tau2_data_dir([Path(scenario.source)])
    if data is None:
        return None
    state = orjson.dumps(scenario.state, option=orjson.OPT_SORT_KEYS).decode()
    return _initial(str(data), state)


@functools.lru_cache(maxsize=8)
def _initial(data: str, state: str) -> dict[str, Any]:
    from supportsim.tau2.retail import domain  # only a tau2 run pays its import

    return domain(data).initial_state(orjson.loads(state)).model_dump(mode="json")


def state_changes(final: Mapping[str, Any], initial: Mapping[str, Any]) -> dict[str, Any]:
    """What differs in ``final``: per mapping-valued field, the changed records in full
    (``None``: removed); any other field, its whole value when it differs."""
    out: dict[str, Any] = {}
    for key in sorted(set(final) | set(initial)):
        new, old = final.get(key), initial.get(key)
        if isinstance(new, Mapping) and isinstance(old, Mapping):
            diff = {k: new.get(k) for k in sorted(set(new) | set(old)) if new.get(k) != old.get(k)}
            if diff:
                out[key] = {"records": diff}
        elif new != old:
            out[key] = {"value": new}
    return out


def apply_changes(initial: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """``initial`` with ``changes`` (``state_changes``' output) applied: the final state."""
    final = dict(initial)
    for key, change in changes.items():
        if "value" in change:
            final[key] = copy.deepcopy(change["value"])
            continue
        table = dict(final.get(key) or {})
        for rid, record in change["records"].items():
            if record is None:
                table.pop(rid, None)
            else:
                table[rid] = copy.deepcopy(record)
        final[key] = table
    return final


def compact_state(scenario: Scenario, final: Mapping[str, Any]) -> dict[str, Any] | None:
    """The record's ``state_sha256`` and ``state_changes`` for a tau2 scenario, or None
    when the whole final state must be kept."""
    initial = tau2_initial(scenario)
    if initial is None:
        return None
    from supportsim.tau2.retail import db_hash

    return {"state_sha256": db_hash(final), "state_changes": state_changes(final, initial)}
