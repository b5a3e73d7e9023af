"""Options more than one command takes (scenario paths, personas, the response cache,
the HTML flag, the ``--fail-under`` gates) and the workspace's inputs they load."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from supportsim.domains import Domain
from supportsim.scenario import Persona, Scenario

if TYPE_CHECKING:
    from supportsim.llm import ResponseCache

PathsArg = Annotated[list[Path] | None, typer.Argument(help="Scenario files or folders.")]
PersonasOpt = Annotated[
    Path | None,
    typer.Option(
        "--personas", help="Folder of persona files [default: the workspace's].", show_default=False
    ),
]


def load_inputs(
    paths: list[Path] | None, personas_dir: Path | None
) -> tuple[dict[str, Domain], dict[str, Persona], list[Scenario]]:
    """Domains, personas and scenarios of the workspace (``supportsim.yaml``, or the
    defaults), the arguments overriding its paths; fully validated (raises InputError)."""
    from supportsim.workspace import find_workspace
    from supportsim.workspace import load_inputs as load

    inputs = load(find_workspace(), scenarios=paths or None, personas=personas_dir)
    return inputs.domains, inputs.personas, inputs.scenarios


# --- response cache (--cache) ------------------------------------------------------------

CacheFlag = Annotated[
    bool,
    typer.Option(
        "--cache", help="Keep model replies on disk and reuse them (docs: guide/models.md)."
    ),
]
CacheDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--cache-dir",
        help="Where --cache keeps replies (default ~/.cache/supportsim/responses); implies it.",
    ),
]


def response_cache(enabled: bool, folder: Path | None) -> ResponseCache | None:
    """The ``ResponseCache`` the flags ask for, or None (typer cannot parse an option with
    an optional value, hence ``--cache`` plus ``--cache-dir DIR``)."""
    import os

    from supportsim.llm import open_cache

    if not enabled and folder is None:
        return None
    return open_cache(folder, os.environ)


HtmlFlag = Annotated[bool, typer.Option("--html", help="Also write a self-contained HTML file.")]
FailUnderOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--fail-under",
        help="Gate per agent, e.g. strict=0.8,partial=0.9 (or pass^2=0.5): exit 1 when an "
        "agent is below (repeatable).",
    ),
]
