"""The protocol module mirrors packages/contracts/src/engine.ts: strict commands, exact events."""

from __future__ import annotations

import json
from typing import Any

import pytest
from harness import assert_valid_event

from studioshot_engine import PROTOCOL_VERSION, protocol
from studioshot_engine.protocol import CancelCommand, Photo, ProtocolError, StartCommand, TrainParams, parse_command

START: dict[str, Any] = {
    "v": 1,
    "type": "start",
    "job_id": "job-1",
    "task": "train",
    "params": {
        "photos": [{"id": "p1", "path": "/photos/1.jpg"}],
        "output_dir": "/out",
        "trigger_word": "person",
        "model_name": "Me",
    },
}


def line(message: Any) -> bytes:
    return (json.dumps(message) + "\n").encode()


def with_params(**changes: Any) -> dict[str, Any]:
    return {**START, "params": {**START["params"], **changes}}


def test_encode_is_one_versioned_json_line() -> None:
    encoded = protocol.encode("progress", step=3, total=10, message="aligning faces")
    assert encoded.endswith(b"\n") and encoded.count(b"\n") == 1
    assert json.loads(encoded) == {
        "v": PROTOCOL_VERSION,
        "type": "progress",
        "step": 3,
        "total": 10,
        "message": "aligning faces",
    }


def test_a_newline_inside_a_value_stays_escaped() -> None:
    assert protocol.log("info", "two\nlines").count(b"\n") == 1


def test_events_have_exactly_the_schema_keys() -> None:
    events = [
        protocol.ready("studio", "0.1.0"),
        protocol.progress("job-1", 0, 5, "starting"),
        protocol.log("warn", "careful"),
        protocol.artifact("job-1", "/out/model.npz", "model"),
        protocol.result("job-1", {"photos_used": 3}),
        protocol.error(None, "protocol", "bad line", retryable=False),
        protocol.error("job-1", "internal", "boom", retryable=True),
    ]
    for event in events:
        assert_valid_event(json.loads(event))


def test_parses_start() -> None:
    assert parse_command(line(START)) == StartCommand(
        job_id="job-1",
        params=TrainParams(
            photos=(Photo(id="p1", path="/photos/1.jpg"),), output_dir="/out", trigger_word="person", model_name="Me"
        ),
    )


def test_parses_cancel() -> None:
    assert parse_command(line({"v": 1, "type": "cancel", "job_id": "job-1"})) == CancelCommand(job_id="job-1")


@pytest.mark.parametrize(
    ("raw", "job_id", "fragment"),
    [
        (b"{not json\n", None, "not a JSON line"),
        (b"\xff\xfe\n", None, "not a JSON line"),
        (b"\n", None, "not a JSON line"),
        (line([1, 2]), None, "JSON object"),
        (line({**START, "v": 2}), "job-1", "protocol version 2"),
        (line({**START, "v": "1"}), "job-1", "protocol version"),
        (line({**START, "v": True}), "job-1", "protocol version true"),
        (line({k: v for k, v in START.items() if k != "v"}), "job-1", "protocol version null"),
        (line({"v": 1, "type": "resume", "job_id": "job-1"}), "job-1", "unknown message type"),
        (line({"v": 1, "job_id": "job-1"}), "job-1", "type"),
        (line({**START, "task": "generate"}), "job-1", "unknown task"),
        (line({**START, "extra": 1}), "job-1", "unexpected extra"),
        (line({k: v for k, v in START.items() if k != "params"}), "job-1", "missing params"),
        (line({**START, "job_id": 7}), None, "job_id must be a string"),
        (line(with_params(photos=[])), "job-1", "non-empty"),
        (line(with_params(photos=[{"id": "p1"}])), "job-1", "missing path"),
        (line(with_params(photos=[{"id": "p1", "path": "/a", "size": 1}])), "job-1", "unexpected size"),
        (line(with_params(output_dir=None)), "job-1", "output_dir must be a string"),
        (line(with_params(seed=1)), "job-1", "unexpected seed"),
        (line({"v": 1, "type": "cancel", "job_id": "job-1", "reason": "user"}), "job-1", "unexpected reason"),
    ],
)
def test_rejects_what_the_zod_schema_rejects(raw: bytes, job_id: str | None, fragment: str) -> None:
    with pytest.raises(ProtocolError, match=fragment) as caught:
        parse_command(raw)
    assert caught.value.job_id == job_id
