"""The head matte: the face and hair cut out from their background, soft at the edge."""

from __future__ import annotations

import numpy as np
from harness import fixture_photo

from studioshot_engine.studio.alignment import CANONICAL_LEFT_EYE, CROP_SIZE
from studioshot_engine.studio.matte import head_matte
from studioshot_engine.studio.training import AnalysedPhoto, StudioTrainer

EVERYWHERE = np.full((CROP_SIZE, CROP_SIZE), 255, np.uint8)


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
