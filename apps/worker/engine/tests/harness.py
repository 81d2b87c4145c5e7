"""Test helpers: the real engine as a subprocess on a socketpair, a recording job, the fixture photos."""

from __future__ import annotations

import json
import select
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from studioshot_engine.jobs import JobCancelled
from studioshot_engine.protocol import ArtifactKind, LogLevel, Photo, TrainParams

REPO = Path(__file__).resolve().parents[4]
FIXTURES = REPO / "apps" / "worker" / "test" / "fixtures"
TRANSCRIPTS = REPO / "packages" / "contracts" / "engine-transcripts"
MESSAGE_TIMEOUT_S = 30.0

# Child-to-parent events as packages/contracts/src/engine.ts declares them: exact keys, value types.
EVENT_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "ready": {"engine": (str,), "version": (str,)},
    "progress": {"job_id": (str,), "step": (int,), "total": (int,), "message": (str,)},
    "log": {"level": (str,), "message": (str,)},
    "artifact": {"job_id": (str,), "path": (str,), "kind": (str,)},
    "result": {"job_id": (str,), "summary": (dict,)},
    "error": {"job_id": (str, type(None)), "code": (str,), "message": (str,), "retryable": (bool,)},
}
EVENT_ENUMS = {
    ("log", "level"): {"debug", "info", "warn", "error"},
    ("artifact", "kind"): {"model", "preview"},
    ("error", "code"): {"bad_input", "cancelled", "protocol", "internal"},
}


def assert_valid_event(message: dict[str, Any]) -> None:
    """Fails unless the message would parse with ZEngineEventSchema."""
    assert _is_a(message.get("v"), int) and message["v"] == 1, message
    fields = EVENT_FIELDS[message["type"]]
    assert set(message) == {"v", "type", *fields}, message
    for key, types in fields.items():
        assert any(_is_a(message[key], kind) for kind in types), (key, message)
        allowed = EVENT_ENUMS.get((message["type"], key))
        assert allowed is None or message[key] in allowed, (key, message)
    if message["type"] == "progress":
        assert message["step"] >= 0 and message["total"] > 0, message


def _is_a(value: Any, kind: type) -> bool:
    # JSON true is not a number, and a number is not a boolean.
    return isinstance(value, kind) and (kind is bool or not isinstance(value, bool))


def as_line(message: dict[str, Any]) -> bytes:
    return (json.dumps(message) + "\n").encode()


class EngineProcess:
    """`python -m studioshot_engine` with one end of a socketpair as its protocol pipe, as Node gives it."""

    def __init__(self, stderr_path: Path, *extra_args: str) -> None:
        self._pipe, child_end = socket.socketpair()
        with child_end, stderr_path.open("wb") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "studioshot_engine", "--fd", str(child_end.fileno()), *extra_args],
                pass_fds=(child_end.fileno(),),
                stdout=subprocess.DEVNULL,
                stderr=stderr,
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


def start_message(job_id: str, photo_names: list[str], output_dir: Path) -> dict[str, Any]:
    return {
        "v": 1,
        "type": "start",
        "job_id": job_id,
        "task": "train",
        "params": {
            "photos": [{"id": name, "path": str(FIXTURES / f"{name}.jpg")} for name in photo_names],
            "output_dir": str(output_dir),
            "trigger_word": "person",
            "model_name": "Test model",
        },
    }


class RecordingJob:
    """A JobContext that keeps what the trainer reports, for in-process tests of the training."""

    def __init__(self, cancel_after_progress: int | None = None) -> None:
        self.events: list[tuple[str, Any]] = []
        self._cancel_after_progress = cancel_after_progress

    def progress(self, step: int, total: int, message: str) -> None:
        self.raise_if_cancelled()
        self.events.append(("progress", (step, total, message)))

    def raise_if_cancelled(self) -> None:
        reported = sum(kind == "progress" for kind, _ in self.events)
        if self._cancel_after_progress is not None and reported >= self._cancel_after_progress:
            raise JobCancelled

    def artifact(self, path: str, kind: ArtifactKind) -> None:
        self.events.append(("artifact", (path, kind)))

    def log(self, level: LogLevel, message: str) -> None:
        self.events.append(("log", (level, message)))

    def of_kind(self, kind: str) -> list[Any]:
        return [payload for event_kind, payload in self.events if event_kind == kind]


StartEngine = Callable[..., EngineProcess]  # the start_engine fixture (conftest.py)


def fixture_photo(name: str) -> Photo:
    return Photo(id=name, path=str(FIXTURES / f"{name}.jpg"))


def train_params(photos: list[Photo], output_dir: Path) -> TrainParams:
    return TrainParams(photos=tuple(photos), output_dir=str(output_dir), trigger_word="person", model_name="Test model")
