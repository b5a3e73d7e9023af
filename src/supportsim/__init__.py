"""supportsim: evaluate customer-support AI agents against simulated customers.

The package is a pipeline (see the folder tree): scenario -> domains -> environment -> llm ->
conversation -> scoring -> store -> batch -> judges -> report, wired by ``cli``.
Importing it reads no environment variable and opens no file or socket.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
