"""The protocol module follows packages/contracts (engine.ts and its JSON Schema): commands checked
against the schema's `command`, typed; events exactly as the schema's `event` declares them."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from harness import REPO, assert_valid_event
from jsonschema import Draft202012Validator

from studioshot_engine import PROTOCOL_VERSION, protocol
from studioshot_engine.protocol import (
    CancelCommand,
    GenerateParams,
    GenerateTemplate,
    Photo,
    ProtocolError,
    StartCommand,
    TrainParams,
    parse_command,
    validate_event,
)

DESCRIPTOR = [round(0.01 * i - 0.5, 3) for i in range(128)]
START: dict[str, Any] = {
    "v": 2,
    "type": "start",
    "job_id": "job-1",
    "task": "train",
    "params": {
        "photos": [
            {"id": "p1", "path": "/photos/1.jpg", "original_path": "/photos/1-original.heic", "descriptor": DESCRIPTOR},
            {"id": "p2", "path": "/photos/2.jpg", "original_path": None, "descriptor": None},
        ],
        "output_dir": "/out",
        "trigger_word": "person",
        "model_name": "Me",
    },
}
STUDIO: dict[str, Any] = {
    "framing": {"head_height": 0.4, "eye_line": 0.38, "offset_x": 0.0},
    "backdrop": {"kind": "seamless", "colors": ["#6f7b88", "#2b3139"], "vignette": 0.3, "blur": 0.5},
    "lighting": {"key_side": -0.5, "key_strength": 0.6, "fill_ratio": 0.5, "rim_strength": 0.2, "rim_color": "#ffffff"},
    "grade": {"temperature": 0.1, "tint": 0, "contrast": 1.05, "saturation": 1, "fade": 0, "monochrome": 0},
    "retouch": {"skin_smoothing": 0.3, "eye_clarity": 0.3},
}
GENERATE: dict[str, Any] = {
    "v": 2,
    "type": "start",
    "job_id": "job-2",
    "task": "generate",
    "params": {
        "model_path": "/models/model.npz",
        "prompt": "professional headshot of person",
        "template": {"id": "prof_1", "variant": 1, "studio": STUDIO},
        "seed": 42,
        "count": 4,
        "size": 1024,
        "output_dir": "/out/images",
    },
}


def line(message: Any) -> bytes:
    return (json.dumps(message) + "\n").encode()


def changed(message: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy with the value at a dotted path (list indices as numbers) replaced, or removed for ...."""
    result = copy.deepcopy(message)
    *parents, last = [int(part) if part.isdigit() else part for part in path.split(".")]
    target: Any = result
    for part in parents:
        target = target[part]
    if value is ...:
        del target[last]
    else:
        target[last] = value
    return result


def test_the_schema_file_is_the_contracts_one_for_this_version() -> None:
    assert protocol.schema_path() == REPO / "packages" / "contracts" / "engine-protocol.schema.json"
    schema = protocol.protocol_schema()
    assert schema["protocol_version"] == PROTOCOL_VERSION == 2
    assert {"command", "event"} <= schema.keys()


def test_an_env_variable_names_another_schema_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "schema.json"
    other.write_text(json.dumps({"protocol_version": 1, "command": {}, "event": {}}))
    monkeypatch.setenv(protocol.SCHEMA_ENV, str(other))
    protocol.protocol_schema.cache_clear()
    try:
        assert protocol.schema_path() == other
        with pytest.raises(RuntimeError, match="for protocol v1, this engine speaks v2"):
            protocol.protocol_schema()
    finally:
        monkeypatch.delenv(protocol.SCHEMA_ENV)
        protocol.protocol_schema.cache_clear()
    assert protocol.protocol_schema()["protocol_version"] == 2


def test_encode_is_one_versioned_json_line() -> None:
    encoded = protocol.encode("progress", step=3, total=10, message="aligning faces")
    assert encoded.endswith(b"\n") and encoded.count(b"\n") == 1
    assert json.loads(encoded) == {"v": 2, "type": "progress", "step": 3, "total": 10, "message": "aligning faces"}


def test_a_newline_inside_a_value_stays_escaped() -> None:
    assert protocol.log("info", "two\nlines").count(b"\n") == 1


