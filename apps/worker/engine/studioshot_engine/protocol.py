"""NDJSON messages on fd 3: one JSON object per line, each with the protocol version `v`.

Mirrors packages/contracts/src/engine.ts. Parent-to-child commands are validated against the
`command` JSON Schema generated from its zod schemas (packages/contracts/engine-protocol.schema.json;
ENGINE_PROTOCOL_SCHEMA names another file), then turned into the typed commands below. Child-to-
parent events are built with exactly the keys its schemas declare (tests check them against the
schema's `event`).
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from . import PROTOCOL_VERSION

LogLevel = Literal["debug", "info", "warn", "error"]
# An open set (engine.ts, ZArtifactKindSchema): a lowercase word. The worker knows these three.
ArtifactKind = str
KNOWN_ARTIFACT_KINDS = ("model", "preview", "image", "checkpoint")
ARTIFACT_KIND_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
ErrorCode = Literal["bad_input", "cancelled", "protocol", "internal"]
TaskName = Literal["train", "generate"]
MetaValue = str | int | float | bool | list[float] | list[int]

SCHEMA_ENV = "ENGINE_PROTOCOL_SCHEMA"
MAX_PROBLEM_LENGTH = 300
# apps/worker/engine/studioshot_engine -> packages/contracts (the repository's layout).
DEFAULT_SCHEMA_PATH = Path(__file__).resolve().parents[4] / "packages" / "contracts" / "engine-protocol.schema.json"


@dataclass(frozen=True)
class FaceBox:
    """A face's box in pixels: left, top, width, height."""

    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Photo:
    id: str
    path: str  # the optimised copy
    original_path: str | None = None  # the full-size original, when the worker has it
    descriptor: tuple[float, ...] | None = None  # face-api's 128-d descriptor from the photo checks
    face_box: FaceBox | None = None  # the photo checks' main face, in pixels of `path` (upright)


@dataclass(frozen=True)
class TrainParams:
    photos: tuple[Photo, ...]
    output_dir: str
    trigger_word: str
    model_name: str
    # Fewer usable photos than this fail the training; None: the engine's own minimum.
    min_usable_photos: int | None = None
    # A checkpoint of an earlier attempt of this training (engines that checkpoint resume from it).
    resume_from: str | None = None


@dataclass(frozen=True)
class GenerateTemplate:
    id: str
    variant: int
    studio: dict[str, Any]  # ZStudioParamsSchema: framing, backdrop, lighting, grade, retouch


@dataclass(frozen=True)
class GenerateParams:
    model_path: str | None  # None: the base model alone (engines that need a personal model refuse it)
    prompt: str
    template: GenerateTemplate | None
    seed: int
    count: int
    size: int
    output_dir: str
    steps: int | None = None  # denoising steps; None: the engine's setting
    guidance_scale: float | None = None  # None: the engine's setting
    # The prompt is the user's and shapes the template's look (studio: its recognised words).
    prompt_shapes_look: bool = False


@dataclass(frozen=True)
class StartCommand:
    job_id: str
    task: TaskName
    params: TrainParams | GenerateParams
    request_id: str | None = None  # the API request that caused the run; its log lines carry it


@dataclass(frozen=True)
class CancelCommand:
    job_id: str


Command = StartCommand | CancelCommand


class ProtocolError(Exception):
    """A line that is not a valid command; `job_id` names the job when the line still said which."""

    def __init__(self, message: str, job_id: str | None = None) -> None:
        super().__init__(message)
        self.job_id = job_id


# --- the schema -------------------------------------------------------------------------------------


def schema_path() -> Path:
    return Path(os.environ.get(SCHEMA_ENV) or DEFAULT_SCHEMA_PATH)


@cache
def protocol_schema() -> dict[str, Any]:
    """The whole generated schema file: `protocol_version`, `command` and `event`."""
    path = schema_path()
    try:
        schema: dict[str, Any] = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise RuntimeError(f"the engine protocol schema {path} cannot be read: {error}") from error
    if schema.get("protocol_version") != PROTOCOL_VERSION:
        raise RuntimeError(
            f"the engine protocol schema {path} is for protocol v{schema.get('protocol_version')}, "
            f"this engine speaks v{PROTOCOL_VERSION}"
        )
    return schema


