"""The workspace: a project's scenarios, personas, suites and domains, loaded once."""

from supportsim.workspace._skeleton import Written, new_domain
from supportsim.workspace._workspace import (
    WORKSPACE_FILE,
    Inputs,
    Workspace,
    WorkspaceFile,
    catalogue_of_run,
    domains_of_run,
    find_workspace,
    load_inputs,
    read_workspace,
    workspace_domains,
)

__all__ = [
    "WORKSPACE_FILE",
    "Inputs",
    "Workspace",
    "WorkspaceFile",
    "Written",
    "catalogue_of_run",
    "domains_of_run",
    "find_workspace",
    "load_inputs",
    "new_domain",
    "read_workspace",
    "workspace_domains",
]
