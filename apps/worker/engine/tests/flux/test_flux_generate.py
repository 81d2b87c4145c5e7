"""The flux generation, in process, on the tiny random-weight pipeline: the warm pipeline, a LoRA per
job swapped in place, the base model alone, seeds, cancel, and refusals."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
import torch
from flux_support import Recorder, astronaut_photos, flux_settings, other_person_photos
from PIL import Image
from safetensors.torch import load_file

from studioshot_engine.flux.fp8 import fp8_supported, merge_lora, quantize_transformer
from studioshot_engine.flux.generate import FluxGenerator, seed_for_image
from studioshot_engine.flux.lora import read_facts
from studioshot_engine.flux.settings import load_settings
from studioshot_engine.flux.speed import compile_blocks, compile_enabled
from studioshot_engine.flux.training import FluxTrainer
from studioshot_engine.flux.weights import Runtime, load_pipeline, resolve_runtime
from studioshot_engine.jobs import BadInput, JobCancelled
from studioshot_engine.protocol import GenerateParams, TrainParams

# LoRAs trained hard enough (a high learning rate) to change the tiny model's images visibly.
LORA_SETTINGS = {"ENGINE_FLUX_LORA_STEPS": "8", "ENGINE_FLUX_LORA_LEARNING_RATE": "0.02"}


@pytest.fixture(scope="module")
def loras(flux_weights: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two users' LoRAs: the astronaut's and another person's."""
    settings = flux_settings(flux_weights, **LORA_SETTINGS)
    trainer = FluxTrainer(settings, resolve_runtime(settings))
    made = {}
    for user, photos in (("astronaut", astronaut_photos()), ("other", other_person_photos())):
        output = tmp_path_factory.mktemp(user)
        trainer.train(
            Recorder(),
            TrainParams(photos=tuple(photos), output_dir=str(output), trigger_word="ohwx", model_name=user),
        )
        made[user] = output / "model.safetensors"
    return made


def make_generator(weights: Path, **overrides: str) -> FluxGenerator:
    settings = flux_settings(weights, **overrides)
    return FluxGenerator(settings, resolve_runtime(settings))


@pytest.fixture(scope="module")
def generator(flux_weights: Path) -> FluxGenerator:
    """One warm generator for the module, as a worker's session keeps one."""
    return make_generator(flux_weights)


def request(output_dir: Path, model: Path | None, **changes: object) -> GenerateParams:
    fields: dict[str, object] = {
        "model_path": None if model is None else str(model),
        "prompt": "a professional headshot of ohwx",
        "template": None,
        "seed": 7,
        "count": 4,
        "size": 256,
        "output_dir": str(output_dir),
        **changes,
    }
    return GenerateParams(**fields)  # type: ignore[arg-type]


def images_of(job: Recorder) -> list[bytes]:
    return [Path(artifact["path"]).read_bytes() for artifact in job.of_kind("image")]


def pixels(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), dtype=np.float32)


def test_generates_four_seeded_images_with_their_facts(
    generator: FluxGenerator, loras: dict[str, Path], tmp_path: Path
) -> None:
    job = Recorder()
    summary = generator.generate(job, request(tmp_path, loras["astronaut"]))
    images = job.of_kind("image")
    assert [image["path"] for image in images] == [str(tmp_path / f"image-{index}.jpg") for index in range(4)]
    for index, image in enumerate(images):
        assert image["meta"] == {
            "index": index,
            "seed": seed_for_image(7, index),
            "width": 256,
            "height": 256,
            "steps": 2,
            "guidance_scale": 2.5,
        }
        with Image.open(image["path"]) as decoded:
            assert (decoded.format, decoded.size, decoded.mode) == ("JPEG", (256, 256), "RGB")
    assert len({image["meta"]["seed"] for image in images}) == 4
    assert len(set(images_of(job))) == 4, "each image its own noise"
    # Progress: loaded (0), each denoising step, each image saved; every report has metrics and an ETA.
    assert [report["step"] for report in job.progress_reports] == list(range(7))
    assert {report["total"] for report in job.progress_reports} == {6}
    assert all(report["metrics"] and report["eta"] is not None for report in job.progress_reports)
    assert "lora_swap_seconds" in job.progress_reports[0]["metrics"]
    assert summary | {"lora_swap_seconds": 0, "seconds_per_step": 0, "seconds": 0} == {
        "images": 4,
        "seed": 7,
        "size": 256,
        "steps": 2,
        "guidance_scale": 2.5,
        "lora": True,
        "lora_swap_seconds": 0,
        "seconds_per_step": 0,
        "seconds": 0,
    }


