"""Runnable example Agents for ``supportsim run`` (see README.md in this folder)."""

__all__: list[str] = []
