"""Text shown on a terminal: control and escape sequences made visible, never obeyed.

Operator-supplied names (agent labels, run ids, scenario ids, file names) and model text
reach the terminal in tables, progress lines and error messages. An ESC in a name could
recolour the screen, move the cursor, rewrite the window title or hide the text after it,
and a bidirectional override can reorder what is shown; rich interprets none of these but
passes them through. ``printable`` writes each such character as a visible escape
(``\\x1b``, ``\\u202e``), so what a person reads is exactly what was given. Rich markup is
the renderer's concern: pass the result as ``rich.text.Text`` or print with
``markup=False``.
"""

from __future__ import annotations

import re

__all__ = ["printable"]

_UNSAFE = (
    "\x00-\x09\x0b-\x1f\x7f-\x9f"  # C0 (but newline), DEL, C1 (CSI, OSC: 8-bit escapes)
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidirectional marks and overrides
    "\u2028\u2029"  # line and paragraph separators
)
_WITH_NEWLINES = re.compile(f"[{_UNSAFE}]")
_ONE_LINE = re.compile(f"[\n{_UNSAFE}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(value: object, *, newlines: bool = False) -> str:
    """``str(value)`` with every control, escape and bidi character written visibly.

    Args:
        value: A name or a message (anything: it is ``str()``-ed).
        newlines: Keep ``\\n`` (a multi-line message we built); by default a newline is
            escaped too, so a name is always shown on one line.
    """
    text = str(value)
    return (_WITH_NEWLINES if newlines else _ONE_LINE).sub(_escape, text)
