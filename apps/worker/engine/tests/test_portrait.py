"""Model format 2: head-and-shoulders portraits from the originals, their person mattes, the face
descriptors, and telling a format-1 model apart. Generation reads nothing but this file."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from harness import FIXTURES, RecordingJob, fixture_photo, train_params, write_format_one_model
from PIL import Image

from studioshot_engine.protocol import Photo
from studioshot_engine.studio.artifact import (
    FORMAT_ONE_MESSAGE,
    can_generate,
    read_format_version,
    read_model,
    unpack,
)
from studioshot_engine.studio.portrait import PORTRAIT_EYE_DISTANCE, PORTRAIT_EYE_Y, PORTRAIT_SIZE, cut_portrait
from studioshot_engine.studio.training import StudioTrainer

P = PORTRAIT_SIZE
NAMES = ["astronaut", "astronaut-mirror", "astronaut-warm", "astronaut-tilted", "astronaut-closer"]
EIGHT = [
    "astronaut",
    "astronaut-mirror",
    "astronaut-warm",
    "astronaut-tilted",
    "astronaut-closer",
    "astronaut-low-quality",
    "astronaut-exif-rotated",
    "blurred",
    "astronaut",
]


def descriptor_of(name: str) -> tuple[float, ...]:
    """A made-up but distinct descriptor per photo name."""
    seed = sum(map(ord, name))
    return tuple(float(x) for x in np.random.default_rng(seed).normal(0, 0.1, 128).astype(np.float32))


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, np.ndarray], dict[str, Any], Path]:
    out = tmp_path_factory.mktemp("format-2")
    photos = [
        fixture_photo(name, descriptor=None if name == "astronaut-warm" else descriptor_of(name)) for name in NAMES
    ]
    StudioTrainer().train(RecordingJob(), train_params(photos, out))
    arrays, profile = read_model(str(out / "model.npz"))
    return arrays, profile, out / "model.npz"


def portrait(arrays: dict[str, np.ndarray], index: int) -> np.ndarray:
    data = unpack(arrays["portraits_jpeg"], arrays["portraits_offsets"], index)
    assert data[:2] == b"\xff\xd8", "a JPEG"
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert decoded is not None
    rgb: np.ndarray = cv2.cvtColor(decoded, cv2.COLOR_BGR2RGB)
    return rgb


def matte(arrays: dict[str, np.ndarray], index: int) -> np.ndarray:
    data = unpack(arrays["portrait_mattes_png"], arrays["portrait_mattes_offsets"], index)
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "a PNG"
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    assert decoded is not None and decoded.dtype == np.uint8 and decoded.ndim == 2, "8-bit greyscale"
    return decoded


def test_format_two_keeps_format_one_and_adds_the_portraits(
    model: tuple[dict[str, np.ndarray], dict[str, Any], Path],
) -> None:
    arrays, profile, _ = model
    n = len(NAMES)
    assert profile["format_version"] == 2 and profile["portrait_size"] == P >= 1280
    assert profile["portrait_framing"] == {"eye_line": PORTRAIT_EYE_Y, "eye_distance": PORTRAIT_EYE_DISTANCE}
    shapes = {name: (array.shape, array.dtype.name) for name, array in arrays.items()}
    assert shapes["faces"] == ((n, 512, 512, 3), "uint8") and shapes["mattes"] == ((n, 512, 512), "uint8")
    for key in ("portraits_offsets", "portrait_mattes_offsets"):
        assert shapes[key] == ((n + 1,), "int64")
        assert arrays[key][0] == 0 and np.all(np.diff(arrays[key]) > 0)
    assert arrays["portraits_offsets"][-1] == len(arrays["portraits_jpeg"])
    assert arrays["portrait_mattes_offsets"][-1] == len(arrays["portrait_mattes_png"])
    assert arrays["portraits_jpeg"].dtype == np.uint8 and arrays["portraits_jpeg"].ndim == 1
    assert arrays["portrait_mattes_png"].dtype == np.uint8 and arrays["portrait_mattes_png"].ndim == 1
    assert shapes["portrait_valid"] == ((n, P, P), "bool")
    assert shapes["portrait_eyes"] == ((n, 2, 2), "float32")
    assert shapes["portrait_face_boxes"] == ((n, 4), "float32")
    assert shapes["portrait_transforms"] == ((n, 2, 3), "float64")
    assert shapes["descriptors"] == ((n, 128), "float32") and shapes["descriptor_present"] == ((n,), "bool")
    for index in range(n):
        assert portrait(arrays, index).shape == (P, P, 3) and matte(arrays, index).shape == (P, P)
    for face in profile["faces"]:
        assert face["portrait"]["source"] == "original" and face["portrait"]["matte"] == "segmentation"
        assert face["portrait"]["scale"] > 1, "the 512 px fixtures are enlarged"


def test_portraits_frame_the_eyes_and_shoulders(model: tuple[dict[str, np.ndarray], dict[str, Any], Path]) -> None:
    arrays, _, _ = model
    for index, (eyes, box) in enumerate(zip(arrays["portrait_eyes"], arrays["portrait_face_boxes"], strict=True)):
        middle = eyes.mean(axis=0)
        assert middle == pytest.approx([P / 2, PORTRAIT_EYE_Y * P], abs=0.5)
        assert np.linalg.norm(eyes[1] - eyes[0]) == pytest.approx(PORTRAIT_EYE_DISTANCE * P, abs=0.5)
        assert eyes[0, 0] < eyes[1, 0], "left eye on the left"
        x, y, w, h = box
        assert x < eyes[0, 0] < eyes[1, 0] < x + w and y < middle[1] < y + h
        person = matte(arrays, index) > 127
        # Head and shoulders: the person fills the bottom rows across most of the width, hair reaches
        # well above the eyes, and the top corners are background.
        assert person[-4:].mean() > 0.6
        assert person[: round(0.25 * P)].any() and not person[:80, :80].any() and not person[:80, -80:].any()
        assert person[round(middle[1]), round(middle[0])]


def test_a_portrait_is_the_original_through_its_transform(
    model: tuple[dict[str, np.ndarray], dict[str, Any], Path],
) -> None:
    arrays, profile, _ = model
    index = [face["photo_id"] for face in profile["faces"]].index("astronaut-closer")
    original = np.asarray(Image.open(FIXTURES / "astronaut-closer.jpg").convert("RGB"))
    again = cv2.warpAffine(
        original, arrays["portrait_transforms"][index], (P, P), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_CONSTANT
    )
    assert np.abs(again.astype(int) - portrait(arrays, index).astype(int)).mean() < 2.5


def test_outside_the_photo_the_portrait_is_black_and_the_matte_is_empty(
    model: tuple[dict[str, np.ndarray], dict[str, Any], Path],
) -> None:
    arrays, profile, _ = model
    index = [face["photo_id"] for face in profile["faces"]].index("astronaut")
    valid = arrays["portrait_valid"][index]
    # The astronaut's hair nearly touches the top of the photo: the window starts above it.
    assert not valid[0].any() and valid[-1].all() and 0.8 < valid.mean() < 1
    top = int(np.argmax(valid[:, P // 2]))
    image = portrait(arrays, index).astype(int)
    assert image[: top - 8].max() < 8, "nothing of the photo is stretched past its edge"
    assert matte(arrays, index)[~valid].max() == 0


def test_descriptors_follow_the_faces(model: tuple[dict[str, np.ndarray], dict[str, Any], Path]) -> None:
    arrays, profile, _ = model
    for row, face in enumerate(profile["faces"]):
        if face["photo_id"] == "astronaut-warm":
            assert not arrays["descriptor_present"][row] and not arrays["descriptors"][row].any()
        else:
            assert arrays["descriptor_present"][row]
            assert np.array_equal(arrays["descriptors"][row], np.array(descriptor_of(face["photo_id"]), np.float32))


def test_the_big_original_gives_the_portrait_and_a_mismatched_one_is_ignored(tmp_path: Path) -> None:
    source = Image.open(FIXTURES / "astronaut.jpg").convert("RGB")
    big = tmp_path / "big-original.png"
    source.resize((2048, 2048), Image.Resampling.LANCZOS).save(big)
    rotated = tmp_path / "rotated-original.jpg"
    source.crop((0, 0, 512, 400)).save(rotated)  # another shape: not this picture
    eyes, box = ((202.5, 100.0), (245.0, 102.5)), (175.0, 70.0, 100.0, 110.0)
    path = str(FIXTURES / "astronaut.jpg")
    from_big = cut_portrait(path, str(big), (512, 512), *eyes, face_box=box)
    assert from_big.source == "original" and from_big.source_size == (2048, 2048)
    assert from_big.scale == pytest.approx(cut_portrait(path, None, (512, 512), *eyes, face_box=box).scale / 4)
    assert from_big.eyes.mean(axis=0) == pytest.approx([P / 2, PORTRAIT_EYE_Y * P], abs=0.5)
    assert cut_portrait(path, str(rotated), (512, 512), *eyes, face_box=box).source == "path"
    assert cut_portrait(path, str(tmp_path / "missing.jpg"), (512, 512), *eyes, face_box=box).source == "path"


def test_a_large_original_is_decoded_no_bigger_than_the_portrait_needs(tmp_path: Path) -> None:
    huge = tmp_path / "huge.jpg"
    Image.open(FIXTURES / "astronaut.jpg").convert("RGB").resize((4096, 4096)).save(huge, quality=90)
    scale = 8
    eyes, box = ((202.5 * scale, 100.0 * scale), (245.0 * scale, 102.5 * scale)), (1400.0, 560.0, 800.0, 880.0)
    cut = cut_portrait(str(huge), None, (4096, 4096), *eyes, face_box=box)
    assert cut.scale < 1 and cut.rgb.shape == (P, P, 3)
    assert cut.eyes.mean(axis=0) == pytest.approx([P / 2, PORTRAIT_EYE_Y * P], abs=0.5)


def test_a_format_one_model_is_recognised(
    tmp_path: Path, model: tuple[dict[str, np.ndarray], dict[str, Any], Path]
) -> None:
    _, _, path = model
    old = tmp_path / "old.npz"
    write_format_one_model(old)
    assert read_format_version(str(old)) == 1 and not can_generate(str(old))
    assert read_format_version(str(path)) == 2 and can_generate(str(path))
    assert FORMAT_ONE_MESSAGE == "This model was trained before generation existed: retrain it to generate headshots."
    not_a_model = tmp_path / "other.npz"
    np.savez(not_a_model, x=np.zeros(3))
    with pytest.raises(ValueError, match="not a studio model"):
        read_format_version(str(not_a_model))


def test_eight_photos_give_a_reasonably_small_deterministic_model(trainer: StudioTrainer, tmp_path: Path) -> None:
    photos = [
        Photo(id=f"{name}-{i}", path=str(FIXTURES / f"{name}.jpg"), original_path=str(FIXTURES / f"{name}.jpg"))
        for i, name in enumerate(EIGHT)
    ]
    sizes = []
    for run in ("first", "second"):
        summary = trainer.train(RecordingJob(), train_params(photos, tmp_path / run))
        sizes.append((tmp_path / run / "model.npz").stat().st_size)
    assert summary["reference_faces"] == 8
    assert (tmp_path / "first" / "model.npz").read_bytes() == (tmp_path / "second" / "model.npz").read_bytes()
    # Eight 512 px aligned faces and eight 1280 px portraits: a few megabytes.
    assert sizes[0] < 8_000_000, sizes
    with zipfile.ZipFile(tmp_path / "first" / "model.npz") as archive:
        members = {info.filename: info.compress_size for info in archive.infolist()}
    print(f"model.npz of 8 fixture photos: {sizes[0]} bytes; " + json.dumps(members))


def test_a_training_says_when_an_original_could_not_be_used(trainer: StudioTrainer, tmp_path: Path) -> None:
    other_shape = tmp_path / "cropped.jpg"
    Image.open(FIXTURES / "astronaut-mirror.jpg").crop((0, 0, 512, 380)).save(other_shape)
    photos = [
        fixture_photo("astronaut"),
        Photo(id="mirror", path=str(FIXTURES / "astronaut-mirror.jpg"), original_path=str(other_shape)),
        Photo(id="warm", path=str(FIXTURES / "astronaut-warm.jpg"), original_path=str(tmp_path / "gone.jpg")),
    ]
    job = RecordingJob()
    trainer.train(job, train_params(photos, tmp_path / "out"))
    warnings = [message for level, message in job.of_kind("log") if level == "warn"]
    assert len(warnings) == 2 and all("the portrait comes from the optimised copy" in w for w in warnings)
    _, profile = read_model(str(tmp_path / "out" / "model.npz"))
    sources = {face["photo_id"]: face["portrait"]["source"] for face in profile["faces"]}
    assert sources == {"astronaut": "original", "mirror": "path", "warm": "path"}
