"""Variations of a scenario's reference conversation, valid and invalid (``validate --perturb``).

A Variant is a changed plan for the oracle to replay. Valid variants are what another
competent Agent might do: each required statement said as blind corpus sentences that state
what it requires (``_variants_corpus``), typography and case, merged and split messages,
reads moved before verification, equivalent lookups from the domain's fact map, harmless
extra messages and lookups. Invalid variants each break one rule and name the check that
must catch it: a write dropped or given a wrong key argument or moved before its gate, a
statement dropped, a corpus near miss, a negated or wrong value, a forbidden call made, a
forbidden concept or value said, the failed identity detail named, another customer's data
read out, an action claimed before it was done, the customer answered in English, an
escalation added or dropped, the evidence for a write never looked at. Nothing is worded
from the lexicons the checks read with. Generators work from the reference run (its calls
and results), so every variant is concrete; one that cannot be realised is discarded by the
runner, never counted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from supportsim.validate import _variants_corpus as corpus
from supportsim.validate._variant import Reference, Variant
from supportsim.validate._variants_invalid import (
    escalation,
    evidence,
    forbidden,
    statements,
    templates,
    writes,
)
from supportsim.validate._variants_valid import lookups, messages, surface

__all__ = ["INVALID", "VALID", "Reference", "Variant", "variants"]

VALID: tuple[Callable[[Reference], Iterator[Variant]], ...] = (
    surface,
    corpus.rewordings,
    messages,
    lookups,
)
INVALID: tuple[Callable[[Reference], Iterator[Variant]], ...] = (
    writes,
    statements,
    corpus.statements,
    evidence,
    forbidden,
    corpus.disclosures,
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
