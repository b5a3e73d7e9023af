"""The hub's wire format: length-prefixed frames of an orjson header and raw bytes.

A frame is ``<u32 length><u32 header length><header JSON><payload>``. The payload carries
a record's encoded line as the worker made it, so the driver writes it without decoding
or re-encoding it; every other message is the header alone.

The length comes first, so a reader refuses a frame larger than it accepts before
reading any of it: the hub reads at most ``MAX_HELLO`` bytes from a peer that has not yet
proved the run's token, and ``MAX_FRAME`` after.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any

import orjson

MAX_FRAME = 256 * 1024 * 1024
"""Larger frames are a protocol error (a record is at most tens of megabytes)."""
MAX_HELLO = 4 * 1024
"""The largest frame read before the peer proved the token (a hello is ~150 bytes)."""
_HEAD = struct.Struct(">II")
_OPTIONS = orjson.OPT_NON_STR_KEYS
"""Mapping keys that are not strings (a counter keyed by an int) are sent as strings,
not refused mid-run."""


class FrameError(Exception):
    """The peer sent something that is not a frame (or too large a one)."""


def frame(header: dict[str, Any], payload: bytes = b"") -> bytes:
    head = orjson.dumps(header, option=_OPTIONS)
    return _HEAD.pack(4 + len(head) + len(payload), len(head)) + head + payload


async def read_frame(
    reader: asyncio.StreamReader, *, max_size: int = MAX_FRAME
) -> tuple[dict[str, Any], bytes]:
    """The next frame; raises ``asyncio.IncompleteReadError`` at EOF, ``FrameError`` for
    one larger than ``max_size`` bytes (nothing of it is read) or not a frame."""
    total, head_len = _HEAD.unpack(await reader.readexactly(8))
    if total > max_size or head_len > total - 4:
        raise FrameError(f"bad frame ({total} bytes, header {head_len}; at most {max_size})")
    body = await reader.readexactly(total - 4)
    try:
        header = orjson.loads(body[:head_len])
    except orjson.JSONDecodeError as exc:
        raise FrameError(f"bad frame header: {exc}") from None
    if not isinstance(header, dict):
        raise FrameError("bad frame header: not an object")
    return header, body[head_len:]
