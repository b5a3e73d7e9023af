"""Variations of a scenario's reference conversation, valid and invalid (``validate --perturb``).

A Variant is a changed plan for the oracle to replay. Valid variants are what another
competent Agent might do: other wordings (the lexicons' terms), other number, time and date
formats, typography and case, merged and split messages, reads moved before verification,
equivalent lookups from the domain's fact map, harmless extra messages and lookups. Invalid
variants each break one rule and name the check that must catch it: a write dropped or given
a wrong key argument or moved before its gate, a statement dropped or given a wrong value,
a forbidden call made, a forbidden disclosure, the failed identity detail named, another
customer's data read out, an escalation added or dropped, the evidence for a write never
looked at. Generators work from the reference run (its calls and results), so every variant
is concrete; one that cannot be realised is discarded by the runner, never counted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from supportsim.scoring._variant import Reference, Variant
from supportsim.scoring._variants_invalid import (
    escalation,
    evidence,
    forbidden,
    statements,
    templates,
    writes,
)
from supportsim.scoring._variants_valid import lookups, messages, rewordings, surface

__all__ = ["INVALID", "VALID", "Reference", "Variant", "variants"]

VALID: tuple[Callable[[Reference], Iterator[Variant]], ...] = (
    surface,
    rewordings,
    messages,
    lookups,
)
INVALID: tuple[Callable[[Reference], Iterator[Variant]], ...] = (
    writes,
    statements,
    evidence,
    forbidden,
    templates,
    escalation,
)


def variants(ref: Reference) -> list[Variant]:
    """Every variant of the reference, valid first, names unique."""
    out: list[Variant] = []
    seen: set[str] = set()
    for generator in (*VALID, *INVALID):
        for variant in generator(ref):
            if variant.name not in seen:
                seen.add(variant.name)
                out.append(variant)
    return out
