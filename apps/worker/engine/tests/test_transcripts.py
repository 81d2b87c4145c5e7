"""Every golden transcript, replayed against a real engine process (rules: engine-transcripts/README.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harness import FIXTURES, TRANSCRIPTS, StartEngine

TRANSCRIPT_FILES = sorted(TRANSCRIPTS.glob("*.ndjson"))


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


def test_there_are_transcripts_for_every_outcome() -> None:
    names = {path.stem for path in TRANSCRIPT_FILES}
    assert {
        "handshake",
        "train-success",
        "train-cancelled",
        "train-bad-input",
        "protocol-mismatch",
        "generate-success",
        "generate-cancelled",
    } <= names


@pytest.mark.parametrize("path", TRANSCRIPT_FILES, ids=lambda path: path.stem)
def test_engine_replays_transcript(path: Path, start_engine: StartEngine, tmp_path: Path) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert all(line.keys() == {"from", "message"} and line["from"] in ("worker", "engine") for line in lines)
    engine = start_engine(expect_ready=False)

    previous: dict[str, Any] | None = None
    for line in lines:
        if line["from"] == "worker":
            engine.send(substitute(line["message"], out_dir))
            continue
        expected = line["message"]
        actual = engine.receive()
        # One progress line matches the whole run of progress messages, including those the engine
        # sent before it read a worker line (a cancel) that the transcript shows after the progress.
        progress_run = previous is not None and previous["type"] == "progress" and expected["type"] != "progress"
        while progress_run and actual["type"] == "progress":
            assert matches(previous, actual), f"{path.name}: expected {previous}, got {actual}"
            actual = engine.receive()
        assert matches(expected, actual), f"{path.name}: expected {expected}, got {actual}"
        previous = expected
    engine.assert_silent(0.3)

    received = [message for message in engine.received if message["type"] != "log"]
    for job_id in {message["job_id"] for message in received if message["type"] == "progress"}:
        steps = [(m["step"], m["total"]) for m in received if m["type"] == "progress" and m["job_id"] == job_id]
        assert [step for step, _ in steps] == sorted({step for step, _ in steps}), f"{job_id}: steps rise strictly"
        assert len({total for _, total in steps}) == 1 and all(step <= total for step, total in steps)
    for artifact in (message for message in received if message["type"] == "artifact"):
        path = Path(artifact["path"])
        assert path.is_relative_to(out_dir) and path.stat().st_size > 0, artifact

    engine.close_pipe()
    assert engine.wait(10) == 0, "the engine exits cleanly when the worker closes the pipe"
