"""Test helpers: the real engine as a subprocess on a socketpair, a recording job, the fixture photos."""

from __future__ import annotations

import json
import select
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from studioshot_engine import PROTOCOL_VERSION
from studioshot_engine.jobs import JobCancelled
from studioshot_engine.protocol import ArtifactKind, LogLevel, Photo, TrainParams, validate_event
from studioshot_engine.studio.artifact import MODEL_FORMAT, write_model

REPO = Path(__file__).resolve().parents[4]
FIXTURES = REPO / "apps" / "worker" / "test" / "fixtures"
TRANSCRIPTS = REPO / "packages" / "contracts" / "engine-transcripts"
MESSAGE_TIMEOUT_S = 30.0


def assert_valid_event(message: dict[str, Any]) -> None:
    """Fails unless the message would parse with ZEngineEventSchema (the schema's `event`)."""
    assert isinstance(message.get("v"), int) and message["v"] == PROTOCOL_VERSION, message
    validate_event(message)


def as_line(message: dict[str, Any]) -> bytes:
    return (json.dumps(message) + "\n").encode()


class EngineProcess:
    """`python -m studioshot_engine` with one end of a socketpair as its protocol pipe, as Node gives it."""

    def __init__(self, stderr_path: Path, *extra_args: str, env: Mapping[str, str] | None = None) -> None:
        self._pipe, child_end = socket.socketpair()
        with child_end, stderr_path.open("wb") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "studioshot_engine", "--fd", str(child_end.fileno()), *extra_args],
                pass_fds=(child_end.fileno(),),
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                env=None if env is None else dict(env),
            )
        self._stderr_path = stderr_path
        self._buffer = b""
        self.received: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any] | bytes) -> None:
        self._pipe.sendall(message if isinstance(message, bytes) else as_line(message))

    def receive(self, timeout: float = MESSAGE_TIMEOUT_S, *, include_logs: bool = False) -> dict[str, Any]:
        """The next message (logs skipped unless asked for), checked against the protocol."""
        deadline = time.monotonic() + timeout
        while True:
            line = self._next_line(deadline)
            if line is None:
                raise AssertionError(f"no message from the engine within {timeout} s; stderr:\n{self.stderr()}")
            message: dict[str, Any] = json.loads(line)
            assert_valid_event(message)
            self.received.append(message)
            if include_logs or message["type"] != "log":
                return message

    def receive_until(self, *types: str) -> list[dict[str, Any]]:
        """Messages up to and including the first of one of these types."""
        messages = [self.receive()]
        while messages[-1]["type"] not in types:
            messages.append(self.receive())
        return messages

    def assert_silent(self, seconds: float) -> None:
        """Nothing but logs arrives for a while."""
        deadline = time.monotonic() + seconds
        while (line := self._next_line(deadline)) is not None:
            message = json.loads(line)
            assert message["type"] == "log", f"unexpected message {message}"

    def close_pipe(self) -> None:
        self._pipe.close()

    def wait(self, timeout: float = 10.0) -> int:
        return self.process.wait(timeout)

    def stderr(self) -> str:
        return self._stderr_path.read_text(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._pipe.close()

    def _next_line(self, deadline: float) -> bytes | None:
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self._pipe], [], [], remaining)[0]:
                return None
            chunk = self._pipe.recv(65536)
            if not chunk:
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


PLACEHOLDERS: dict[str, Callable[[Any], bool]] = {
    "<string>": lambda value: isinstance(value, str),
    "<number>": _is_number,
    "<any>": lambda value: True,
}


def matches(pattern: Any, actual: Any) -> bool:
    if isinstance(pattern, str) and pattern in PLACEHOLDERS:
        return PLACEHOLDERS[pattern](actual)
    if isinstance(pattern, dict):
        return (
            isinstance(actual, dict)
            and pattern.keys() == actual.keys()
            and all(matches(pattern[k], actual[k]) for k in pattern)
        )
    if isinstance(pattern, list):
        return isinstance(actual, list) and len(pattern) == len(actual) and all(map(matches, pattern, actual))
    if _is_number(pattern):
        return _is_number(actual) and pattern == actual
    return type(pattern) is type(actual) and pattern == actual


def substitute(value: Any, out_dir: Path) -> Any:
    if isinstance(value, str):
        return value.replace("$FIXTURES", str(FIXTURES)).replace("$OUT", str(out_dir))
    if isinstance(value, dict):
        return {key: substitute(item, out_dir) for key, item in value.items()}
    if isinstance(value, list):
        return [substitute(item, out_dir) for item in value]
    return value


