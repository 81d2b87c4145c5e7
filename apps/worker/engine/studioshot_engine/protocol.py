"""NDJSON messages on fd 3: one JSON object per line, each with the protocol version `v`.

Mirrors packages/contracts/src/engine.ts exactly: parent-to-child commands are parsed as strictly
as its zod schemas (`strictObject`: no missing and no extra keys), and child-to-parent events are
built with exactly the keys its schemas declare.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from . import PROTOCOL_VERSION

LogLevel = Literal["debug", "info", "warn", "error"]
ArtifactKind = Literal["model", "preview"]
ErrorCode = Literal["bad_input", "cancelled", "protocol", "internal"]


@dataclass(frozen=True)
class Photo:
    id: str
    path: str


@dataclass(frozen=True)
class TrainParams:
    photos: tuple[Photo, ...]
    output_dir: str
    trigger_word: str
    model_name: str


@dataclass(frozen=True)
class StartCommand:
    job_id: str
    params: TrainParams


@dataclass(frozen=True)
class CancelCommand:
    job_id: str


Command = StartCommand | CancelCommand


class ProtocolError(Exception):
    """A line that is not a valid command; `job_id` names the job when the line still said which."""

    def __init__(self, message: str, job_id: str | None = None) -> None:
        super().__init__(message)
        self.job_id = job_id


def encode(message_type: str, **fields: Any) -> bytes:
    """One protocol line. Large data never travels here, only file paths."""
    message = {"v": PROTOCOL_VERSION, "type": message_type, **fields}
    return (json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


def decode(line: bytes | str) -> dict[str, Any]:
    """A JSON object of this protocol version, with a `type`; anything else is a ProtocolError."""
    try:
        message = json.loads(line)
    except (ValueError, UnicodeDecodeError) as error:
        raise ProtocolError(f"not a JSON line: {error}") from None
    if not isinstance(message, dict):
        raise ProtocolError("a message must be a JSON object")
    job_id = message.get("job_id") if isinstance(message.get("job_id"), str) else None
    version = message.get("v")
    # `True == 1` in Python; zod's literal 1 accepts only the number.
    if isinstance(version, bool) or version != PROTOCOL_VERSION:
        raise ProtocolError(
            f"protocol version {json.dumps(version)} is not supported: this engine speaks v{PROTOCOL_VERSION}",
            job_id,
        )
    if not isinstance(message.get("type"), str):
        raise ProtocolError("a message needs a string `type`", job_id)
    return message


def parse_command(line: bytes | str) -> Command:
    """A `start` or `cancel` command, validated like ZEngineCommandSchema."""
    message = decode(line)
    job_id = message.get("job_id") if isinstance(message.get("job_id"), str) else None
    try:
        if message["type"] == "start":
            _require_keys(message, {"v", "type", "job_id", "task", "params"}, "start")
            if message["task"] != "train":
                raise ProtocolError(f"unknown task {json.dumps(message['task'])}: only 'train'")
            return StartCommand(job_id=_string(message, "job_id"), params=_train_params(message["params"]))
        if message["type"] == "cancel":
            _require_keys(message, {"v", "type", "job_id"}, "cancel")
            return CancelCommand(job_id=_string(message, "job_id"))
    except ProtocolError as error:
        raise ProtocolError(str(error), job_id) from None
    raise ProtocolError(f"unknown message type {json.dumps(message['type'])}", job_id)


def _train_params(value: Any) -> TrainParams:
    _require_keys(value, {"photos", "output_dir", "trigger_word", "model_name"}, "params")
    photos = value["photos"]
    if not isinstance(photos, list) or not photos:
        raise ProtocolError("params.photos must be a non-empty array")
    for photo in photos:
        _require_keys(photo, {"id", "path"}, "params.photos[]")
    return TrainParams(
        photos=tuple(Photo(id=_string(photo, "id"), path=_string(photo, "path")) for photo in photos),
        output_dir=_string(value, "output_dir"),
        trigger_word=_string(value, "trigger_word"),
        model_name=_string(value, "model_name"),
    )


def _require_keys(value: Any, keys: set[str], where: str) -> None:
    if not isinstance(value, dict):
        raise ProtocolError(f"{where} must be an object")
    if missing := keys - value.keys():
        raise ProtocolError(f"{where}: missing {', '.join(sorted(missing))}")
    if extra := value.keys() - keys:
        raise ProtocolError(f"{where}: unexpected {', '.join(sorted(extra))}")


def _string(value: dict[str, Any], key: str) -> str:
    if not isinstance(value[key], str):
        raise ProtocolError(f"{key} must be a string")
    return str(value[key])


# Child -> parent events, keys in the order of their schemas.


def ready(engine: str, version: str) -> bytes:
    return encode("ready", engine=engine, version=version)


def progress(job_id: str, step: int, total: int, message: str) -> bytes:
    return encode("progress", job_id=job_id, step=step, total=total, message=message)


def log(level: LogLevel, message: str) -> bytes:
    return encode("log", level=level, message=message)


def artifact(job_id: str, path: str, kind: ArtifactKind) -> bytes:
    return encode("artifact", job_id=job_id, path=path, kind=kind)


def result(job_id: str, summary: dict[str, Any]) -> bytes:
    return encode("result", job_id=job_id, summary=summary)


def error(job_id: str | None, code: ErrorCode, message: str, retryable: bool) -> bytes:
    return encode("error", job_id=job_id, code=code, message=message, retryable=retryable)
