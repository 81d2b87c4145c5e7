"""The studio generation, in process, on a model trained from the fixture photos: the images and
what is reported about them, determinism, variety within a generation, distinct templates, the
model cache, bad input and cancel."""

from __future__ import annotations

import itertools
import json
import os
import shutil
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from generate_support import RecordingJob, build_model, downgrade_to_format_one, generate_params, load_templates
from PIL import Image

from studioshot_engine.jobs import BadInput, JobCancelled
from studioshot_engine.studio.generate import StudioGenerator, seed_for_image
from studioshot_engine.studio.render import model as model_cache
from studioshot_engine.studio.render.compose import render
from studioshot_engine.studio.render.look import from_prompt, from_studio, vary
from studioshot_engine.studio.render.model import load_model
from studioshot_engine.studio.render.ssim import image_ssim

# Within a generation every pair of images is a different shot (SSIM on 256 px greyscale copies).
MAX_PAIR_SSIM = 0.85
# Two template variants are told apart when, on 64 px copies, 5% of the picture differs by at least
# this many 8-bit levels (the 95th percentile of the per-pixel largest channel difference). JPEG at
# quality 92 and the grain move a 64 px copy by 1 level there; 4 is a change a viewer sees side by
# side (a rim light, a warmer grade, the key on the other side), not noise.
MIN_VARIANT_DIFFERENCE = 4.0