def replay_transcript(path: Path, engine: EngineProcess, out_dir: Path, timeout: float = MESSAGE_TIMEOUT_S) -> None:
    """Feeds the transcript's worker lines to the engine and checks what comes back (rules:
    engine-transcripts/README.md); the engine must then exit cleanly when the pipe closes. `timeout`:
    the longest wait for one message."""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert all(line.keys() == {"from", "message"} and line["from"] in ("worker", "engine") for line in lines)
    previous: dict[str, Any] | None = None
    for line in lines:
        if line["from"] == "worker":
            engine.send(substitute(line["message"], out_dir))
            continue
        expected = line["message"]
        actual = engine.receive(timeout)
        # One progress line matches the whole run of progress messages, including those the engine
        # sent before it read a worker line (a cancel) that the transcript shows after the progress.
        progress_run = previous is not None and previous["type"] == "progress" and expected["type"] != "progress"
        while progress_run and actual["type"] == "progress":
            assert matches(previous, actual), f"{path.name}: expected {previous}, got {actual}"
            actual = engine.receive(timeout)
        assert matches(expected, actual), f"{path.name}: expected {expected}, got {actual}"
        previous = expected
    engine.assert_silent(0.3)

    received = [message for message in engine.received if message["type"] != "log"]
    for job_id in {message["job_id"] for message in received if message["type"] == "progress"}:
        steps = [(m["step"], m["total"]) for m in received if m["type"] == "progress" and m["job_id"] == job_id]
        assert [step for step, _ in steps] == sorted({step for step, _ in steps}), f"{job_id}: steps rise strictly"
        assert len({total for _, total in steps}) == 1 and all(step <= total for step, total in steps)
    for artifact in (message for message in received if message["type"] == "artifact"):
        file = Path(artifact["path"])
        assert file.is_relative_to(out_dir) and file.stat().st_size > 0, artifact

    engine.close_pipe()
    assert engine.wait(10) == 0, "the engine exits cleanly when the worker closes the pipe"


def start_message(job_id: str, photo_names: list[str], output_dir: Path) -> dict[str, Any]:
    return {
        "v": PROTOCOL_VERSION,
        "type": "start",
        "job_id": job_id,
        "task": "train",
        "params": {
            "photos": [
                {"id": name, "path": str(FIXTURES / f"{name}.jpg"), "original_path": None, "descriptor": None}
                for name in photo_names
            ],
            "output_dir": str(output_dir),
            "trigger_word": "person",
            "model_name": "Test model",
        },
    }


def cancel_message(job_id: str) -> dict[str, Any]:
    return {"v": PROTOCOL_VERSION, "type": "cancel", "job_id": job_id}


class RecordingJob:
    """A JobContext that keeps what the trainer reports, for in-process tests of the training."""

    def __init__(self, cancel_after_progress: int | None = None) -> None:
        self.events: list[tuple[str, Any]] = []
        self._cancel_after_progress = cancel_after_progress

    def progress(
        self,
        step: int,
        total: int,
        message: str,
        metrics: Mapping[str, float] | None = None,
        eta_seconds: float | None = None,
    ) -> None:
        self.raise_if_cancelled()
        self.events.append(("progress", (step, total, message)))

    def raise_if_cancelled(self) -> None:
        reported = sum(kind == "progress" for kind, _ in self.events)
        if self._cancel_after_progress is not None and reported >= self._cancel_after_progress:
            raise JobCancelled

    def artifact(self, path: str, kind: ArtifactKind, meta: Mapping[str, Any] | None = None) -> None:
        self.events.append(("artifact", (path, kind)))

    def log(self, level: LogLevel, message: str) -> None:
        self.events.append(("log", (level, message)))

    def of_kind(self, kind: str) -> list[Any]:
        return [payload for event_kind, payload in self.events if event_kind == kind]


StartEngine = Callable[..., EngineProcess]  # the start_engine fixture (conftest.py)


def fixture_photo(name: str, *, original: bool = True, descriptor: tuple[float, ...] | None = None) -> Photo:
    """A fixture photo as the worker sends it: the fixture is both the optimised copy and the original."""
    path = str(FIXTURES / f"{name}.jpg")
    return Photo(id=name, path=path, original_path=path if original else None, descriptor=descriptor)


def train_params(photos: list[Photo], output_dir: Path) -> TrainParams:
    return TrainParams(photos=tuple(photos), output_dir=str(output_dir), trigger_word="person", model_name="Test model")


def generate_message(
    job_id: str, model_path: Path, output_dir: Path, *, count: int = 4, size: int = 512
) -> dict[str, Any]:
    return {
        "v": PROTOCOL_VERSION,
        "type": "start",
        "job_id": job_id,
        "task": "generate",
        "params": {
            "model_path": str(model_path),
            "prompt": "professional headshot of person",
            "template": None,
            "seed": 7,
            "count": count,
            "size": size,
            "output_dir": str(output_dir),
        },
    }


def write_format_one_model(path: Path) -> None:
    """A model file as format 1 wrote it (aligned faces and head mattes only), for the refusal tests."""
    crop = np.zeros((1, 512, 512, 3), np.uint8)
    profile = {"format": MODEL_FORMAT, "format_version": 1, "engine": "studio", "engine_version": "0.1.0", "faces": []}
    write_model(
        str(path),
        {
            "faces": crop,
            "mattes": np.zeros((1, 512, 512), np.uint8),
            "face_boxes": np.zeros((1, 4), np.float32),
            "source_transforms": np.zeros((1, 2, 3)),
        },
        profile,
    )
