"""The parts of the checks that the proofs build on (``validate``: the perturbation proof,
the baselines, the corpus evaluation), public so that ``validate`` depends on a stated
surface of ``scoring`` rather than on its private modules.

Each name is the scorer's own: a proof that rewords a say step or forges an invalid call
reads the step and the tool calls exactly as the scorer will, so a variant the proof
calls valid is valid by the rules that score it.
"""

from supportsim.scoring._evidence import result_contains
from supportsim.scoring._oracle_check import scripted_run
from supportsim.scoring._say import Speech, find_item, speech_of
from supportsim.scoring._score import rules_for
from supportsim.scoring._statement_judge import DATA_RULES, STATING_RULES
from supportsim.scoring._templates import known_to_caller, private_of_others, verified_owners
from supportsim.scoring._workflow import Rules, args_match, is_gate, is_write, ordering
from supportsim.scoring.text._language import function_word_counts
from supportsim.scoring.text._text import fold, normalise

__all__ = [
    "DATA_RULES",
    "STATING_RULES",
    "Rules",
    "Speech",
    "args_match",
    "find_item",
    "fold",
    "function_word_counts",
    "is_gate",
    "is_write",
    "known_to_caller",
    "normalise",
    "ordering",
    "private_of_others",
    "result_contains",
    "rules_for",
    "scripted_run",
    "speech_of",
    "verified_owners",
]