def test_events_validate_against_the_schema() -> None:
    events = [
        protocol.ready("studio", "0.2.0"),
        protocol.progress("job-1", 0, 5, "starting"),
        protocol.progress("job-1", 2, 5, "rendering", metrics={"per_second": 1.5, "loss": 0}, eta_seconds=3.2),
        protocol.log("warn", "careful"),
        protocol.log("info", "train started", job_id="job-1", request_id="req-0123456789"),
        protocol.artifact("job-1", "/out/model.npz", "model"),
        protocol.artifact("job-1", "/out/1.jpg", "image", {"index": 0, "ref": "p1", "box": [1, 2.5, 3, 4], "ok": True}),
        protocol.artifact("job-1", "/out/ckpt.bin", "checkpoint_2"),
        protocol.result("job-1", {"photos_used": 3, "nested": {"a": [1, None]}}),
        protocol.error(None, "protocol", "bad line", retryable=False),
        protocol.error("job-1", "internal", "boom", retryable=True),
    ]
    for event in events:
        assert_valid_event(json.loads(event))


def test_optional_event_fields_are_left_out_rather_than_null() -> None:
    assert set(json.loads(protocol.progress("j", 1, 2, "m"))) == {"v", "type", "job_id", "step", "total", "message"}
    assert set(json.loads(protocol.artifact("j", "/p", "preview"))) == {"v", "type", "job_id", "path", "kind"}


def test_numpy_numbers_in_metrics_and_meta_become_json_numbers() -> None:
    np = pytest.importorskip("numpy")
    meta = {"score": np.float32(0.5), "box": np.array([1.0, 2.0]), "n": np.int64(3)}
    event = json.loads(protocol.artifact("j", "/p.jpg", "image", meta))
    assert event["meta"] == {"score": 0.5, "box": [1.0, 2.0], "n": 3}
    progress = protocol.progress("j", 1, 2, "m", metrics={"loss": np.float64(0.25)}, eta_seconds=np.float32(2))
    assert json.loads(progress)["eta_seconds"] == 2


@pytest.mark.parametrize(
    "build",
    [
        lambda: protocol.artifact("j", "/p", "Image"),
        lambda: protocol.artifact("j", "/p", "two words"),
        lambda: protocol.artifact("j", "/p", "image", {"nested": {"a": 1}}),
        lambda: protocol.artifact("j", "/p", "image", {"flags": [True, False]}),
        lambda: protocol.artifact("j", "/p", "image", {"none": None}),
        lambda: protocol.progress("j", 1, 2, "m", metrics={"loss": float("nan")}),
        lambda: protocol.progress("j", 1, 2, "m", metrics={"done": True}),
        lambda: protocol.progress("j", 1, 2, "m", eta_seconds=-1),
        lambda: protocol.result("j", {"score": float("inf")}),
    ],
)
def test_refuses_to_build_an_event_the_worker_would_reject(build: Any) -> None:
    with pytest.raises(ValueError):
        build()


@pytest.mark.parametrize(
    "event",
    [
        {"v": 1, "type": "ready", "engine": "studio", "version": "1"},
        {"v": 2, "type": "ready", "engine": "studio"},
        {"v": 2, "type": "progress", "job_id": "j", "step": 1, "total": 0, "message": "m"},
        {"v": 2, "type": "progress", "job_id": "j", "step": 1, "total": 2, "message": "m", "metrics": {"a": "x"}},
        {"v": 2, "type": "artifact", "job_id": "j", "path": "/p", "kind": "Image"},
        {"v": 2, "type": "artifact", "job_id": "j", "path": "/p", "kind": "image", "meta": {"a": None}},
        {"v": 2, "type": "error", "job_id": "j", "code": "oops", "message": "m", "retryable": False},
        {"v": 2, "type": "log", "level": "info", "message": "m", "extra": 1},
    ],
)
def test_event_validation_catches_what_the_worker_would_reject(event: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="not a valid engine event"):
        validate_event(event)


def test_parses_a_train_start() -> None:
    assert parse_command(line(START)) == StartCommand(
        job_id="job-1",
        task="train",
        params=TrainParams(
            photos=(
                Photo(
                    id="p1", path="/photos/1.jpg", original_path="/photos/1-original.heic", descriptor=tuple(DESCRIPTOR)
                ),
                Photo(id="p2", path="/photos/2.jpg", original_path=None, descriptor=None),
            ),
            output_dir="/out",
            trigger_word="person",
            model_name="Me",
        ),
    )


def test_parses_a_generate_start() -> None:
    assert parse_command(line(GENERATE)) == StartCommand(
        job_id="job-2",
        task="generate",
        params=GenerateParams(
            model_path="/models/model.npz",
            prompt="professional headshot of person",
            template=GenerateTemplate(id="prof_1", variant=1, studio=STUDIO),
            seed=42,
            count=4,
            size=1024,
            output_dir="/out/images",
        ),
    )
    no_template = parse_command(line(changed(GENERATE, "params.template", None)))
    assert isinstance(no_template, StartCommand) and isinstance(no_template.params, GenerateParams)
    assert no_template.params.template is None


