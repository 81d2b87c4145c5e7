"""No invented pixels: the framing's rules for a photo that cut the head, a renderer that never
samples outside the photo, and no streaks in what it renders. The models are trained from the fixture photos,
cut in code so that the hair touches the photo's top edge (as in a close selfie)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from generate_support import FIXTURES, RecordingJob, build_model, generate_params, load_templates
from PIL import Image

from studioshot_engine.studio.generate import StudioGenerator
from studioshot_engine.studio.render.compose import render
from studioshot_engine.studio.render.framing import Unframeable, place, transform_points
from studioshot_engine.studio.render.look import from_studio, vary
from studioshot_engine.studio.render.model import StudioModel, load_model
from studioshot_engine.studio.render.streaks import find_streaks
from studioshot_engine.studio.render.subject import prepare

PHOTOS = ["astronaut", "astronaut-mirror", "astronaut-warm"]
# The eyebrows' top lies at least this far above the eyes' centres (eye distances) on any face.
EYEBROWS_AT_LEAST = 0.35
MAX_CROWN_CUT = 0.15


def cut_photos(directory: Path, top: float) -> Path:
    """The fixture photos with `top` of their height cut off."""
    directory.mkdir(parents=True, exist_ok=True)
    for name in PHOTOS:
        with Image.open(FIXTURES / f"{name}.jpg") as photo:
            width, height = photo.size
            photo.crop((0, round(top * height), width, height)).save(directory / f"{name}.jpg", quality=92)
    return directory


def train(directory: Path, photos: Path, trainer: Any) -> Path:
    import generate_support  # noqa: PLC0415

    saved = generate_support.FIXTURES
    generate_support.FIXTURES = photos
    try:
        return build_model(directory, trainer, PHOTOS)
    finally:
        generate_support.FIXTURES = saved


@pytest.fixture(scope="module")
def hair_at_top(tmp_path_factory: pytest.TempPathFactory, trainer: Any) -> Path:
    """A model whose photos' hair touches their top edge (the top 4% cut off)."""
    work = tmp_path_factory.mktemp("hair-at-top")
    return train(work / "model", cut_photos(work / "photos", 0.04), trainer)


@pytest.fixture(scope="module")
def templates() -> list[dict[str, Any]]:
    return load_templates()


# --- framing -------------------------------------------------------------------------------------


def test_a_cut_crown_loses_at_most_15_percent_and_never_the_eyebrows(
    hair_at_top: Path, templates: list[dict[str, Any]]
) -> None:
    model = load_model(str(hair_at_top))
    framed = unframeable = 0
    for index in range(model.count):
        subject = prepare(model.portrait(index))
        head = subject.chin_y - subject.crown_y
        strict = subject.cut_points[subject.cut_strict]
        assert len(strict), "the photo's top edge cuts the hair"
        for template in templates:
            for shot in range(4):
                look, _ = vary(from_studio(template["variants"][0]["studio"]), shot, np.random.default_rng(shot))
                try:
                    placement = place(subject, look, 1024)
                except Unframeable:
                    unframeable += 1
                    continue
                framed += 1
                frame_top = -placement.transform[1, 2] / placement.scale  # portrait px
                assert frame_top <= subject.crown_y + MAX_CROWN_CUT * head + 1e-6
                assert frame_top < subject.eye_mid[1] - EYEBROWS_AT_LEAST * subject.eye_distance
                assert placement.crown_cut <= MAX_CROWN_CUT + 1e-6
                # The photo's flat-cut top never shows: every such point lies outside the frame.
                shown = strict @ placement.transform[:, :2].T + placement.transform[:, 2]
                inside = (shown >= 0).all(axis=1) & (shown <= 1024).all(axis=1)
                assert not inside.any(), template["id"]
    assert framed > unframeable, (framed, unframeable)


def test_a_photo_cut_below_the_allowed_crown_cannot_be_framed(hair_at_top: Path) -> None:
    subject = prepare(load_model(str(hair_at_top)).portrait(0))
    head = subject.chin_y - subject.crown_y
    # The photo's edge moved down to 25% of the head below the crown.
    edge = subject.crown_y + 0.25 * head
    points = np.array([[x, edge] for x in np.linspace(subject.eye_mid[0] - 60, subject.eye_mid[0] + 60, 7)])
    deeper = dataclasses.replace(subject, cut_points=points, cut_strict=np.ones(len(points), bool))
    look = from_studio(load_templates()[0]["variants"][0]["studio"])
    with pytest.raises(Unframeable):
        place(deeper, look, 1024)


@pytest.fixture(scope="module")
def cut_at_the_chest(tmp_path_factory: pytest.TempPathFactory, trainer: Any) -> Path:
    """A model whose photos end higher on the chest (the bottom 15% cut off)."""
    work = tmp_path_factory.mktemp("cut-at-the-chest")
    directory = work / "photos"
    directory.mkdir(parents=True)
    for name in PHOTOS:
        with Image.open(FIXTURES / f"{name}.jpg") as photo:
            width, height = photo.size
            photo.crop((0, 0, width, round(0.85 * height))).save(directory / f"{name}.jpg", quality=92)
    return train(work / "model", directory, trainer)