def read_rgb(path: str | Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"))


@pytest.fixture(scope="module")
def model_path(tmp_path_factory: pytest.TempPathFactory, trainer: Any) -> Path:
    return build_model(tmp_path_factory.mktemp("model"), trainer)


@pytest.fixture(scope="module")
def templates() -> list[dict[str, Any]]:
    return load_templates()


def studio_of(templates: list[dict[str, Any]], template_id: str, variant: int = 0) -> dict[str, Any]:
    template = next(t for t in templates if t["id"] == template_id)
    studio: dict[str, Any] = template["variants"][variant]["studio"]
    return studio


@pytest.fixture(scope="module")
def four(
    model_path: Path, templates: list[dict[str, Any]], tmp_path_factory: pytest.TempPathFactory
) -> tuple[RecordingJob, dict[str, Any], Path]:
    """One generation of 4 images at the product's size, shared by the tests that only read it."""
    out = tmp_path_factory.mktemp("four")
    job = RecordingJob()
    params = generate_params(model_path, out, studio=studio_of(templates, "prof_3"), template_id="prof_3", seed=42)
    summary = StudioGenerator().generate(job, params)
    return job, summary, out


def test_writes_count_square_jpegs_without_metadata(four: tuple[RecordingJob, dict[str, Any], Path]) -> None:
    _, _, out = four
    assert sorted(os.listdir(out)) == [f"image-{k}.jpg" for k in range(4)]  # nothing .partial left
    for k in range(4):
        with Image.open(out / f"image-{k}.jpg") as image:
            assert image.format == "JPEG"
            assert image.mode == "RGB"
            assert image.size == (1024, 1024)
            assert "exif" not in image.info and "icc_profile" not in image.info
            assert not image.getexif()


def test_reports_each_image_with_its_facts_and_progress(four: tuple[RecordingJob, dict[str, Any], Path]) -> None:
    job, summary, out = four
    artifacts = job.of_kind("artifact")
    assert [a["path"] for a in artifacts] == [str(out / f"image-{k}.jpg") for k in range(4)]
    assert {a["kind"] for a in artifacts} == {"image"}
    for k, artifact in enumerate(artifacts):
        meta = artifact["meta"]
        assert set(meta) == {"index", "reference", "face_box", "seed", "width", "height"}
        assert meta["index"] == k and meta["width"] == meta["height"] == 1024
        assert meta["seed"] == seed_for_image(42, k)
        x, y, w, h = meta["face_box"]
        assert 0 < w < 1024 and 0 < h < 1024 and 0 <= x + w / 2 <= 1024 and 0 <= y + h / 2 <= 1024
    # Image k uses portrait k (best first), cycling when there are fewer.
    assert [a["meta"]["reference"] for a in artifacts] == [0, 1, 2, 3]
    progress = job.of_kind("progress")
    assert [p["step"] for p in progress] == [0, 1, 2, 3, 4]
    assert {p["total"] for p in progress} == {4}
    assert progress[-1]["eta_seconds"] == 0
    assert all(p["eta_seconds"] is not None and p["eta_seconds"] >= 0 for p in progress)
    assert all(p["metrics"]["seconds_per_image"] > 0 for p in progress[1:])
    assert set(summary) == {"images", "template_id", "variant", "seed", "size", "dropped", "seconds"}
    assert summary["images"] == 4 and summary["dropped"] == 0
    assert summary["images"] == 4 and summary["template_id"] == "prof_3" and summary["variant"] == 0
    assert summary["seed"] == 42 and summary["size"] == 1024 and summary["seconds"] > 0
    json.dumps(summary)  # goes on the pipe as it is


def test_the_four_images_are_four_different_shots(four: tuple[RecordingJob, dict[str, Any], Path]) -> None:
    _, _, out = four
    images = [read_rgb(out / f"image-{k}.jpg") for k in range(4)]
    for a, b in itertools.combinations(range(4), 2):
        assert image_ssim(images[a], images[b]) < MAX_PAIR_SSIM, (a, b)


@pytest.mark.parametrize("template_id", ["prof_53", "prof_56", "prof_6"])
def test_shots_differ_on_plain_backdrops_too(
    model_path: Path, templates: list[dict[str, Any]], tmp_path: Path, template_id: str
) -> None:
    """The plainest backdrops (white and black paper, a smooth gradient) leave it all to the person."""
    params = generate_params(model_path, tmp_path, studio=studio_of(templates, template_id), size=512, seed=3)
    StudioGenerator().generate(RecordingJob(), params)
    images = [read_rgb(tmp_path / f"image-{k}.jpg") for k in range(4)]
    for a, b in itertools.combinations(range(4), 2):
        assert image_ssim(images[a], images[b]) < MAX_PAIR_SSIM, (template_id, a, b)


def test_same_seed_same_bytes_other_seed_other_bytes(
    model_path: Path, templates: list[dict[str, Any]], tmp_path: Path
) -> None:
    studio = studio_of(templates, "prof_10")  # bokeh: the most random backdrop

    def run(name: str, seed: int) -> list[bytes]:
        out = tmp_path / name
        StudioGenerator().generate(
            RecordingJob(), generate_params(model_path, out, studio=studio, size=384, count=2, seed=seed)
        )
        return [(out / f"image-{k}.jpg").read_bytes() for k in range(2)]

    first = run("first", 5)
    model_cache.clear_cache()  # a cold engine renders the same bytes as a warm one
    assert run("again", 5) == first
    other = run("other", 6)
    assert all(a != b for a, b in zip(first, other, strict=True))


def test_every_template_variant_looks_different(model_path: Path, templates: list[dict[str, Any]]) -> None:
    """Every template x variant rendered small with the same seed and reference: each pair differs."""
    model = load_model(str(model_path))
    names, copies = [], []
    for template in templates:
        for index, variant in enumerate(template["variants"]):
            rng = np.random.default_rng(11)
            look, variation = vary(from_studio(variant["studio"]), 0, rng)
            image = render(model, 0, look, variation, 256, rng=rng).image
            copies.append(cv2.resize(image, (64, 64), interpolation=cv2.INTER_AREA).astype(np.int16))
            names.append(f"{template['id']} variant {index} ({variant['name']})")
    assert len(names) >= 2
    stack = np.stack(copies).reshape(len(copies), -1, 3)
    closest = (np.inf, "")
    for i in range(len(stack) - 1):
        difference = np.abs(stack[i + 1 :] - stack[i]).max(axis=2)
        p95 = np.percentile(difference, 95, axis=1)
        j = int(np.argmin(p95))
        if p95[j] < closest[0]:
            closest = (float(p95[j]), f"{names[i]} and {names[i + 1 + j]}")
    assert closest[0] >= MIN_VARIANT_DIFFERENCE, f"{closest[1]} differ by only {closest[0]} levels"


def test_a_prompt_without_template_reads_its_words() -> None:
    plain = from_prompt("professional headshot of ohwx person")
    assert plain.backdrop == "seamless" and plain.monochrome == 0
    assert from_prompt("ohwx person in a modern office, natural light").backdrop == "office"
    assert from_prompt("ohwx person outdoors in a park").backdrop == "bokeh"
    assert from_prompt("creative portrait of ohwx person").backdrop == "textured"
    assert from_prompt("black and white portrait of ohwx person").monochrome == 1
    warm, dark = from_prompt("warm golden portrait"), from_prompt("dark moody executive portrait")
    assert warm.temperature > plain.temperature
    assert dark.fill_ratio < plain.fill_ratio and dark.key_strength > plain.key_strength
    assert from_prompt("headshot on a navy background").colors[0] == pytest.approx((0x2A / 255, 0x3A / 255, 0x5C / 255))


def test_a_prompt_without_template_generates(model_path: Path, tmp_path: Path) -> None:
    job = RecordingJob()
    params = generate_params(
        model_path, tmp_path, prompt="ohwx person, black and white, dark studio", size=256, count=1
    )
    summary = StudioGenerator().generate(job, params)
    assert summary["template_id"] is None and summary["variant"] is None
    image = read_rgb(tmp_path / "image-0.jpg").astype(np.int16)
    assert np.abs(image[..., 0] - image[..., 2]).mean() < 3  # black and white


def test_refuses_a_format_one_model(model_path: Path, tmp_path: Path) -> None:
    old = downgrade_to_format_one(model_path, tmp_path / "old.npz")
    with pytest.raises(BadInput) as raised:
        StudioGenerator().generate(RecordingJob(), generate_params(old, tmp_path / "out", size=256, count=1))
    assert str(raised.value) == "This model was trained before generation existed: retrain it to generate headshots."
    assert not (tmp_path / "out").exists()


def test_refuses_a_missing_or_broken_model(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="retrain"):
        StudioGenerator().generate(
            RecordingJob(), generate_params(tmp_path / "nothing.npz", tmp_path, size=256, count=1)
        )
    (tmp_path / "broken.npz").write_bytes(b"not a zip")
    with pytest.raises(BadInput, match="retrain"):
        StudioGenerator().generate(
            RecordingJob(), generate_params(tmp_path / "broken.npz", tmp_path, size=256, count=1)
        )


def test_cancel_stops_between_images(model_path: Path, tmp_path: Path) -> None:
    job = RecordingJob(cancel_after_images=1)
    with pytest.raises(JobCancelled):
        StudioGenerator().generate(job, generate_params(model_path, tmp_path, size=256, count=4))
    assert os.listdir(tmp_path) == ["image-0.jpg"]
    assert [p["step"] for p in job.of_kind("progress")] == [0]  # none after the cancel
    assert len(job.of_kind("artifact")) == 1


def test_the_model_cache_keeps_two_and_rereads_a_changed_file(model_path: Path, tmp_path: Path) -> None:
    model_cache.clear_cache()
    copies = []
    for name in ("a", "b", "c"):
        copies.append(tmp_path / f"{name}.npz")
        shutil.copyfile(model_path, copies[-1])
    first = load_model(str(copies[0]))
    assert load_model(str(copies[0])) is first
    load_model(str(copies[1]))
    load_model(str(copies[2]))
    assert model_cache.cached_paths() == [os.path.realpath(copies[1]), os.path.realpath(copies[2])]
    second = load_model(str(copies[1]))
    stat = os.stat(copies[1])
    os.utime(copies[1], ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert load_model(str(copies[1])) is not second
