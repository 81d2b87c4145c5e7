"""NDJSON messages on fd 3: one JSON object per line, each with the protocol version `v`."""

from __future__ import annotations

import json
from typing import Any

from . import PROTOCOL_VERSION


def encode(message_type: str, **fields: Any) -> bytes:
    """One protocol line. Large data never travels here, only file paths."""
    return (json.dumps({"v": PROTOCOL_VERSION, "type": message_type, **fields}, separators=(",", ":")) + "\n").encode()


def decode(line: bytes | str) -> dict[str, Any]:
    message = json.loads(line)
    if not isinstance(message, dict) or message.get("v") != PROTOCOL_VERSION or "type" not in message:
        raise ValueError(f"not a protocol v{PROTOCOL_VERSION} message: {line!r}")
    return message