def test_the_same_request_gives_the_same_images_and_the_request_steps_and_guidance_count(
    generator: FluxGenerator, loras: dict[str, Path], tmp_path: Path
) -> None:
    first, again, other = Recorder(), Recorder(), Recorder()
    generator.generate(first, request(tmp_path / "first", loras["astronaut"], count=2))
    generator.generate(again, request(tmp_path / "again", loras["astronaut"], count=2))
    assert images_of(first) == images_of(again)
    summary = generator.generate(
        other, request(tmp_path / "other", loras["astronaut"], count=2, steps=3, guidance_scale=4.0)
    )
    assert (summary["steps"], summary["guidance_scale"]) == (3, 4.0)
    assert images_of(other) != images_of(first)
    assert len(other.progress_reports) == 1 + 3 + 2


def test_the_lora_changes_the_images_and_the_base_model_generates_without_one(
    generator: FluxGenerator, loras: dict[str, Path], tmp_path: Path
) -> None:
    with_lora, base = Recorder(), Recorder()
    generator.generate(with_lora, request(tmp_path / "lora", loras["astronaut"]))
    summary = generator.generate(base, request(tmp_path / "base", None))
    assert summary["lora"] is False
    differences = [
        float(np.abs(pixels(a) - pixels(b)).mean()) for a, b in zip(images_of(with_lora), images_of(base), strict=True)
    ]
    assert min(differences) > 1.0, differences


def test_swapping_users_gives_each_the_images_a_fresh_process_would(
    generator: FluxGenerator, flux_weights: Path, loras: dict[str, Path], tmp_path: Path
) -> None:
    astronaut, other, astronaut_again, base = Recorder(), Recorder(), Recorder(), Recorder()
    generator.generate(astronaut, request(tmp_path / "a", loras["astronaut"]))
    generator.generate(other, request(tmp_path / "b", loras["other"]))
    generator.generate(base, request(tmp_path / "base", None))
    generator.generate(astronaut_again, request(tmp_path / "a2", loras["astronaut"]))
    assert images_of(other) != images_of(astronaut)
    assert images_of(astronaut_again) == images_of(astronaut), "nothing of the other user's LoRA is left"
    # A swap copies weights into the loaded adapter: well under the 1 s budget here.
    assert other.progress_reports[0]["metrics"]["lora_swap_seconds"] < 1.0
    fresh = Recorder()
    make_generator(flux_weights).generate(fresh, request(tmp_path / "fresh", loras["other"]))
    assert images_of(fresh) == images_of(other)
    fresh_base = Recorder()
    make_generator(flux_weights).generate(fresh_base, request(tmp_path / "fresh-base", None))
    assert images_of(fresh_base) == images_of(base)


def test_a_cancel_stops_the_generation_between_denoising_steps(
    generator: FluxGenerator, loras: dict[str, Path], tmp_path: Path
) -> None:
    job = Recorder(cancel_after=2)
    with pytest.raises(JobCancelled):
        generator.generate(job, request(tmp_path / "cancelled", loras["astronaut"], steps=10))
    assert [report["step"] for report in job.progress_reports] == [0, 1]
    assert job.of_kind("image") == []
    # The warm pipeline goes on serving.
    after = Recorder()
    generator.generate(after, request(tmp_path / "after", loras["other"], count=1))
    assert len(after.of_kind("image")) == 1


def test_a_side_that_is_not_a_multiple_of_16_is_delivered_at_its_size(generator: FluxGenerator, tmp_path: Path) -> None:
    job = Recorder()
    generator.generate(job, request(tmp_path, None, count=1, size=264))
    with Image.open(job.of_kind("image")[0]["path"]) as image:
        assert image.size == (264, 264)


