"""Finding the face and its eyes, and aligning it: eyes level and in place in every crop."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from harness import fixture_photo

from studioshot_engine.studio.alignment import (
    CANONICAL_EYE_DISTANCE,
    CANONICAL_LEFT_EYE,
    CANONICAL_RIGHT_EYE,
    CROP_SIZE,
    align,
    eye_alignment,
)
from studioshot_engine.studio.faces import Face, FaceDetector
from studioshot_engine.studio.photos import load_photo


@pytest.fixture(scope="module")
def detector() -> FaceDetector:
    return FaceDetector()


def face_in(name: str, detector: FaceDetector) -> tuple[Face, np.ndarray]:
    rgb = load_photo(fixture_photo(name)).rgb
    face = detector.find_main_face(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY))
    assert face is not None, name
    return face, rgb


def test_finds_the_face_and_both_eyes(detector: FaceDetector) -> None:
    face, _ = face_in("astronaut", detector)
    x, y, w, h = face.box
    assert 150 < x < 200 and 40 < y < 90 and 80 < w < 120 and w == h
    assert face.eyes_found == 2 and face.faces_found == 1
    for eye in (face.left_eye, face.right_eye):
        assert x < eye[0] < x + w and y + 0.2 * h < eye[1] < y + 0.55 * h
    assert face.left_eye[0] < x + w / 2 < face.right_eye[0]


@pytest.mark.parametrize("name", ["no-face-texture", "no-face-background"])
def test_finds_no_face_where_there_is_none(name: str, detector: FaceDetector) -> None:
    rgb = load_photo(fixture_photo(name)).rgb
    assert detector.find_main_face(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)) is None


def test_picks_the_strongest_of_two_faces(detector: FaceDetector) -> None:
    face, _ = face_in("two-faces", detector)
    assert face.faces_found == 2


def test_measures_the_tilt(detector: FaceDetector) -> None:
    upright, _ = face_in("astronaut", detector)
    tilted, _ = face_in("astronaut-tilted", detector)
    mirrored, _ = face_in("astronaut-mirror", detector)
    # The tilted fixture is the portrait turned 7 degrees; the mirror turns her own slight tilt around.
    assert tilted.roll_degrees - upright.roll_degrees == pytest.approx(7, abs=2.5)
    assert mirrored.roll_degrees == pytest.approx(-upright.roll_degrees, abs=1.5)


def test_eye_alignment_maps_the_eyes_onto_the_canonical_points() -> None:
    transform = eye_alignment((100.0, 120.0), (160.0, 140.0))
    moved = np.array([[100.0, 120.0, 1.0], [160.0, 140.0, 1.0]]) @ transform.T
    assert moved == pytest.approx(np.array([CANONICAL_LEFT_EYE, CANONICAL_RIGHT_EYE]))


@pytest.mark.parametrize("name", ["astronaut-tilted", "astronaut", "astronaut-closer", "astronaut-exif-rotated"])
def test_aligned_crop_has_level_eyes_in_place(name: str, detector: FaceDetector) -> None:
    face, rgb = face_in(name, detector)
    crop, coverage = align(rgb, eye_alignment(face.left_eye, face.right_eye))
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3) and coverage.shape == (CROP_SIZE, CROP_SIZE)
    # Found again in the crop, independently: level, and where alignment put them.
    again = detector.find_main_face(cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY))
    assert again is not None and again.eyes_found == 2
    assert abs(again.roll_degrees) < 2.5
    for found, canonical in ((again.left_eye, CANONICAL_LEFT_EYE), (again.right_eye, CANONICAL_RIGHT_EYE)):
        assert math.dist(found, canonical) < 0.12 * CANONICAL_EYE_DISTANCE


def test_coverage_marks_what_lies_outside_the_photo(detector: FaceDetector) -> None:
    face, rgb = face_in("astronaut", detector)
    # A tight crop of the portrait: the aligned crop reaches past it on every side.
    top, left = 60, 160
    tight = rgb[top : top + 130, left : left + 130]
    shift = np.array([left, top])
    crop, coverage = align(tight, eye_alignment(tuple(face.left_eye - shift), tuple(face.right_eye - shift)))
    assert set(np.unique(coverage)) == {0, 255}
    assert coverage[CROP_SIZE // 2, CROP_SIZE // 2] == 255
    assert coverage[0].max() == 0 and coverage[-1].max() == 0 and coverage[:, 0].max() == 0
    # Outside the photo the crop repeats its edge rather than going black.
    assert crop[coverage == 0].mean() > 40
