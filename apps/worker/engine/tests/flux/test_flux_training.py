"""The flux training, in process, on the tiny random-weight pipeline: crops, cached encodings, a peft
LoRA trained for a few steps, checkpoints and resuming, the safetensors artifact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from flux_support import Recorder, astronaut_photos, flux_settings, other_person_photos
from safetensors import safe_open
from safetensors.torch import load_file

from studioshot_engine.flux.lora import FORMAT, METADATA_KEY
from studioshot_engine.flux.training import FluxTrainer, TrainingRun
from studioshot_engine.flux.weights import base_model_fingerprint, resolve_runtime
from studioshot_engine.jobs import BadInput, JobCancelled
from studioshot_engine.protocol import Photo, TrainParams


def make_trainer(weights: Path, **overrides: str) -> FluxTrainer:
    settings = flux_settings(weights, **overrides)
    return FluxTrainer(settings, resolve_runtime(settings))


def params(output_dir: Path, photos: list[Photo] | None = None, **extra: object) -> TrainParams:
    return TrainParams(
        photos=tuple(photos or astronaut_photos()),
        output_dir=str(output_dir),
        trigger_word="ohwx",
        model_name="Test model",
        **extra,  # type: ignore[arg-type]
    )


def lora_tensors(path: Path) -> dict[str, torch.Tensor]:
    return load_file(str(path))


def test_trains_a_lora_and_writes_it_as_one_safetensors_file(flux_weights: Path, tmp_path: Path) -> None:
    job = Recorder()
    summary = make_trainer(flux_weights).train(job, params(tmp_path))

    # Progress: the preparation, then the steps, each with the loss, the time per step and an ETA.
    steps = [report["step"] for report in job.progress_reports]
    assert steps[0] == 0 and steps[-1] == 4 and steps == sorted(set(steps))
    assert {report["total"] for report in job.progress_reports} == {4}
    training = [report for report in job.progress_reports if report["step"] > 0]
    for report in training:
        assert {"loss", "loss_average", "seconds_per_step", "learning_rate"} <= report["metrics"].keys()
        assert report["metrics"]["loss"] > 0 and report["eta"] is not None and report["eta"] >= 0
    assert training[-1]["eta"] == 0

    # A checkpoint at step 2 (every 2, not at the end), then the model.
    assert [(a["kind"], a["meta"]) for a in job.artifacts] == [
        ("checkpoint", {"step": 2}),
        ("model", {"rank": 16, "steps": 4}),
    ]
    model = Path(job.of_kind("model")[0]["path"])
    assert model == tmp_path / "model.safetensors"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["checkpoint-000002.safetensors", "model.safetensors"]

    # diffusers' layout: transformer.* LoRA A and B matrices of rank 16 on the attention and MLP layers.
    tensors = lora_tensors(model)
    assert all(key.startswith("transformer.") for key in tensors)
    a_matrices = {k: v for k, v in tensors.items() if ".lora_A." in k}
    b_matrices = {k: v for k, v in tensors.items() if ".lora_B." in k}
    assert len(a_matrices) == len(b_matrices) > 0
    assert all(v.shape[0] == 16 for v in a_matrices.values()) and all(v.shape[1] == 16 for v in b_matrices.values())
    assert any("single_transformer_blocks.1.proj_mlp" in key for key in tensors)
    assert any("transformer_blocks.0.attn.add_q_proj" in key for key in tensors)
    # Trained: B is no longer zero.
    assert max(float(v.abs().max()) for v in b_matrices.values()) > 0

    with safe_open(str(model), framework="pt") as file:
        metadata = file.metadata()
    facts = json.loads(metadata[METADATA_KEY])
    assert facts | {"final_loss": 0, "engine_version": ""} == {
        "format": FORMAT,
        "format_version": 1,
        "engine_version": "",
        "base_model": base_model_fingerprint(flux_weights),
        "trigger_word": "ohwx",
        "model_name": "Test model",
        "rank": 16,
        "alpha": 16.0,
        "steps": 4,
        "resolution": 128,
        "photo_ids": ["astronaut", "astronaut-mirror", "astronaut-warm"],
        "final_loss": 0,
    }
    # diffusers' own adapter metadata (rank, alpha, targets), so any diffusers pipeline can load it.
    adapter = json.loads(metadata["lora_adapter_metadata"])
    assert adapter["transformer.r"] == 16 and adapter["transformer.lora_alpha"] == 16

    assert summary | {"seconds": 0, "final_loss": 0} == {
        "photos_used": 3,
        "photos_rejected": 0,
        "training_images": 6,
        "steps": 4,
        "resumed_from_step": None,
        "final_loss": 0,
        "gradient_checkpointing": False,
        "seconds": 0,
    }


def test_the_loss_falls_on_the_photos_it_trains_on(flux_weights: Path, tmp_path: Path) -> None:
    trainer = make_trainer(flux_weights, ENGINE_FLUX_LORA_STEPS="12", ENGINE_FLUX_LORA_LEARNING_RATE="0.005")
    crops = trainer._crops(Recorder(), params(tmp_path))
    run = TrainingRun(trainer, trainer._encode(crops), "fingerprint")
    draws = range(1, 13)  # each step's image, noise and timestep, held fixed

    def mean_loss() -> float:
        with torch.no_grad():
            return sum(float(run.loss(step)) for step in draws) / len(draws)

    before = mean_loss()
    for step in draws:
        run.step(step)
    after = mean_loss()
    assert after < 0.9 * before, (before, after)


def test_a_resumed_training_ends_with_the_lora_an_uninterrupted_one_makes(flux_weights: Path, tmp_path: Path) -> None:
    trainer = make_trainer(flux_weights)
    uninterrupted = tmp_path / "uninterrupted"
    trainer.train(Recorder(), params(uninterrupted))
    checkpoint = uninterrupted / "checkpoint-000002.safetensors"

    job = Recorder()
    summary = trainer.train(job, params(tmp_path / "resumed", resume_from=str(checkpoint)))
    assert summary["resumed_from_step"] == 2
    assert ("info", "resuming from the checkpoint of step 2") in job.logs
    # Only the steps after the checkpoint ran.
    assert next(report["step"] for report in job.progress_reports if report["step"] > 0) == 3
    resumed, expected = (
        lora_tensors(tmp_path / "resumed" / "model.safetensors"),
        lora_tensors(uninterrupted / "model.safetensors"),
    )
    assert resumed.keys() == expected.keys()
    for key, tensor in expected.items():
        torch.testing.assert_close(resumed[key], tensor, rtol=1e-5, atol=1e-6, msg=key)


def test_a_checkpoint_of_another_training_starts_afresh(flux_weights: Path, tmp_path: Path) -> None:
    trainer = make_trainer(flux_weights)
    trainer.train(Recorder(), params(tmp_path / "other", other_person_photos()))
    job = Recorder()
    summary = trainer.train(
        job, params(tmp_path / "mine", resume_from=str(tmp_path / "other" / "checkpoint-000002.safetensors"))
    )
    assert summary["resumed_from_step"] is None
    assert any(level == "warn" and "not of this training" in message for level, message in job.logs)
    # A missing checkpoint (purged meanwhile) is the same: a fresh start.
    summary = trainer.train(Recorder(), params(tmp_path / "again", resume_from=str(tmp_path / "gone.safetensors")))
    assert summary["resumed_from_step"] is None


def test_only_the_last_two_checkpoints_are_kept(flux_weights: Path, tmp_path: Path) -> None:
    job = Recorder()
    make_trainer(flux_weights, ENGINE_FLUX_LORA_STEPS="7", ENGINE_FLUX_LORA_CHECKPOINT_EVERY="2").train(
        job, params(tmp_path)
    )
    assert [a["meta"]["step"] for a in job.of_kind("checkpoint")] == [2, 4, 6]
    assert sorted(p.name for p in tmp_path.glob("checkpoint-*")) == [
        "checkpoint-000004.safetensors",
        "checkpoint-000006.safetensors",
    ]


def test_gradient_checkpointing_on_trains_the_same_lora(flux_weights: Path, tmp_path: Path) -> None:
    make_trainer(flux_weights).train(Recorder(), params(tmp_path / "plain"))
    summary = make_trainer(flux_weights, ENGINE_FLUX_GRADIENT_CHECKPOINTING="on").train(
        Recorder(), params(tmp_path / "checkpointed")
    )
    assert summary["gradient_checkpointing"] is True
    plain, checkpointed = (
        lora_tensors(tmp_path / "plain" / "model.safetensors"),
        lora_tensors(tmp_path / "checkpointed" / "model.safetensors"),
    )
    for key, tensor in plain.items():
        torch.testing.assert_close(checkpointed[key], tensor, rtol=1e-4, atol=1e-6, msg=key)


def test_a_cancel_stops_the_training_between_steps(flux_weights: Path, tmp_path: Path) -> None:
    job = Recorder(cancel_after=2)
    with pytest.raises(JobCancelled):
        make_trainer(flux_weights).train(job, params(tmp_path))
    assert [report["step"] for report in job.progress_reports] == [0, 1]
    assert not (tmp_path / "model.safetensors").exists()


def test_too_few_readable_photos_are_bad_input(flux_weights: Path, tmp_path: Path) -> None:
    trainer = make_trainer(flux_weights)
    with pytest.raises(BadInput, match="At least 3 photos"):
        trainer.train(Recorder(), params(tmp_path, astronaut_photos()[:2]))
    missing = Photo(id="gone", path=str(tmp_path / "gone.jpg"))
    with pytest.raises(BadInput, match="could not be read"):
        trainer.train(Recorder(), params(tmp_path, [*astronaut_photos(), missing]))
    # A restyle asks for one photo.
    summary = trainer.train(Recorder(), params(tmp_path / "one", astronaut_photos()[:1], min_usable_photos=1))
    assert summary["photos_used"] == 1