@cache
def _validator(part: Literal["command", "event"], branch: int | None = None) -> Any:
    # Imported here: only the protocol's first use pays for jsonschema.
    from jsonschema import Draft202012Validator  # noqa: PLC0415

    schema = protocol_schema()[part]
    if branch is not None:
        schema = _branches(schema)[branch]
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def load_validators() -> None:
    """Reads the schema and builds every validator now (a RuntimeError when the file is missing or
    for another protocol version, or not a schema), so that the first command is not the one to find out."""
    try:
        _validator("event")
        for branch in range(len(_branches(protocol_schema()["command"]))):
            _validator("command", branch)
        _validator("command")
    except RuntimeError:
        raise
    except Exception as error:  # a SchemaError, a missing part: the file is not the generated schema
        raise RuntimeError(f"the engine protocol schema {schema_path()} is not usable: {error}") from error


def _branches(schema: dict[str, Any]) -> list[dict[str, Any]]:
    branches: list[dict[str, Any]] = schema.get("anyOf") or schema.get("oneOf") or [schema]
    return branches


def _const(branch: dict[str, Any], key: str) -> Any:
    return branch.get("properties", {}).get(key, {}).get("const")


def _command_branch(message: dict[str, Any]) -> int | None:
    """The schema's branch for this message's `type` (and `task`), to explain exactly what is wrong."""
    for index, branch in enumerate(_branches(protocol_schema()["command"])):
        if _const(branch, "type") == message.get("type") and _const(branch, "task") in (None, message.get("task")):
            return index
    return None


def validate_event(message: Mapping[str, Any]) -> None:
    """Raises ValueError unless the message would parse with ZEngineEventSchema (tests use this)."""
    error = _first_error(_validator("event"), message)
    if error is not None:
        raise ValueError(f"not a valid engine event: {error}: {json.dumps(message)[:300]}")


def _first_error(validator: Any, instance: Any) -> str | None:
    from jsonschema.exceptions import best_match  # noqa: PLC0415

    error = best_match(validator.iter_errors(instance))
    if error is None:
        return None
    where = _json_path(error.absolute_path)
    # The message quotes the offending value, which may be long (a 128-number descriptor).
    message = error.message if len(error.message) <= MAX_PROBLEM_LENGTH else f"{error.message[:MAX_PROBLEM_LENGTH]}..."
    return f"{where}: {message}" if where else message


def _json_path(parts: Any) -> str:
    path = ""
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


# --- parent -> child --------------------------------------------------------------------------------


def encode(message_type: str, **fields: Any) -> bytes:
    """One protocol line. Large data never travels here, only file paths."""
    message = {"v": PROTOCOL_VERSION, "type": message_type, **fields}
    # allow_nan=False: NaN is not JSON, and the worker's parser would reject the whole line.
    return (json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False) + "\n").encode()


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
    # `True == 1` in Python; zod's literal accepts only the number.
    if isinstance(version, bool) or version != PROTOCOL_VERSION:
        raise ProtocolError(
            f"protocol version {json.dumps(version)} is not supported: this engine speaks v{PROTOCOL_VERSION}",
            job_id,
        )
    if not isinstance(message.get("type"), str):
        raise ProtocolError("a message needs a string `type`", job_id)
    return message


def parse_command(line: bytes | str) -> Command:
    """A `start` or `cancel` command, validated against the schema's `command` (ZEngineCommandSchema)."""
    message = decode(line)
    job_id = message.get("job_id") if isinstance(message.get("job_id"), str) else None
    branch = _command_branch(message)
    if branch is None:
        if message["type"] == "start":
            raise ProtocolError(f"unknown task {json.dumps(message.get('task'))}: 'train' or 'generate'", job_id)
        raise ProtocolError(f"unknown message type {json.dumps(message['type'])}", job_id)
    problem = _first_error(_validator("command", branch), message)
    if problem is None:
        # The branch is one alternative of the union, so this holds; it keeps the whole schema the judge.
        problem = _first_error(_validator("command"), message)
    if problem is not None:
        raise ProtocolError(f"invalid {message['type']}: {problem}", job_id)
    if message["type"] == "cancel":
        return CancelCommand(job_id=message["job_id"])
    task: TaskName = message["task"]
    params = _train_params(message["params"]) if task == "train" else _generate_params(message["params"])
    return StartCommand(job_id=message["job_id"], task=task, params=params, request_id=message.get("request_id"))