def test_parses_cancel() -> None:
    assert parse_command(line({"v": 2, "type": "cancel", "job_id": "job-1"})) == CancelCommand(job_id="job-1")


@pytest.mark.parametrize(
    ("raw", "job_id", "fragment"),
    [
        (b"{not json\n", None, "not a JSON line"),
        (b"\xff\xfe\n", None, "not a JSON line"),
        (b"\n", None, "not a JSON line"),
        (line([1, 2]), None, "JSON object"),
        (line({**START, "v": 1}), "job-1", "protocol version 1 is not supported: this engine speaks v2"),
        (line({**START, "v": 3}), "job-1", "protocol version 3"),
        (line({**START, "v": "2"}), "job-1", "protocol version"),
        (line({**START, "v": True}), "job-1", "protocol version true"),
        (line({k: v for k, v in START.items() if k != "v"}), "job-1", "protocol version null"),
        (line({"v": 2, "type": "resume", "job_id": "job-1"}), "job-1", "unknown message type"),
        (line({"v": 2, "job_id": "job-1"}), "job-1", "type"),
        (line({**START, "task": "upscale"}), "job-1", "unknown task"),
        (line({**START, "extra": 1}), "job-1", "'extra' was unexpected"),
        (line({k: v for k, v in START.items() if k != "params"}), "job-1", "'params' is a required property"),
        (line({**START, "job_id": 7}), None, "job_id: 7 is not of type 'string'"),
        (line(changed(START, "params.photos", [])), "job-1", "params.photos: [] should be non-empty"),
        (line(changed(START, "params.photos.0.path", ...)), "job-1", "params.photos[0]: 'path' is a required"),
        (line(changed(START, "params.photos.1.original_path", ...)), "job-1", "'original_path' is a required"),
        (line(changed(START, "params.photos.1.descriptor", ...)), "job-1", "'descriptor' is a required"),
        (line(changed(START, "params.photos.0.descriptor", [0.5] * 127)), "job-1", "params.photos[0].descriptor"),
        (line(changed(START, "params.photos.0.descriptor", ["x"] * 128)), "job-1", "params.photos[0].descriptor"),
        (line(changed(START, "params.photos.0.size", 1)), "job-1", "'size' was unexpected"),
        (line(changed(START, "params.output_dir", None)), "job-1", "params.output_dir: None is not of type 'string'"),
        (line(changed(START, "params.seed", 1)), "job-1", "'seed' was unexpected"),
        (line(changed(GENERATE, "params.photos", [])), "job-2", "'photos' was unexpected"),
        (line(changed(GENERATE, "params.count", 9)), "job-2", "params.count: 9 is greater than the maximum of 8"),
        (line(changed(GENERATE, "params.count", 2.5)), "job-2", "params.count: 2.5 is not of type 'integer'"),
        (line(changed(GENERATE, "params.size", 128)), "job-2", "params.size: 128 is less than the minimum of 256"),
        (line(changed(GENERATE, "params.seed", -1)), "job-2", "params.seed"),
        (line(changed(GENERATE, "params.prompt", "x" * 2001)), "job-2", "params.prompt"),
        (line(changed(GENERATE, "params.template.variant", -1)), "job-2", "params.template"),
        (line(changed(GENERATE, "params.template.studio.backdrop.kind", "space")), "job-2", "params.template"),
        (line(changed(GENERATE, "params.template.studio.retouch", ...)), "job-2", "params.template"),
        (line(changed(GENERATE, "params.template", ...)), "job-2", "'template' is a required property"),
        (line({"v": 2, "type": "cancel", "job_id": "job-1", "reason": "user"}), "job-1", "'reason' was unexpected"),
        (line({"v": 2, "type": "cancel"}), None, "'job_id' is a required property"),
    ],
)
def test_rejects_what_the_zod_schema_rejects(raw: bytes, job_id: str | None, fragment: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_command(raw)
    assert fragment in str(caught.value)
    assert caught.value.job_id == job_id


def test_every_accepted_command_is_valid_against_the_whole_command_schema() -> None:
    validator = Draft202012Validator(protocol.protocol_schema()["command"])
    cancel = {"v": 2, "type": "cancel", "job_id": "j"}
    for command in (START, GENERATE, changed(GENERATE, "params.template", None), cancel):
        assert validator.is_valid(command)
        parse_command(line(command))
