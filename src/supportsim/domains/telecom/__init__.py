"""The ``telecom`` domain: a mobile and broadband carrier (Northwind Mobile).

Written as data (see ``domain.yaml``, the proof of the data form): the policy in
``policy.md``, the knowledge base in ``knowledge/``, the base state in ``fixture.json``; only
the state model (``_state.py``) and the tools (``_tools.py``) are Python.
"""

from __future__ import annotations

import functools
from pathlib import Path

from supportsim.domains._base import Domain
from supportsim.domains._folder import load_domain_folder


@functools.cache
def domain() -> Domain:
    """The telecom domain: its tools, plus transfer_to_human and search_knowledge_base."""
    return load_domain_folder(Path(__file__).parent)


__all__ = ["domain"]
