"""mkdocs-gen-files script: writes the generated reference pages (docs_gen/reference.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import mkdocs_gen_files

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from docs_gen.reference import PAGES

for page, build in PAGES.items():
    with mkdocs_gen_files.open(page, "w") as out:
        out.write(build())
    mkdocs_gen_files.set_edit_path(page, "docs_gen/reference.py")
