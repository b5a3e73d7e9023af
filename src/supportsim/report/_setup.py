"""What two runs were measured against, and where that differs; whether a run's client was
saturated. Read by ``compare`` and ``trend`` from each run's run.json.

A comparison means something only when the two runs differ in the Agents compared and in
nothing else that changes a number. The setup is read from run.json:

* blocking (``compare --fail-on-regression`` refuses them without ``--allow-different``):
  the Customer (each run's Customers: a run of several is compared under one of them,
  ``compare --customer SPEC``, and refused without it: ``under_customer``), the scenario set
  (each selected scenario file's hash: files changed, scenarios only in one run), the
  personas those scenarios use, the judges (assertion and statement judge), the
  configuration of every model that is not a compared Agent's (the Customer's, the judges':
  what a models file says of them), the conversation rules (``max_turns``, ``timeout_s``,
  ``conversation_mode``, ``tools``) and the supportsim version (its scorer and checks);
* noted, never blocking: the compared Agents' own model configurations (what a comparison
  of two models or two prompt versions is for) and the other package versions (the SDKs
  and Python: they move client time, not scores).

A field run.json does not hold (an older run) cannot be compared and is not reported as a
difference; a run without run.json is said to have an unknown setup.

A run's client was saturated when any of its sessions' loop lag says so (the rule of the
run's warning: ``store.saturated``): its latencies are inflated, so a latency verdict that
reads them is unreliable (``compare`` marks it and never gates on it).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

import orjson

from supportsim.errors import InputError
from supportsim.report._load import RunData
from supportsim.store import customers_of, saturated

CONFIG_SETUP = {
    "customer": "Customer",
    "assertion_judge": "assertion judge",
    "statement_judge": "statement judge",
    "max_turns": "max turns",
    "timeout_s": "conversation timeout_s",
    "conversation_mode": "conversation mode",
    "tools": "tools",
}
"""run.json config keys that change what a score or a latency means, and their names."""
CONFIG_DEFAULTS: dict[str, Any] = {
    "customer": "scripted",
    "assertion_judge": None,
    "statement_judge": None,
    "max_turns": None,
    "timeout_s": 600.0,
    "conversation_mode": "auto",
    "tools": "inprocess",
}
"""What an older run.json that lacks a key ran with (``RunConfig``'s defaults)."""
SHOWN = 3
"""Scenario ids named per kind of change; the rest are counted."""


@dataclass(frozen=True, slots=True)
class SetupDifference:
    """One way two runs' setups differ: what, A's and B's value (``a`` empty: ``b`` says
    how they differ), and whether it blocks a gate (see the module docstring)."""

    what: str
    a: str
    b: str
    blocking: bool

    def describe(self) -> str:
        if not self.a:
            return f"{self.what}: {self.b}"
        return f"{self.what}: {self.a} (A) vs {self.b} (B)"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _config(run: RunData) -> dict[str, Any]:
    config = (run.manifest or {}).get("config")
    return config if isinstance(config, dict) else {}


def _shown(value: Any) -> str:
    return "none" if value is None else str(value)


def _ids(ids: Sequence[str]) -> str:
    shown = ", ".join(ids[:SHOWN])
    return shown + (f" and {len(ids) - SHOWN} more" if len(ids) > SHOWN else "")


def set_hash(hashes: Mapping[str, Any]) -> str:
    """One sha256 over a run's selected scenarios (id and file hash, sorted)."""
    return hashlib.sha256(orjson.dumps(sorted(hashes.items()))).hexdigest()


def _scenario_set(a: Mapping[str, Any], b: Mapping[str, Any]) -> SetupDifference | None:
    if a == b:
        return None
    changed = sorted(k for k in set(a) & set(b) if a[k] != b[k])
    parts = [f"{len(changed)} changed ({_ids(changed)})"] if changed else []
    for side, mine, other in (("A", a, b), ("B", b, a)):
        only = sorted(set(mine) - set(other))
        if only:
            parts.append(f"{len(only)} only in {side} ({_ids(only)})")
    return SetupDifference(
        f"scenario set ({'; '.join(parts)})",
        f"sha256 {set_hash(a)[:12]}",
        f"sha256 {set_hash(b)[:12]}",
        blocking=True,
    )


def _fields(a: Any, b: Any) -> str:
    """Which fields of two model fingerprints differ, with their values."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        return f"{_shown(a)} vs {_shown(b)}"
    keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    return ", ".join(f"{k} {_shown(a.get(k))} -> {_shown(b.get(k))}" for k in keys)


def _agent_models(run: RunData) -> dict[str, str]:
    """Agent label -> the model name its spec names (model Agents only)."""
    models = (run.manifest or {}).get("models") or {}
    out = {}
    for value in _config(run).get("agents") or []:
        text = str(value)
        label, sep, spec = text.partition("=")
        if not sep:
            label, spec = text, text
        if spec in models:
            out[label] = spec
        elif text in models:
            out[text] = text
    return out


def setup_differences(
    a: RunData, b: RunData, pairs: Sequence[tuple[str, str]] = ()
) -> list[SetupDifference]:
    """Every difference between the two runs' setups (see the module docstring), blocking
    ones first; ``pairs``: the compared Agents (A's label, B's label)."""
    if a.manifest is None or b.manifest is None:
        missing = " and ".join(s for s, r in (("A", a), ("B", b)) if r.manifest is None)
        return [SetupDifference("setup", "", f"unknown (no run.json in {missing})", False)]
    found: list[SetupDifference] = []
    ca, cb = _config(a), _config(b)
    for key, what in CONFIG_SETUP.items():
        va, vb = ca.get(key, CONFIG_DEFAULTS[key]), cb.get(key, CONFIG_DEFAULTS[key])
        if key == "customer":  # one spec or several: shown as a list of specs
            va, vb = ", ".join(customers_of(va)), ", ".join(customers_of(vb))
        if va != vb:
            found.append(SetupDifference(what, _shown(va), _shown(vb), blocking=True))
    ma, mb = a.manifest, b.manifest
    sa, sb = ma.get("scenarios"), mb.get("scenarios")
    if isinstance(sa, dict) and isinstance(sb, dict) and (diff := _scenario_set(sa, sb)):
        found.append(diff)
    pa, pb = ma.get("personas"), mb.get("personas")
    if isinstance(pa, dict) and isinstance(pb, dict) and pa and pb and pa != pb:
        changed = sorted(k for k in set(pa) | set(pb) if pa.get(k) != pb.get(k))
        found.append(SetupDifference("personas", "", f"differ: {_ids(changed)}", True))
    models_a, models_b = ma.get("models") or {}, mb.get("models") or {}
    agents_a, agents_b = _agent_models(a), _agent_models(b)
    under_test = {agents_a.get(x) for x, _ in pairs} | {agents_b.get(y) for _, y in pairs}
    for name in sorted(set(models_a) & set(models_b) - under_test):
        if models_a[name] != models_b[name]:
            why = _fields(models_a[name], models_b[name])
            found.append(SetupDifference(f"model {name}", "", why, blocking=True))
    for x, y in pairs:
        fa = models_a.get(agents_a.get(x, ""))
        fb = models_b.get(agents_b.get(y, ""))
        if fa is not None and fb is not None and fa != fb:
            label = x if x == y else f"{x} -> {y}"
            found.append(SetupDifference(f"Agent {label}'s model", "", _fields(fa, fb), False))
    va, vb = ma.get("versions") or {}, mb.get("versions") or {}
    for package in sorted(set(va) & set(vb)):
        if va[package] != vb[package]:
            found.append(
                SetupDifference(
                    f"{package} version", va[package], vb[package], package == "supportsim"
                )
            )
    return sorted(found, key=lambda d: not d.blocking)


def run_customers(run: RunData) -> tuple[str, ...]:
    """The Customers a run played (its plan's; without run.json, its records')."""
    if run.plan is not None and run.plan.customers:
        return run.plan.customers
    return tuple(sorted({r.customer for r in run.records})) or ("scripted",)


def under_customer(run: RunData, side: str, customer: str | None) -> RunData:
    """``run`` as compared: under one Customer. A run of several Customers pairs each
    (scenario, trial) once per Customer, so it is compared under the one ``customer``
    names (its records of that Customer, its setup read as that Customer's); a run of
    one Customer is itself (``customer``, when given, must be it).

    Raises:
        InputError: a run of several Customers without ``customer``, or a ``customer``
            the run did not play; the message names the run and its Customers.
    """
    played = run_customers(run)
    if customer is None:
        if len(played) > 1:
            raise InputError(
                f"run {side} ({run.run_dir}) played several Customers ({', '.join(played)}): "
                "runs are paired by scenario and trial under one Customer; compare one at "
                "a time with --customer SPEC"
            )
        return run
    if customer not in played:
        raise InputError(
            f"--customer {customer}: run {side} ({run.run_dir}) did not play it (its "
            f"Customers: {', '.join(played)})"
        )
    if len(played) == 1:
        return run
    manifest = dict(run.manifest or {})
    manifest["config"] = {**_config(run), "customer": customer}
    records = [r for r in run.records if r.customer == customer]
    return replace(run, manifest=manifest, records=records)


def client_saturation(run: RunData) -> float | None:
    """The worst loop-lag p99 (ms) among the run's sessions whose client was saturated
    (``store.saturated``), or None when none was."""
    manifest = run.manifest or {}
    lags = [s.get("loop_lag") for s in manifest.get("sessions") or [] if isinstance(s, dict)]
    lags.append(manifest.get("loop_lag"))
    worst: float | None = None
    for lag in lags:
        if isinstance(lag, dict) and saturated(int(lag.get("samples") or 0), lag.get("p99_ms")):
            p99 = float(lag["p99_ms"])
            worst = p99 if worst is None else max(worst, p99)
    return worst


def unreliable_latency(a: RunData, b: RunData) -> str | None:
    """Why latency verdicts between ``a`` and ``b`` cannot be trusted, or None."""
    why = [
        f"run {side}'s client was saturated (event-loop lag p99 {p99:.0f} ms > 10 ms)"
        for side, run in (("A", a), ("B", b))
        if (p99 := client_saturation(run)) is not None
    ]
    if not why:
        return None
    return "; ".join(why) + ", so its latencies are inflated"
