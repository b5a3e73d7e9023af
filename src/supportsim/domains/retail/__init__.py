"""The ``retail`` domain: Northwind Goods, an online home and outdoor shop.

Written as data (see ``domain.yaml``): the policy in ``policy.md``, the knowledge base in
``knowledge/``, the base state in ``fixture.json``; only the state model (``_state.py``) and
the tools (``_tools.py``: reads and the limits, ``_actions.py``: writes) are Python.
"""

from __future__ import annotations

import functools
from pathlib import Path

from supportsim.domains._base import Domain
from supportsim.domains._folder import load_domain_folder


@functools.cache
def domain() -> Domain:
    """The retail domain with its own tools plus transfer_to_human and the knowledge base."""
    return load_domain_folder(Path(__file__).parent)


__all__ = ["domain"]
