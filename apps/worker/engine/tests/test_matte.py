"""The mattes: the person in a portrait (checked against hand-drawn masks), and the head in an
aligned crop, each cut out from its background, soft at the edge."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from hand_masks import MASKS, hand_mask, mask_names, photo_rgb
from harness import FIXTURES, fixture_photo

from studioshot_engine.studio.alignment import CANONICAL_LEFT_EYE, CROP_SIZE
from studioshot_engine.studio.matte import (
    MODEL_DIR_ENV,
    SEGMENTATION_MODEL_FILE,
    PersonSegmenter,
    _subject,
    head_matte,
    model_dir,
    person_matte,
)
from studioshot_engine.studio.portrait import Portrait, cut_portrait
from studioshot_engine.studio.training import AnalysedPhoto, StudioTrainer

EVERYWHERE = np.full((CROP_SIZE, CROP_SIZE), 255, np.uint8)
# Of the hand-drawn person, at least this much is in the matte; of the background, at most this.
MIN_PERSON_COVERED = 0.90
MAX_BACKGROUND_COVERED = 0.03


@pytest.fixture(scope="module")
def segmenter() -> PersonSegmenter:
    return PersonSegmenter()


def coverage_in_photo(portrait: Portrait, matte: np.ndarray, person: np.ndarray) -> tuple[float, float]:
    """The matte taken back to the photo's pixels: the share of the hand-drawn person it covers, and
    of the background, both within the part of the photo the portrait shows."""
    height, width = person.shape
    inverse = cv2.invertAffineTransform(portrait.transform)
    shown = cv2.warpAffine(portrait.valid.astype(np.uint8), inverse, (width, height), flags=cv2.INTER_NEAREST) > 0
    # Area averaging where the portrait enlarged the photo: each photo pixel gets its own share.
    flags = cv2.INTER_AREA if portrait.scale > 1 else cv2.INTER_LINEAR
    in_matte = cv2.warpAffine(matte, inverse, (width, height), flags=flags) >= 128
    covered = (in_matte & person & shown).sum() / (person & shown).sum()
    spilled = (in_matte & ~person & shown).sum() / (~person & shown).sum()
    return float(covered), float(spilled)


@pytest.mark.parametrize("name", mask_names())
def test_the_person_matte_matches_the_hand_drawn_mask(name: str, segmenter: PersonSegmenter) -> None:
    spec = json.loads((MASKS / f"{name}.json").read_text())
    (left, right), person = spec["eyes"], hand_mask(name)
    distance = float(np.hypot(right[0] - left[0], right[1] - left[1]))
    box = (left[0] - distance / 2, left[1] - distance / 2, 2 * distance, 2.4 * distance)
    portrait = cut_portrait(
        str(FIXTURES / spec["image"]), None, tuple(spec["size"]), tuple(left), tuple(right), face_box=box
    )
    matte = person_matte(segmenter, portrait.rgb, portrait.valid, portrait.eyes.astype(np.float64))
    assert matte.shape == portrait.valid.shape and matte.dtype == np.uint8
    covered, spilled = coverage_in_photo(portrait, matte, person)
    print(f"{name}: {covered:.1%} of the person, {spilled:.2%} of the background")
    assert covered >= MIN_PERSON_COVERED and spilled <= MAX_BACKGROUND_COVERED, (covered, spilled)
    assert matte[~portrait.valid].max(initial=0) == 0
    soft = (matte > 0) & (matte < 255)
    assert 0 < soft.mean() < 0.05, "a soft edge, a few pixels wide"


def test_the_trainings_own_cut_out_matches_the_hand_drawn_mask(trainer: StudioTrainer) -> None:
    analysed = trainer.analyse(0, fixture_photo("astronaut"))
    assert isinstance(analysed, AnalysedPhoto)
    cutout = trainer.cut_out(analysed)
    covered, spilled = coverage_in_photo(cutout.portrait, cutout.portrait_matte, hand_mask("astronaut"))
    assert covered >= MIN_PERSON_COVERED and spilled <= MAX_BACKGROUND_COVERED, (covered, spilled)


def test_the_hand_drawn_masks_fit_their_photos() -> None:
    for name in mask_names():
        person = hand_mask(name)
        assert person.shape == photo_rgb(name).shape[:2]
        assert 0.2 < person.mean() < 0.8


def test_only_the_part_connected_to_the_face_is_kept() -> None:
    probability = np.zeros((256, 256), np.float32)
    cv2.ellipse(probability, (100, 120), (40, 60), 0, 0, 360, 1.0, -1)  # the subject
    cv2.circle(probability, (220, 60), 20, 0.9, -1)  # someone behind
    eyes = np.array([[88.0, 110.0], [112.0, 110.0]])
    kept = _subject(probability, eyes)
    assert kept[120, 100] > 0.99 and kept[60, 220] == 0


def test_the_model_directory_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert (model_dir() / SEGMENTATION_MODEL_FILE).is_file(), "installed by scripts/lib.sh ensure_engine"
    monkeypatch.setenv(MODEL_DIR_ENV, str(tmp_path))
    assert model_dir() == tmp_path
    with pytest.raises(RuntimeError, match=r"segmentation model .* is missing"):
        PersonSegmenter()


def test_the_same_portrait_gives_the_same_matte(segmenter: PersonSegmenter) -> None:
    path = str(FIXTURES / "astronaut-warm.jpg")
    eyes_in_photo, box = ((202.5, 100.0), (245.0, 102.5)), (175.0, 70.0, 100.0, 110.0)
    portrait = cut_portrait(path, None, (512, 512), *eyes_in_photo, face_box=box)
    eyes = portrait.eyes.astype(np.float64)
    first = person_matte(segmenter, portrait.rgb, portrait.valid, eyes)
    assert np.array_equal(first, person_matte(PersonSegmenter(), portrait.rgb, portrait.valid, eyes))


def test_cuts_out_face_and_hair_from_the_backdrop(trainer: StudioTrainer) -> None:
    analysed = trainer.analyse(0, fixture_photo("astronaut"))
    assert isinstance(analysed, AnalysedPhoto)
    matte, method = head_matte(analysed.crop, analysed.coverage)
    assert method == "grabcut" and matte.dtype == np.uint8 and matte.shape == (CROP_SIZE, CROP_SIZE)
    eye_y, middle = round(CANONICAL_LEFT_EYE[1]), CROP_SIZE // 2
    assert matte[eye_y, middle] == 255, "face"
    assert matte[eye_y - 150, middle] == 255, "hair above the forehead"
    assert matte[eye_y, 20] == 0 and matte[eye_y, CROP_SIZE - 20] == 0, "backdrop beside the head"
    assert np.count_nonzero((matte > 0) & (matte < 255)) > 0, "a soft edge"


def test_falls_back_to_the_head_ellipse_when_the_backdrop_looks_like_skin() -> None:
    wall = np.full((CROP_SIZE, CROP_SIZE, 3), (200, 160, 140), np.uint8)
    wall[:16], wall[:300, :16], wall[:300, -16:] = (20, 40, 200), (20, 40, 200), (20, 40, 200)
    matte, method = head_matte(wall, EVERYWHERE)
    assert method == "ellipse"
    assert matte[CROP_SIZE // 2, CROP_SIZE // 2] == 255 and matte[20, 20] == 0


def test_is_empty_where_the_crop_shows_no_photo(trainer: StudioTrainer) -> None:
    analysed = trainer.analyse(0, fixture_photo("astronaut"))
    assert isinstance(analysed, AnalysedPhoto)
    coverage = EVERYWHERE.copy()
    coverage[:, : CROP_SIZE // 2] = 0
    matte, _ = head_matte(analysed.crop, coverage)
    assert matte[:, : CROP_SIZE // 2].max() == 0 and matte[:, CROP_SIZE // 2 :].max() == 255
