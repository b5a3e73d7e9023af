"""Other benchmarks' tasks as supportsim scenarios: one module per benchmark.

``tau2.py``: ``supportsim import tau2`` (tau2-bench retail tasks, with the data the run
needs). An importer writes scenario files and their data, all at once or not at all; it
sits below ``authoring`` (which re-exports the tau2 importer's names) and above what it
builds on (``scenario``, ``domains``, ``environment``). What the imported scenarios need at
run time (their Domain, conversation rules, scorer) is plugged in elsewhere (see
``supportsim.tau2``), so nothing here is imported by a run. The next benchmark's importer is
a module beside ``tau2.py`` and a ``supportsim import NAME`` command in ``cli/_author.py``.

Nothing is imported here on purpose: ``supportsim.importers.tau2`` builds tau2's retail
tools when it is imported, which only ``supportsim import tau2`` should pay for.
"""

__all__: list[str] = []  # see the docstring: each importer is imported by its module path