def test_a_model_that_is_not_a_flux_lora_is_bad_input(generator: FluxGenerator, tmp_path: Path) -> None:
    studio_model = tmp_path / "model.npz"
    studio_model.write_bytes(b"PK\x03\x04 not a safetensors file")
    for model in (studio_model, tmp_path / "missing.safetensors"):
        with pytest.raises(BadInput, match="cannot be read by the flux engine"):
            generator.generate(Recorder(), request(tmp_path / "out", model))


def test_the_step_cache_setting_generates_with_diffusers_first_block_cache(flux_weights: Path, tmp_path: Path) -> None:
    job = Recorder()
    make_generator(flux_weights, ENGINE_FLUX_STEP_CACHE="0.5", ENGINE_FLUX_STEPS="4").generate(
        job, request(tmp_path, None, count=1)
    )
    assert any("first-block step cache on" in message for _, message in job.logs)
    assert len(job.of_kind("image")) == 1


def test_fp8_merges_each_users_lora_into_the_quantized_layers_without_drift(
    flux_weights: Path, loras: dict[str, Path]
) -> None:
    """ENGINE_FLUX_FP8's weights (fp8 tensor cores are GPU-only; the weights' arithmetic is not): a
    LoRA merged into a layer gives master + alpha/rank * B @ A to fp8's precision, and going back to
    the base model after any number of users gives the very bytes the first quantization did."""

    settings = flux_settings(flux_weights)
    transformer = load_pipeline(settings, resolve_runtime(settings)).transformer
    layers = quantize_transformer(transformer)
    quantized = {name: module for name, module in transformer.named_modules() if hasattr(module, "weight_fp8")}
    assert layers == len(quantized) > 0
    initial = {name: module.weight_fp8.clone() for name, module in quantized.items()}

    def dequantized(module: torch.nn.Module) -> torch.Tensor:
        return module.weight_fp8.float() * module.weight_scale.t()

    facts = read_facts(str(loras["astronaut"]))
    scale = facts["alpha"] / facts["rank"]
    assert merge_lora(transformer, str(loras["astronaut"]), scale) == layers
    tensors = load_file(str(loras["astronaut"]))
    for name, module in quantized.items():
        down, up = tensors[f"transformer.{name}.lora_A.weight"], tensors[f"transformer.{name}.lora_B.weight"]
        # The LoRA file is read onto the CPU; the layers are on the runtime's device.
        expected = module.master.float() + scale * (up.float() @ down.float()).to(module.master.device)
        error = (dequantized(module) - expected).norm() / expected.norm()
        assert error < 0.05, f"{name}: {error:.3f}"
    # The LoRA moved the weights: the merge is not a no-op.
    assert any(not torch.equal(initial[name], module.weight_fp8) for name, module in quantized.items())

    merge_lora(transformer, str(loras["other"]), scale)
    merge_lora(transformer, str(loras["astronaut"]), scale)
    assert merge_lora(transformer, None, 0.0) == 0
    for name, module in quantized.items():
        assert torch.equal(module.weight_fp8.view(torch.uint8), initial[name].view(torch.uint8)), name


def test_fp8_on_a_machine_without_fp8_tensor_cores_says_so_and_generates_in_full_precision(
    flux_weights: Path, loras: dict[str, Path], tmp_path: Path
) -> None:
    # The CPU is such a machine on every host, a GPU one included.
    job = Recorder()
    generator = make_generator(flux_weights, ENGINE_FLUX_FP8="on", ENGINE_FLUX_DEVICE="cpu")
    plain = Recorder()
    make_generator(flux_weights, ENGINE_FLUX_DEVICE="cpu").generate(
        plain, request(tmp_path / "plain", loras["astronaut"], count=1)
    )
    generator.generate(job, request(tmp_path / "fp8", loras["astronaut"], count=1))
    assert any("needs a GPU with fp8 tensor cores" in message for _, message in job.logs)
    assert images_of(job) == images_of(plain)


# --- Compilation and the GPU's own paths ---------------------------------------------------------
# The engines every other test starts never compile (ENGINE_FLUX_COMPILE=off in the fast settings):
# compiling takes minutes on a GPU. Compilation is tested here, on its own.


