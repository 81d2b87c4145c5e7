"""The whole training, in process: progress, the model file's contents, determinism, bad input."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from harness import FIXTURES, RecordingJob, fixture_photo, train_params
from PIL import Image

from studioshot_engine.jobs import BadInput, JobCancelled
from studioshot_engine.protocol import Photo
from studioshot_engine.studio.alignment import CANONICAL_LEFT_EYE, CANONICAL_RIGHT_EYE, CROP_SIZE
from studioshot_engine.studio.artifact import MODEL_FORMAT, read_model
from studioshot_engine.studio.training import MAX_REFERENCE_FACES, StudioTrainer

FORMAT_ONE_KEYS = ("faces", "mattes", "face_boxes", "source_transforms")
SET = ["astronaut-warm", "astronaut", "blurred", "astronaut-mirror", "no-face-texture", "astronaut-tilted"]


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[RecordingJob, dict[str, Any], Path]:
    """One training of a mixed set, shared by the tests that only read its outcome."""
    out = tmp_path_factory.mktemp("model")
    job = RecordingJob()
    summary = StudioTrainer().train(job, train_params([fixture_photo(name) for name in SET], out))
    return job, summary, out


def test_reports_one_step_per_photo_then_three_more(trained: tuple[RecordingJob, dict[str, Any], Path]) -> None:
    job, _, out = trained
    steps = job.of_kind("progress")
    assert [step for step, _, _ in steps] == list(range(1, len(SET) + 4))
    assert {total for _, total, _ in steps} == {len(SET) + 3}
    assert steps[0][2] == f"Checked photo 1 of {len(SET)}"
    assert job.events[-2:] == [
        ("artifact", (str(out / "model.npz"), "model")),
        ("artifact", (str(out / "preview.jpg"), "preview")),
    ]
    assert ("log", ("info", "photo blurred set aside: blurry")) in job.events


def test_summary_names_the_reference_and_what_was_set_aside(trained: tuple[RecordingJob, dict[str, Any], Path]) -> None:
    _, summary, _ = trained
    assert summary == {
        "photos_used": 4,
        "photos_rejected": 2,
        "reference_photo_id": "astronaut",
        "reference_faces": 4,
        "rejected": [{"photo_id": "blurred", "reason": "blurry"}, {"photo_id": "no-face-texture", "reason": "no_face"}],
    }


def test_model_file_holds_aligned_faces_mattes_and_the_profile(
    trained: tuple[RecordingJob, dict[str, Any], Path],
) -> None:
    _, _, out = trained
    arrays, profile = read_model(str(out / "model.npz"))
    shapes = {name: (array.shape, array.dtype.name) for name, array in arrays.items()}
    assert {name: shapes[name] for name in FORMAT_ONE_KEYS} == {
        "faces": ((4, CROP_SIZE, CROP_SIZE, 3), "uint8"),
        "mattes": ((4, CROP_SIZE, CROP_SIZE), "uint8"),
        "face_boxes": ((4, 4), "float32"),
        "source_transforms": ((4, 2, 3), "float64"),
    }
    assert profile["format"] == MODEL_FORMAT and profile["format_version"] == 2
    assert profile["crop"] == {
        "size": CROP_SIZE,
        "left_eye": list(CANONICAL_LEFT_EYE),
        "right_eye": list(CANONICAL_RIGHT_EYE),
    }
    assert profile["used_photo_ids"][0] == "astronaut" and len(profile["used_photo_ids"]) == 4
    assert [face["photo_id"] for face in profile["faces"]] == profile["used_photo_ids"]
    scores = [face["score"] for face in profile["faces"]]
    assert scores == sorted(scores, reverse=True)
    assert set(profile["faces"][0]) >= {
        "quality",
        "skin",
        "white_balance",
        "lighting",
        "matte",
        "roll_degrees",
        "source_size",
    }
    assert set(profile["subject"]) == {"skin", "white_balance", "lighting"}
    assert (profile["model_name"], profile["trigger_word"]) == ("Test model", "person")

    for matte, box in zip(arrays["mattes"], arrays["face_boxes"], strict=True):
        x, y, w, h = box
        assert matte[int(y + h / 2), int(x + w / 2)] == 255, "the face is inside the matte"
        assert matte[:8, :8].max() == 0 and matte[:8, -8:].max() == 0, "the top corners are backdrop"
        assert 0.1 < (matte > 127).mean() < 0.6
        assert x >= 0 and y >= 0 and x + w <= CROP_SIZE and y + h <= CROP_SIZE


def test_source_transform_reproduces_the_crop_from_the_original(
    trained: tuple[RecordingJob, dict[str, Any], Path],
) -> None:
    _, _, out = trained
    arrays, profile = read_model(str(out / "model.npz"))
    index = profile["used_photo_ids"].index("astronaut")
    original = np.asarray(Image.open(FIXTURES / "astronaut.jpg").convert("RGB"))
    again = cv2.warpAffine(
        original,
        arrays["source_transforms"][index],
        (CROP_SIZE, CROP_SIZE),
        flags=cv2.INTER_CUBIC,
        borderMode=cv2.BORDER_REPLICATE,
    )
    assert np.abs(again.astype(int) - arrays["faces"][index].astype(int)).mean() < 2


def test_preview_is_a_contact_sheet_jpeg(trained: tuple[RecordingJob, dict[str, Any], Path]) -> None:
    _, _, out = trained
    with Image.open(out / "preview.jpg") as preview:
        assert preview.format == "JPEG" and preview.width == 2 * CROP_SIZE and preview.height > CROP_SIZE
    assert not list(out.glob("*.partial"))


def test_the_same_photos_give_the_same_bytes(trainer: StudioTrainer, tmp_path: Path) -> None:
    descriptor = tuple(float(i) / 128 for i in range(128))
    photos = [
        fixture_photo("astronaut", descriptor=descriptor),
        fixture_photo("astronaut-closer", original=False),
        fixture_photo("astronaut-exif-rotated"),
    ]
    outputs = []
    for run in ("first", "second"):
        trainer.train(RecordingJob(), train_params(photos, tmp_path / run))
        outputs.append([(tmp_path / run / name).read_bytes() for name in ("model.npz", "preview.jpg")])
    assert outputs[0] == outputs[1]


def test_keeps_the_best_eight_faces_of_twelve(trainer: StudioTrainer, tmp_path: Path) -> None:
    names = [
        "astronaut",
        "astronaut-mirror",
        "astronaut-warm",
        "astronaut-tilted",
        "astronaut-closer",
        "astronaut-low-quality",
    ]
    photos = [Photo(id=f"{name}-{copy}", path=str(FIXTURES / f"{name}.jpg")) for copy in (1, 2) for name in names]
    summary = trainer.train(RecordingJob(), train_params(photos, tmp_path))
    assert (summary["photos_used"], summary["reference_faces"]) == (12, MAX_REFERENCE_FACES)
    arrays, profile = read_model(str(tmp_path / "model.npz"))
    assert len(arrays["faces"]) == MAX_REFERENCE_FACES and len(profile["used_photo_ids"]) == 12
    # Equal photos score equally; the first sent comes first.
    assert profile["used_photo_ids"].index("astronaut-1") < profile["used_photo_ids"].index("astronaut-2")


def test_too_few_usable_faces_is_bad_input_in_plain_words(trainer: StudioTrainer, tmp_path: Path) -> None:
    photos = [fixture_photo(name) for name in ("astronaut", "no-face-texture", "no-face-background", "blurred")]
    job = RecordingJob()
    with pytest.raises(BadInput) as caught:
        trainer.train(job, train_params(photos, tmp_path))
    assert str(caught.value) == (
        "A model needs at least 3 photos that clearly show your face, and only 1 of your 4 photos can be used "
        "(2 with no face we could find, 1 too blurry). Please add clear, well-lit photos of your face."
    )
    assert len(job.of_kind("progress")) == 4 and not list(tmp_path.iterdir())


def test_too_few_photos_at_all_is_bad_input(trainer: StudioTrainer, tmp_path: Path) -> None:
    with pytest.raises(
        BadInput, match=r"^A model needs at least 3 photos that clearly show your face; we received 1 photo\.$"
    ):
        trainer.train(RecordingJob(), train_params([fixture_photo("astronaut")], tmp_path))


def test_a_one_photo_restyle_reads_a_single_face(trainer: StudioTrainer, tmp_path: Path) -> None:
    params = train_params([fixture_photo("astronaut")], tmp_path)
    summary = trainer.train(RecordingJob(), replace(params, min_usable_photos=1))
    assert summary["photos_used"] == 1 and (tmp_path / "model.npz").exists()


def test_a_one_photo_restyle_of_no_face_says_so(trainer: StudioTrainer, tmp_path: Path) -> None:
    params = train_params([fixture_photo("no-face-texture")], tmp_path)
    with pytest.raises(BadInput, match=r"^Your photo could not be used to make headshots\."):
        trainer.train(RecordingJob(), replace(params, min_usable_photos=1))


def test_a_missing_photo_fails_before_any_work(trainer: StudioTrainer, tmp_path: Path) -> None:
    job = RecordingJob()
    with pytest.raises(BadInput, match="could not find photo gone"):
        trainer.train(
            job, train_params([fixture_photo("astronaut"), Photo(id="gone", path=str(tmp_path / "x.jpg"))], tmp_path)
        )
    assert job.events == []


def test_cancel_between_photos_stops_without_writing(trainer: StudioTrainer, tmp_path: Path) -> None:
    photos = [fixture_photo(name) for name in ("astronaut", "astronaut-mirror", "astronaut-warm", "astronaut-tilted")]
    job = RecordingJob(cancel_after_progress=2)
    with pytest.raises(JobCancelled):
        trainer.train(job, train_params(photos, tmp_path / "out"))
    assert len(job.of_kind("progress")) == 2 and not (tmp_path / "out").exists()