def _train_params(value: dict[str, Any]) -> TrainParams:
    return TrainParams(
        photos=tuple(
            Photo(
                id=photo["id"],
                path=photo["path"],
                original_path=photo["original_path"],
                descriptor=None if photo["descriptor"] is None else tuple(float(x) for x in photo["descriptor"]),
                face_box=_face_box(photo.get("face_box")),
            )
            for photo in value["photos"]
        ),
        output_dir=value["output_dir"],
        trigger_word=value["trigger_word"],
        model_name=value["model_name"],
        min_usable_photos=value.get("min_usable_photos"),
        resume_from=value.get("resume_from"),
    )


def _face_box(value: dict[str, Any] | None) -> FaceBox | None:
    if value is None:
        return None
    return FaceBox(x=float(value["x"]), y=float(value["y"]), width=float(value["width"]), height=float(value["height"]))


def _generate_params(value: dict[str, Any]) -> GenerateParams:
    template = value["template"]
    return GenerateParams(
        model_path=value["model_path"],
        prompt=value["prompt"],
        template=None
        if template is None
        else GenerateTemplate(id=template["id"], variant=int(template["variant"]), studio=template["studio"]),
        seed=int(value["seed"]),
        count=int(value["count"]),
        size=int(value["size"]),
        output_dir=value["output_dir"],
        steps=None if value.get("steps") is None else int(value["steps"]),
        guidance_scale=None if value.get("guidance_scale") is None else float(value["guidance_scale"]),
        prompt_shapes_look=bool(value.get("prompt_shapes_look", False)),
    )


# --- child -> parent events, keys in the order of their schemas ----------------------------------------


def ready(engine: str, version: str) -> bytes:
    return encode("ready", engine=engine, version=version)


def progress(
    job_id: str,
    step: int,
    total: int,
    message: str,
    *,
    metrics: Mapping[str, float] | None = None,
    eta_seconds: float | None = None,
) -> bytes:
    fields: dict[str, Any] = {"job_id": job_id, "step": step, "total": total, "message": message}
    if metrics is not None:
        metrics = {name: _plain(value) for name, value in metrics.items()}
        for name, value in metrics.items():
            if not isinstance(name, str) or not _is_number(value):
                raise ValueError(f"metric {name!r} must be a finite number, not {value!r}")
        fields["metrics"] = metrics
    if eta_seconds is not None:
        eta_seconds = _plain(eta_seconds)
        if not _is_number(eta_seconds) or eta_seconds < 0:
            raise ValueError(f"eta_seconds must be a finite number >= 0, not {eta_seconds!r}")
        fields["eta_seconds"] = eta_seconds
    return encode("progress", **fields)


def log(level: LogLevel, message: str, job_id: str | None = None, request_id: str | None = None) -> bytes:
    """A log line; about a run, it names the run and the request that caused it."""
    fields: dict[str, Any] = {"level": level, "message": message}
    if job_id is not None:
        fields["job_id"] = job_id
    if request_id is not None:
        fields["request_id"] = request_id
    return encode("log", **fields)


def artifact(job_id: str, path: str, kind: ArtifactKind, meta: Mapping[str, Any] | None = None) -> bytes:
    if not ARTIFACT_KIND_PATTERN.match(kind):
        raise ValueError(f"artifact kind {kind!r} is not a lowercase word")
    fields: dict[str, Any] = {"job_id": job_id, "path": path, "kind": kind}
    if meta is not None:
        meta = {name: _plain(value) for name, value in meta.items()}
        for name, value in meta.items():
            if not isinstance(name, str) or not _is_meta_value(value):
                raise ValueError(f"artifact meta {name!r}: {value!r} is not a string, number, boolean or numbers")
        fields["meta"] = meta
    return encode("artifact", **fields)


def result(job_id: str, summary: dict[str, Any]) -> bytes:
    return encode("result", job_id=job_id, summary=summary)


def error(job_id: str | None, code: ErrorCode, message: str, retryable: bool) -> bytes:
    return encode("error", job_id=job_id, code=code, message=message, retryable=retryable)


def _plain(value: Any) -> Any:
    """NumPy scalars and arrays as the Python numbers and lists JSON knows."""
    if hasattr(value, "tolist") and not isinstance(value, str | bytes):
        return value.tolist()
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _is_meta_value(value: Any) -> bool:
    if isinstance(value, str | bool) or _is_number(value):
        return True
    return isinstance(value, list | tuple) and all(_is_number(item) for item in value)
