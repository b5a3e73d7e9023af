"""``python -m supportsim``: the command line (how the ``mcp-stdio`` bridge is spawned)."""

from supportsim.cli import main

if __name__ == "__main__":
    main()