def test_compilation_is_on_by_default_on_a_gpu_only() -> None:

    gpu = Runtime(device=torch.device("cuda"), dtype=torch.bfloat16)
    cpu = Runtime(device=torch.device("cpu"), dtype=torch.float32)
    switch = {value: load_settings({"ENGINE_FLUX_COMPILE": value}) for value in ("auto", "on", "off")}
    assert [compile_enabled(switch[value], gpu) for value in ("auto", "on", "off")] == [True, True, False]
    assert [compile_enabled(switch[value], cpu) for value in ("auto", "on", "off")] == [False, True, False]


def test_compiled_blocks_trace_whole_and_generate_the_images_uncompiled_ones_do(
    flux_weights: Path, loras: dict[str, Path], tmp_path: Path
) -> None:
    """What compiling does before Inductor, on any machine: dynamo traces each repeated block
    whole (a graph break fails, as with Inductor in production), with the LoRA slot in place and
    swapped between users. Dynamo's "eager" backend then runs the traced graphs as they are."""

    plain = make_generator(flux_weights)
    compiled = make_generator(flux_weights, ENGINE_FLUX_COMPILE_CACHE_DIR=str(tmp_path / "cache"))
    # As in production: compiled once loaded, before the first LoRA takes the slot.
    compile_blocks(compiled._pipeline(Recorder()), compiled.settings, backend="eager")
    for user, model in (("astronaut", loras["astronaut"]), ("other", loras["other"]), ("base", None)):
        expected, got = Recorder(), Recorder()
        plain.generate(expected, request(tmp_path / f"plain-{user}", model, count=2, size=128))
        compiled.generate(got, request(tmp_path / f"compiled-{user}", model, count=2, size=128))
        for want, have in zip(images_of(expected), images_of(got), strict=True):
            assert np.abs(pixels(want) - pixels(have)).max() <= 1, user


@pytest.mark.cuda
@pytest.mark.compile
def test_on_a_gpu_the_compiled_engine_generates_what_the_uncompiled_one_does(
    flux_weights: Path, loras: dict[str, Path], tmp_path: Path
) -> None:
    """The product's compilation (Inductor, dynamic shapes), across LoRA swaps and two sizes."""
    plain = make_generator(flux_weights)
    compiled = make_generator(
        flux_weights, ENGINE_FLUX_COMPILE="on", ENGINE_FLUX_COMPILE_CACHE_DIR=str(tmp_path / "cache")
    )
    for user, model, size in (
        ("astronaut", loras["astronaut"], 128),
        ("other", loras["other"], 256),
        ("base", None, 128),
    ):
        expected, got = Recorder(), Recorder()
        plain.generate(expected, request(tmp_path / f"plain-{user}", model, count=2, size=size))
        compiled.generate(got, request(tmp_path / f"compiled-{user}", model, count=2, size=size))
        if user == "astronaut":
            assert any("transformer blocks compiled" in message for _, message in got.logs)
        for want, have in zip(images_of(expected), images_of(got), strict=True):
            # Inductor's fused kernels round differently from eager bf16: close, not equal.
            assert np.abs(pixels(want) - pixels(have)).mean() < 4, user


@pytest.mark.cuda
def test_on_a_gpu_with_fp8_tensor_cores_fp8_generates_close_to_bf16(
    flux_weights: Path, loras: dict[str, Path], tmp_path: Path
) -> None:

    if not fp8_supported(torch.device("cuda")):
        pytest.skip(f"needs fp8 tensor cores: {torch.cuda.get_device_name()} has none")
    plain, job = Recorder(), Recorder()
    make_generator(flux_weights).generate(plain, request(tmp_path / "plain", loras["astronaut"], count=1))
    make_generator(flux_weights, ENGINE_FLUX_FP8="on").generate(
        job, request(tmp_path / "fp8", loras["astronaut"], count=1)
    )
    assert any(message.startswith("fp8 on:") for _, message in job.logs)
    difference = np.abs(pixels(images_of(job)[0]) - pixels(images_of(plain)[0])).mean()
    assert 0 < difference < 12, difference
