"""Importing supportsim.llm touches no environment variable, socket or SDK."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import os, socket, sys

seen = []

real = os.environ
class Watch(dict):
    def __getitem__(self, key):
        seen.append(key)
        return real[key]
    def get(self, key, default=None):
        seen.append(key)
        return real.get(key, default)
    def __contains__(self, key):
        seen.append(key)
        return key in real

os.environ = Watch(real)

def refuse(*args, **kwargs):
    raise AssertionError("socket opened on import")

socket.socket.connect = refuse
socket.create_connection = refuse

import supportsim.llm

ours = [k for k in seen if k.startswith(("OPENAI", "ANTHROPIC", "SUPPORTSIM"))]
assert not ours, ours
assert "openai" not in sys.modules, "openai imported"
assert "anthropic" not in sys.modules, "anthropic imported"
print("ok")
"""


def test_import_is_inert() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
