"""The flux engine as the worker runs it: a process on a socketpair, started with its settings; its
start-up refusals, and a training killed mid-run that a new process resumes from its checkpoint."""

from __future__ import annotations

from pathlib import Path

from flux_support import FLUX_MESSAGE_TIMEOUT_S, astronaut_photos, flux_env, train_line
from harness import StartEngine
from safetensors.torch import load_file

# Enough steps that the run is still going when it is killed after its first checkpoint.
KILL_SETTINGS = {
    "ENGINE_FLUX_LORA_STEPS": "24",
    "ENGINE_FLUX_LORA_CHECKPOINT_EVERY": "4",
    "ENGINE_FLUX_LORA_RESOLUTION": "64",
}


def test_an_engine_without_weights_exits_before_ready_naming_the_setting(
    start_engine: StartEngine, tmp_path: Path
) -> None:
    engine = start_engine("--engine", "flux", expect_ready=False, env=flux_env(tmp_path / "no-weights-here"))
    assert engine.wait(FLUX_MESSAGE_TIMEOUT_S) == 3
    assert "ENGINE_FLUX_WEIGHTS_DIR" in engine.stderr() and "model_index.json" in engine.stderr()


def test_an_engine_with_a_bad_setting_exits_before_ready_naming_it(
    start_engine: StartEngine, flux_weights: Path
) -> None:
    engine = start_engine(
        "--engine", "flux", expect_ready=False, env=flux_env(flux_weights, ENGINE_FLUX_LORA_RANK="big")
    )
    assert engine.wait(FLUX_MESSAGE_TIMEOUT_S) == 2
    assert "ENGINE_FLUX_LORA_RANK must be a whole number" in engine.stderr()


def test_a_killed_training_resumes_from_its_checkpoint_in_a_new_process(
    start_engine: StartEngine, flux_weights: Path, tmp_path: Path
) -> None:
    env = flux_env(flux_weights, **KILL_SETTINGS)
    first = start_engine("--engine", "flux", expect_ready=False, env=env)
    assert first.receive(FLUX_MESSAGE_TIMEOUT_S)["type"] == "ready"
    first.send(train_line("job-killed", astronaut_photos(), tmp_path / "killed"))
    checkpoint = first.receive(FLUX_MESSAGE_TIMEOUT_S)
    while checkpoint["type"] != "artifact":
        checkpoint = first.receive(FLUX_MESSAGE_TIMEOUT_S)
    assert checkpoint["kind"] == "checkpoint" and checkpoint["meta"] == {"step": 4}
    first.process.kill()  # as a lost machine would: no cancel, no goodbye
    first.wait()
    assert not (tmp_path / "killed" / "model.safetensors").exists()

    second = start_engine("--engine", "flux", expect_ready=False, env=env)
    assert second.receive(FLUX_MESSAGE_TIMEOUT_S)["type"] == "ready"
    second.send(train_line("job-retried", astronaut_photos(), tmp_path / "retried", resume_from=checkpoint["path"]))
    retried = second.receive_until("result")
    steps = [message["step"] for message in retried if message["type"] == "progress"]
    assert steps[0] == 0 and min(step for step in steps if step > 0) == 5
    assert retried[-1]["summary"]["resumed_from_step"] == 4
    # (That a resumed run ends with the very LoRA an uninterrupted one makes: test_flux_training.py.)
    assert load_file(str(tmp_path / "retried" / "model.safetensors"))