def test_the_photo_bottom_edge_never_shows_as_a_fade_across_the_clothes(
    cut_at_the_chest: Path, templates: list[dict[str, Any]]
) -> None:
    """Where the photo ends below the chin, the frame ends first: a tighter crop (the crown cut
    within its limit), never a horizontal fade across the clothes."""
    model = load_model(str(cut_at_the_chest))
    for index in range(model.count):
        subject = prepare(model.portrait(index))
        soft = subject.cut_points[~subject.cut_strict]
        bottom = soft[soft[:, 1] > subject.chin_y]
        assert len(bottom), "the photo's bottom edge cuts the clothes"
        for template in templates:
            for shot in range(4):
                look, _ = vary(from_studio(template["variants"][0]["studio"]), shot, np.random.default_rng(shot))
                placement = place(subject, look, 1024)
                assert placement.crown_cut <= MAX_CROWN_CUT + 1e-6
                shown = transform_points(placement.transform, bottom)
                inside = (shown > 2).all(axis=1) & (shown < 1022).all(axis=1)
                assert not inside.any(), (template["id"], shot, placement.zoom)


# --- sampling ------------------------------------------------------------------------------------


def with_outside(model: StudioModel, index: int, value: int) -> StudioModel:
    """The model with portrait `index`'s pixels and matte outside the photo set to `value`."""
    portrait = model.portrait(index)
    assert portrait.valid is not None
    outside = portrait.valid < 128
    assert outside.any()
    rgb, matte = portrait.rgb.copy(), portrait.matte.copy()
    rgb[outside], matte[outside] = value, value
    changed = dataclasses.replace(portrait, rgb=rgb, matte=matte)
    return StudioModel(
        path=f"{model.path}#{value}",
        profile=model.profile,
        arrays=model.arrays,
        count=model.count,
        portraits={index: changed},
    )


def test_the_renderer_never_samples_outside_the_photo(hair_at_top: Path, templates: list[dict[str, Any]]) -> None:
    model = load_model(str(hair_at_top))
    black, white = with_outside(model, 0, 0), with_outside(model, 0, 255)
    for template in templates[::12]:
        look, variation = vary(from_studio(template["variants"][0]["studio"]), 0, np.random.default_rng(1))
        images = [
            render(m, 0, look, variation, 512, rng=np.random.default_rng(5), tighter=1.0).image for m in (black, white)
        ]
        assert np.array_equal(images[0], images[1]), template["id"]


def test_hair_at_the_top_edge_renders_without_streaks(
    hair_at_top: Path, templates: list[dict[str, Any]], tmp_path: Path
) -> None:
    for template in templates[::10]:
        out = tmp_path / template["id"]
        job = RecordingJob()
        StudioGenerator().generate(
            job, generate_params(hair_at_top, out, studio=template["variants"][0]["studio"], count=4, size=512)
        )
        images = [payload["path"] for payload in job.of_kind("artifact")]
        assert len(images) == 4
        for path in images:
            report = find_streaks(np.asarray(Image.open(path).convert("RGB")))
            assert not report.flagged, (template["id"], path, report.cover)


# --- what cannot be rendered clean is dropped, never written -------------------------------------


@pytest.fixture(scope="module")
def cut_above_the_brow(tmp_path_factory: pytest.TempPathFactory, trainer: Any) -> Path:
    """A model whose photos cut the head lower than a crop may (the top 8% cut off)."""
    work = tmp_path_factory.mktemp("cut-above-the-brow")
    return train(work / "model", cut_photos(work / "photos", 0.08), trainer)


def test_a_set_no_portrait_frames_is_dropped_whole(cut_above_the_brow: Path, tmp_path: Path) -> None:
    job = RecordingJob()
    params = generate_params(
        cut_above_the_brow, tmp_path, studio=load_templates()[0]["variants"][0]["studio"], size=512
    )
    summary = StudioGenerator().generate(job, params)
    assert summary["images"] == 0 and summary["dropped"] == 4
    assert job.of_kind("artifact") == []
    assert list(tmp_path.iterdir()) == []
    warnings = [payload for payload in job.of_kind("log") if payload["level"] == "warn"]
    assert len(warnings) == 4


def test_an_image_flagged_on_every_render_is_retried_then_dropped(hair_at_top: Path, tmp_path: Path) -> None:
    """ENGINE_FLAG_IMAGES (a development convenience) flags image 1 on every render: it is tried
    framed tighter and from every portrait, then dropped; the others are written as usual."""
    job = RecordingJob()
    params = generate_params(hair_at_top, tmp_path, studio=load_templates()[0]["variants"][0]["studio"], size=512)
    summary = StudioGenerator({"ENGINE_FLAG_IMAGES": "1"}).generate(job, params)
    assert summary["images"] == 3 and summary["dropped"] == 1
    assert sorted(payload["meta"]["index"] for payload in job.of_kind("artifact")) == [0, 2, 3]
    assert not (tmp_path / "image-1.jpg").exists()
    retries = [p["message"] for p in job.of_kind("log") if "image 1: flagged by ENGINE_FLAG_IMAGES" in p["message"]]
    assert len(retries) >= 2  # as framed, then tighter, and from the other portraits


def test_engine_flag_images_reads_indices_and_refuses_anything_else() -> None:
    from studioshot_engine.studio.generate import flagged_by_setting  # noqa: PLC0415

    assert flagged_by_setting({}) == frozenset()
    assert flagged_by_setting({"ENGINE_FLAG_IMAGES": " 0, 3 "}) == {0, 3}
    with pytest.raises(ValueError, match="ENGINE_FLAG_IMAGES"):
        flagged_by_setting({"ENGINE_FLAG_IMAGES": "all"})
