"""The loop in process: dispatch by task, the generator made once on first use, errors per job."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from harness import assert_valid_event, cancel_message

from studioshot_engine import PROTOCOL_VERSION
from studioshot_engine.channel import Channel
from studioshot_engine.jobs import BadInput, Generator, JobContext
from studioshot_engine.loop import EngineLoop
from studioshot_engine.protocol import GenerateParams, TrainParams

TRAIN: dict[str, Any] = {
    "v": PROTOCOL_VERSION,
    "type": "start",
    "job_id": "train-1",
    "task": "train",
    "params": {
        "photos": [{"id": "p1", "path": "/p1.jpg", "original_path": None, "descriptor": None}],
        "output_dir": "/out",
        "trigger_word": "person",
        "model_name": "Me",
    },
}
GENERATE: dict[str, Any] = {
    "v": PROTOCOL_VERSION,
    "type": "start",
    "job_id": "generate-1",
    "task": "generate",
    "params": {
        "model_path": "/out/model.npz",
        "prompt": "headshot",
        "template": None,
        "seed": 1,
        "count": 2,
        "size": 512,
        "output_dir": "/out/images",
    },
}


class FakeTrainer:
    def __init__(self) -> None:
        self.calls: list[TrainParams] = []

    def train(self, job: JobContext, params: TrainParams) -> dict[str, Any]:
        self.calls.append(params)
        job.progress(1, 1, "trained")
        job.artifact(f"{params.output_dir}/model.npz", "model")
        return {"photos_used": len(params.photos)}


class FakeGenerator:
    made = 0

    def __init__(self, fail_with: Exception | None = None) -> None:
        FakeGenerator.made += 1
        self.calls: list[GenerateParams] = []
        self._fail_with = fail_with

    def generate(self, job: JobContext, params: GenerateParams) -> dict[str, Any]:
        self.calls.append(params)
        if self._fail_with is not None:
            raise self._fail_with
        for index in range(params.count):
            job.progress(index, params.count, f"Rendering image {index + 1}", {"seconds": 0.5}, eta_seconds=1.0)
            job.artifact(f"{params.output_dir}/{index}.jpg", "image", {"index": index, "face_box": [1, 2, 3, 4]})
        job.progress(params.count, params.count, "Done")
        return {"images": params.count}


class Harness:
    def __init__(self, loop: EngineLoop, peer: socket.socket) -> None:
        self.loop = loop
        self._peer = peer
        self._buffer = b""
        self.logs: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.loop._on_line((json.dumps(message) + "\n").encode())

    def run_next(self) -> None:
        self.loop._run(self.loop._starts.get_nowait())

    def events(self) -> list[dict[str, Any]]:
        self._peer.setblocking(False)
        try:
            while chunk := self._peer.recv(65536):
                self._buffer += chunk
        except BlockingIOError:
            pass
        *lines, self._buffer = self._buffer.split(b"\n")
        messages = [json.loads(line) for line in lines]
        for message in messages:
            assert_valid_event(message)
        # Log lines are kept apart: the tests below are about the run's other events.
        self.logs += [message for message in messages if message["type"] == "log"]
        return [message for message in messages if message["type"] != "log"]


@pytest.fixture
def pipe() -> Iterator[tuple[Channel, socket.socket]]:
    ours, peer = socket.socketpair()
    with ours, peer:
        yield Channel(ours.fileno()), peer


def make(pipe: tuple[Channel, socket.socket], factory: Any = FakeGenerator) -> tuple[Harness, FakeTrainer]:
    trainer = FakeTrainer()
    FakeGenerator.made = 0
    return Harness(EngineLoop(pipe[0], trainer, factory), pipe[1]), trainer


def test_train_goes_to_the_trainer_and_generate_to_one_generator_made_on_first_use(
    pipe: tuple[Channel, socket.socket],
) -> None:
    harness, trainer = make(pipe)
    harness.send(TRAIN)
    harness.run_next()
    assert FakeGenerator.made == 0, "training does not load the generator"
    assert [e["type"] for e in harness.events()] == ["progress", "artifact", "result"]
    for job_id in ("generate-1", "generate-2"):
        harness.send({**GENERATE, "job_id": job_id})
        harness.run_next()
        events = harness.events()
        assert {e["job_id"] for e in events} == {job_id}
        assert [e["kind"] for e in events if e["type"] == "artifact"] == ["image", "image"]
        assert events[0]["metrics"] == {"seconds": 0.5} and events[0]["eta_seconds"] == 1.0
        assert events[-1] == {"v": PROTOCOL_VERSION, "type": "result", "job_id": job_id, "summary": {"images": 2}}
    assert FakeGenerator.made == 1, "the warm engine keeps its generator"
    assert len(trainer.calls) == 1


@pytest.mark.parametrize(
    ("start", "message"), [(TRAIN, "Training was cancelled."), (GENERATE, "Generation was cancelled.")]
)
def test_a_cancelled_job_says_what_was_cancelled(
    pipe: tuple[Channel, socket.socket], start: dict[str, Any], message: str
) -> None:
    harness, _ = make(pipe)
    harness.send(start)
    harness.send(cancel_message(start["job_id"]))
    harness.run_next()
    assert harness.events() == [
        {
            "v": PROTOCOL_VERSION,
            "type": "error",
            "job_id": start["job_id"],
            "code": "cancelled",
            "message": message,
            "retryable": False,
        }
    ]


def test_bad_input_from_the_generator_is_the_users_to_read(pipe: tuple[Channel, socket.socket]) -> None:
    harness, _ = make(pipe, lambda: FakeGenerator(BadInput("This model was trained before generation existed.")))
    harness.send(GENERATE)
    harness.run_next()
    [error] = harness.events()
    assert (error["code"], error["retryable"], error["message"]) == (
        "bad_input",
        False,
        "This model was trained before generation existed.",
    )


def test_an_engine_without_a_generator_fails_generate_jobs_only(pipe: tuple[Channel, socket.socket]) -> None:
    def missing() -> Generator:
        raise ModuleNotFoundError("No module named 'studioshot_engine.studio.generate'")

    harness, _ = make(pipe, missing)
    harness.send(GENERATE)
    harness.run_next()
    [error] = harness.events()
    assert (error["type"], error["code"], error["retryable"]) == ("error", "internal", False)
    assert "cannot generate" in error["message"]
    harness.send(TRAIN)
    harness.run_next()
    assert harness.events()[-1]["type"] == "result"


def test_a_runs_log_lines_name_its_job_and_the_request_that_caused_it(pipe: tuple[Channel, socket.socket]) -> None:
    harness, _ = make(pipe)
    harness.send({**TRAIN, "request_id": "req-0123456789"})
    harness.run_next()
    harness.send(GENERATE)  # queued by no request
    harness.run_next()
    harness.events()
    assert harness.logs == [
        {
            "v": PROTOCOL_VERSION,
            "type": "log",
            "level": "info",
            "message": "train started",
            "job_id": TRAIN["job_id"],
            "request_id": "req-0123456789",
        },
        {
            "v": PROTOCOL_VERSION,
            "type": "log",
            "level": "info",
            "message": "generate started",
            "job_id": GENERATE["job_id"],
        },
    ]
