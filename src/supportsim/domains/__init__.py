"""Built-in domains: state models, tools, policies and knowledge bases.

Each domain is a package exposing ``domain() -> Domain``. ``builtin_domains()`` builds the
registry on demand (no import-time registry); callers pass it down.
"""

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
    KB_TOOL,
    TRANSFER_TOOL,
    Owned,
    common_tools,
    private_values_of,
)


def builtin_domains() -> dict[str, Domain]:
    """Every built-in domain by name (``mock`` is the test domain)."""
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
    return {d.name: d for d in found}


__all__ = [
    "KB_TOOL",
    "TRANSFER_TOOL",
    "Args",
    "Article",
    "Domain",
    "DomainCatalogue",
    "DomainState",
    "NoArgs",
    "Owned",
    "Session",
    "Tool",
    "ToolKind",
    "builtin_domains",
    "common_tools",
    "deep_merge",
    "private_values_of",
    "tool",
]
