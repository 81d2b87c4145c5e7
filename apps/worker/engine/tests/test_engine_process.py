"""The engine process as the worker drives it: one socketpair on fd 3, commands in, events out."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from harness import StartEngine, as_line, cancel_message, generate_message, start_message, write_format_one_model

from studioshot_engine import PROTOCOL_VERSION, __version__

ASTRONAUTS = [
    "astronaut",
    "astronaut-mirror",
    "astronaut-warm",
    "astronaut-tilted",
    "astronaut-closer",
    "astronaut-low-quality",
]
TWELVE_PHOTOS = ASTRONAUTS * 2


def test_says_ready_first_and_exits_when_the_pipe_closes(start_engine: StartEngine) -> None:
    engine = start_engine(expect_ready=False)
    assert engine.receive() == {"v": PROTOCOL_VERSION, "type": "ready", "engine": "studio", "version": __version__}
    engine.close_pipe()
    assert engine.wait(5) == 0


def test_refuses_to_start_without_its_pipe_or_with_an_engine_it_lacks() -> None:
    no_pipe = subprocess.run(
        [sys.executable, "-m", "studioshot_engine", "--fd", "97"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert no_pipe.returncode == 2 and "fd 97 is not open" in no_pipe.stderr
    parent, child = socket.socketpair()
    with parent, child:
        flux = subprocess.run(
            [sys.executable, "-m", "studioshot_engine", "--engine", "flux", "--fd", str(child.fileno())],
            pass_fds=(child.fileno(),),
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    assert flux.returncode == 2 and "flux engine is not available" in flux.stderr


def test_answers_a_malformed_line_and_then_runs_jobs_one_after_another(
    start_engine: StartEngine, tmp_path: Path
) -> None:
    engine = start_engine()
    engine.send(b"{this is not json\n")
    error = engine.receive()
    assert (
        error["type"] == "error"
        and error["code"] == "protocol"
        and error["job_id"] is None
        and error["retryable"] is False
    )

    # Both starts arrive at once; the second waits for the first.
    engine.send(start_message("job-a", ASTRONAUTS[:3], tmp_path / "a"))
    engine.send(start_message("job-b", ASTRONAUTS[3:], tmp_path / "b"))
    first = engine.receive_until("result", "error")
    second = engine.receive_until("result", "error")
    assert {message["job_id"] for message in first} == {"job-a"} and first[-1]["type"] == "result"
    assert {message["job_id"] for message in second} == {"job-b"} and second[-1]["type"] == "result"
    assert (tmp_path / "a" / "model.npz").is_file() and (tmp_path / "b" / "model.npz").is_file()


def test_cancel_stops_the_job_within_a_second(start_engine: StartEngine, tmp_path: Path) -> None:
    engine = start_engine()
    engine.send(start_message("job-1", TWELVE_PHOTOS, tmp_path))
    assert engine.receive()["type"] == "progress"
    cancelled_at = time.monotonic()
    engine.send(cancel_message("job-1"))
    messages = engine.receive_until("result", "error")
    # At most one photo's analysis (~0.1 s on an idle machine) lies between a cancel and its answer.
    assert time.monotonic() - cancelled_at < 1.5
    assert messages[-1] == {
        "v": PROTOCOL_VERSION,
        "type": "error",
        "job_id": "job-1",
        "code": "cancelled",
        "message": "Training was cancelled.",
        "retryable": False,
    }
    assert {message["type"] for message in messages[:-1]} <= {"progress"}
    assert not (tmp_path / "model.npz").exists()


def test_a_cancel_right_behind_its_start_cancels_before_any_work(start_engine: StartEngine, tmp_path: Path) -> None:
    engine = start_engine()
    start = start_message("job-1", TWELVE_PHOTOS, tmp_path)
    engine.send(b"".join(as_line(m) for m in (start, cancel_message("job-1"))))
    messages = engine.receive_until("result", "error")
    assert messages[-1]["code"] == "cancelled"
    assert len(messages) <= 2  # at most the first photo's progress, when the job started before the cancel was read


def test_a_cancel_for_no_running_job_is_only_logged(start_engine: StartEngine) -> None:
    engine = start_engine()
    engine.send(cancel_message("job-gone"))
    log = engine.receive(include_logs=True)
    assert log == {
        "v": PROTOCOL_VERSION,
        "type": "log",
        "level": "info",
        "message": "cancel for job job-gone ignored: not running",
    }
    engine.assert_silent(0.3)


def test_a_second_start_of_a_running_job_is_refused_and_the_job_goes_on(
    start_engine: StartEngine, tmp_path: Path
) -> None:
    engine = start_engine()
    start = start_message("job-1", ASTRONAUTS[:3], tmp_path)
    engine.send(start)
    engine.send(start)
    messages = engine.receive_until("result")
    refusals = [m for m in messages if m["type"] == "error"]
    assert [(m["code"], m["job_id"]) for m in refusals] == [("protocol", None)]
    assert "started twice" in refusals[0]["message"]


def test_an_unexpected_failure_is_internal_and_retryable(start_engine: StartEngine, tmp_path: Path) -> None:
    engine = start_engine()
    not_a_directory = tmp_path / "file"
    not_a_directory.write_text("")
    engine.send(start_message("job-1", ASTRONAUTS[:3], not_a_directory))
    error = engine.receive_until("result", "error")[-1]
    assert (error["type"], error["code"], error["retryable"]) == ("error", "internal", True)
    assert "FileExistsError" in error["message"]
    assert "Traceback" in engine.stderr()


def test_exits_at_once_mid_job_when_the_worker_dies(start_engine: StartEngine, tmp_path: Path) -> None:
    engine = start_engine()
    engine.send(start_message("job-1", TWELVE_PHOTOS, tmp_path))
    assert engine.receive()["type"] == "progress"
    closed_at = time.monotonic()
    engine.close_pipe()  # what the kernel does to the worker's end when the worker is killed
    assert engine.wait(5) == 0
    assert time.monotonic() - closed_at < 1.0
    assert "the worker closed the protocol pipe" in engine.stderr()


def test_sigterm_ends_it_promptly_mid_job(start_engine: StartEngine, tmp_path: Path) -> None:
    engine = start_engine()
    engine.send(start_message("job-1", TWELVE_PHOTOS, tmp_path))
    assert engine.receive()["type"] == "progress"
    signalled_at = time.monotonic()
    engine.process.send_signal(signal.SIGTERM)
    assert engine.wait(5) == -signal.SIGTERM
    assert time.monotonic() - signalled_at < 1.0


def test_one_warm_process_trains_then_generates_from_that_model(start_engine: StartEngine, tmp_path: Path) -> None:
    pytest.importorskip("studioshot_engine.studio.generate", reason="the generator is not in this build yet")
    engine = start_engine()
    engine.send(start_message("job-train", ASTRONAUTS[:3], tmp_path / "model"))
    trained = engine.receive_until("result", "error")
    assert trained[-1]["type"] == "result", trained[-1]
    engine.send(generate_message("job-generate", tmp_path / "model" / "model.npz", tmp_path / "images", count=2))
    generated = engine.receive_until("result", "error")
    assert generated[-1]["type"] == "result", generated[-1]
    assert {message["job_id"] for message in generated} == {"job-generate"}
    images = [message for message in generated if message["type"] == "artifact"]
    assert [image["kind"] for image in images] == ["image", "image"]
    for image in images:
        assert Path(image["path"]).is_file() and Path(image["path"]).parent == tmp_path / "images"
    # And the same process still trains.
    engine.send(start_message("job-train-2", ASTRONAUTS[3:], tmp_path / "model-2"))
    assert engine.receive_until("result", "error")[-1]["type"] == "result"


def test_generating_from_a_format_one_model_is_bad_input(start_engine: StartEngine, tmp_path: Path) -> None:
    pytest.importorskip("studioshot_engine.studio.generate", reason="the generator is not in this build yet")
    model = tmp_path / "model.npz"
    write_format_one_model(model)
    engine = start_engine()
    engine.send(generate_message("job-old", model, tmp_path / "images", count=1))
    error = engine.receive_until("result", "error")[-1]
    assert (error["type"], error["code"], error["retryable"]) == ("error", "bad_input", False)
    assert error["message"] == "This model was trained before generation existed: retrain it to generate headshots."


def test_refuses_to_start_without_the_protocol_schema(tmp_path: Path) -> None:
    parent, child = socket.socketpair()
    with parent, child:
        run = subprocess.run(
            [sys.executable, "-m", "studioshot_engine", "--fd", str(child.fileno())],
            pass_fds=(child.fileno(),),
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
            env={**os.environ, "ENGINE_PROTOCOL_SCHEMA": str(tmp_path / "missing.json")},
        )
    assert run.returncode == 3 and "missing.json cannot be read" in run.stderr


def test_answer_after_answers_each_job_after_its_sleep_with_files_the_worker_stores(
    start_engine: StartEngine, tmp_path: Path
) -> None:
    """ENGINE_ANSWER_AFTER_MS (a development convenience the worker refuses in production): the
    real process answers a training and a generation after the fixed sleep, never sooner."""
    engine = start_engine(env={**os.environ, "ENGINE_ANSWER_AFTER_MS": "300"})
    started = time.monotonic()
    engine.send(start_message("job-train", ASTRONAUTS[:1], tmp_path / "train"))
    trained = engine.receive_until("result", "error")
    assert time.monotonic() - started >= 0.3
    assert trained[-1]["type"] == "result" and trained[-1]["summary"]["answered_after_ms"] == 300
    kinds = {m["kind"]: Path(m["path"]) for m in trained if m["type"] == "artifact"}
    assert set(kinds) == {"model", "preview"} and all(path.is_file() for path in kinds.values())

    started = time.monotonic()
    engine.send(generate_message("job-generate", kinds["model"], tmp_path / "images", count=2, size=256))
    generated = engine.receive_until("result", "error")
    assert time.monotonic() - started >= 0.3
    images = [m for m in generated if m["type"] == "artifact"]
    assert [m["meta"]["index"] for m in images] == [0, 1]
    import cv2  # noqa: PLC0415

    assert all(cv2.imread(m["path"]).shape == (256, 256, 3) for m in images)


def test_answer_after_is_cancelled_during_its_sleep(start_engine: StartEngine, tmp_path: Path) -> None:
    engine = start_engine(env={**os.environ, "ENGINE_ANSWER_AFTER_MS": "60000"})
    engine.send(start_message("job-1", ASTRONAUTS[:1], tmp_path))
    assert engine.receive()["type"] == "progress"
    engine.send(cancel_message("job-1"))
    assert engine.receive_until("result", "error")[-1]["code"] == "cancelled"


def test_answer_after_refuses_a_value_that_is_not_milliseconds(start_engine: StartEngine) -> None:
    engine = start_engine(expect_ready=False, env={**os.environ, "ENGINE_ANSWER_AFTER_MS": "soon"})
    assert engine.wait(30) == 2
    assert "ENGINE_ANSWER_AFTER_MS must be a whole number of milliseconds" in engine.stderr()
