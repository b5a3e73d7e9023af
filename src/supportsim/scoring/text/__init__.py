"""Reading Agent text: what a statement says, in every supported language.

Plain text and spans (``_text``, ``_span``), the language of a message (``_language``),
the concept lexicons and act data (``lexicons/<lang>.yaml``, ``<lang>.acts.yaml``; read by
``_lexicon`` and ``_grammar``), clauses, markers, modes and negation scoped to its clause
(``_clauses``, ``_markers``, ``_modes``, ``_negation``), the acts a sentence performs
(``_acts``: claims, promises, refusals), detail verdicts (``_identity``), another
customer's values (``_private``), and typed facts in digits and in words (``facts/``:
money, times, dates, numbers, roles). The reading tables built from Babel and num2words
ship precomputed (``_shipped``, ``shipped_tables.json``).

Nothing here knows a Check: the checks (``scoring``) read text through these modules,
never the other way (``tests/test_layering.py``). Modules are imported where used, so
importing this package costs nothing.
"""

__all__: list[str] = []  # modules are imported where used; nothing is re-exported
