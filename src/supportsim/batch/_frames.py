"""The hub's wire format: length-prefixed frames of an orjson header and raw bytes.

A frame is ``<u32 length><u32 header length><header JSON><payload>``. The payload carries
a record's encoded line as the worker made it, so the driver writes it without decoding
or re-encoding it; every other message is the header alone.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any

import orjson

MAX_FRAME = 256 * 1024 * 1024
"""Larger frames are a protocol error (a record is at most tens of megabytes)."""
_HEAD = struct.Struct(">II")


class FrameError(Exception):
    """The peer sent something that is not a frame (or too large a one)."""


def frame(header: dict[str, Any], payload: bytes = b"") -> bytes:
    head = orjson.dumps(header)
    return _HEAD.pack(4 + len(head) + len(payload), len(head)) + head + payload


async def read_frame(reader: asyncio.StreamReader) -> tuple[dict[str, Any], bytes]:
    """The next frame; raises ``asyncio.IncompleteReadError`` at EOF."""
    total, head_len = _HEAD.unpack(await reader.readexactly(8))
    if total > MAX_FRAME or head_len > total - 4:
        raise FrameError(f"bad frame ({total} bytes, header {head_len})")
    body = await reader.readexactly(total - 4)
    try:
        header = orjson.loads(body[:head_len])
    except orjson.JSONDecodeError as exc:
        raise FrameError(f"bad frame header: {exc}") from None
    if not isinstance(header, dict):
        raise FrameError("bad frame header: not an object")
    return header, body[head_len:]
