"""Built-in domains: state models, tools, policies and knowledge bases.

Each domain is a package exposing ``domain() -> Domain``. ``builtin_domains()`` builds the
registry on demand (no import-time registry); callers pass it down.
"""

import os
from collections.abc import Iterable

from supportsim.domains._base import (
    Args,
    Article,
    Domain,
    DomainCatalogue,
    DomainState,
    NoArgs,
    Session,
    Tool,
    ToolKind,
    deep_merge,
    tool,
)
from supportsim.domains._common import (
    COMMON_ACTIONS,
    KB_TOOL,
    TRANSFER_TOOL,
    Owned,
    actions_of,
    common_tools,
    private_values_of,
)
from supportsim.domains._data_domains import (
    DataDomainFactory,
    DataDomainPlugin,
    plugged_domains,
    register_data_domain,
)
from supportsim.domains._plugins import add_domains, load_domain, resolve_domain_spec


def builtin_domains(scenario_paths: Iterable[str | os.PathLike[str]] = ()) -> dict[str, Domain]:
    """Every built-in domain by name (``mock`` is the test domain), plus a plug-in
    benchmark's data domain (``tau2_retail``) when the scenario paths carry the data its
    import wrote (``supportsim import tau2``; ``_data_domains.py``).

    Raises:
        ScenarioError: the plug-in's data is unreadable (tau2: two imports' data differ).
    """
    from supportsim.domains import mock

    found = [mock.domain()]
    for name in ("telecom", "retail", "appointments"):
        try:
            module = __import__(f"supportsim.domains.{name}", fromlist=["domain"])
        except ModuleNotFoundError as exc:  # pragma: no cover - while a domain is being written
            if exc.name != f"supportsim.domains.{name}":
                raise
            continue
        found.append(module.domain())
    found += plugged_domains(scenario_paths)
    return {d.name: d for d in found}


__all__ = [
    "COMMON_ACTIONS",
    "KB_TOOL",
    "TRANSFER_TOOL",
    "Args",
    "Article",
    "DataDomainFactory",
    "DataDomainPlugin",
    "Domain",
    "DomainCatalogue",
    "DomainState",
    "NoArgs",
    "Owned",
    "Session",
    "Tool",
    "ToolKind",
    "actions_of",
    "add_domains",
    "builtin_domains",
    "common_tools",
    "deep_merge",
    "load_domain",
    "plugged_domains",
    "private_values_of",
    "register_data_domain",
    "resolve_domain_spec",
    "tool",
]
