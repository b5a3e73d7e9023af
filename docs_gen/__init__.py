"""Build-time generators of the documentation site's reference pages (``mkdocs.yml``'s
gen-files plugin runs ``docs_gen/gen_pages.py``). Not part of the package."""
