"""Import a plug-in named ``package.module:attr``: one rule for agents, domains and scorers.

The working directory is importable (a team's ``myteam/agents.py`` next to its run config
works without installing it), and every failure says which part was wrong.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any


def import_target(target: str) -> Any:
    """The attribute ``target`` (``package.module:attr``) names.

    Raises:
        ValueError: the target is malformed, its module cannot be imported, or it has no
            such attribute; the message quotes the target.
    """
    module_name, _, attr = target.partition(":")
    if not module_name or not attr:
        raise ValueError(f"{target!r}: expected package.module:attribute")
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"{target!r}: cannot import {module_name}: {exc}") from exc
    try:
        return getattr(module, attr)
    except AttributeError:
        raise ValueError(f"{target!r}: {module_name} has no attribute {attr!r}") from None
