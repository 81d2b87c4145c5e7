"""Reading photos: upright, any common format, bounded in size, clear words when a file is bad."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from harness import FIXTURES, fixture_photo
from PIL import Image

from studioshot_engine.jobs import BadInput
from studioshot_engine.protocol import Photo
from studioshot_engine.studio.faces import FaceDetector
from studioshot_engine.studio.photos import WORKING_MAX_SIDE, check_photo_files, load_photo


@pytest.fixture(scope="module")
def detector() -> FaceDetector:
    return FaceDetector()


def eyes_of(photo: Photo, detector: FaceDetector) -> np.ndarray:
    face = detector.find_main_face(cv2.cvtColor(load_photo(photo).rgb, cv2.COLOR_RGB2GRAY))
    assert face is not None and face.eyes_found == 2
    return np.array([face.left_eye, face.right_eye])


def test_applies_the_exif_orientation(detector: FaceDetector) -> None:
    # Stored 512x585 on its side with orientation 6: upright it is 585 wide, face up.
    loaded = load_photo(fixture_photo("astronaut-exif-rotated"))
    assert loaded.original_size == (585, 512) and loaded.rgb.shape == (512, 585, 3) and loaded.scale == 1
    eyes = eyes_of(fixture_photo("astronaut-exif-rotated"), detector)
    assert abs(eyes[0, 1] - eyes[1, 1]) < 0.2 * (eyes[1, 0] - eyes[0, 0]), "eyes side by side, not stacked"


@pytest.mark.parametrize("image_format", ["PNG", "WEBP"])
def test_reads_png_and_webp_like_jpeg(image_format: str, tmp_path: Path, detector: FaceDetector) -> None:
    path = tmp_path / f"astronaut.{image_format.lower()}"
    Image.open(FIXTURES / "astronaut.jpg").save(
        path, format=image_format, **({"quality": 95} if image_format == "WEBP" else {})
    )
    converted = eyes_of(Photo(id="p", path=str(path)), detector)
    original = eyes_of(fixture_photo("astronaut"), detector)
    assert np.abs(converted - original).max() < 3


def test_puts_transparency_on_grey(tmp_path: Path) -> None:
    rgba = Image.open(FIXTURES / "astronaut.jpg").convert("RGBA")
    rgba.putalpha(0)
    path = tmp_path / "clear.png"
    rgba.save(path)
    assert np.all(load_photo(Photo(id="p", path=str(path))).rgb == 128)


def test_shrinks_a_big_photo_to_the_working_size(tmp_path: Path, detector: FaceDetector) -> None:
    path = tmp_path / "big.jpg"
    Image.open(FIXTURES / "astronaut.jpg").resize((4096, 3072), Image.Resampling.BICUBIC).save(path, quality=90)
    loaded = load_photo(Photo(id="big", path=str(path)))
    assert loaded.original_size == (4096, 3072)
    assert loaded.rgb.shape == (1200, WORKING_MAX_SIDE, 3) and loaded.scale == WORKING_MAX_SIDE / 4096
    assert detector.find_main_face(cv2.cvtColor(loaded.rgb, cv2.COLOR_RGB2GRAY)) is not None


def test_a_missing_photo_is_bad_input_in_plain_words(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match=r"^We could not find photo p7\. Please upload it again\.$"):
        check_photo_files((fixture_photo("astronaut"), Photo(id="p7", path=str(tmp_path / "gone.jpg"))))
    with pytest.raises(BadInput, match="could not find photo p8"):
        check_photo_files((Photo(id="p8", path=str(tmp_path)),))  # a directory is no photo either


def test_a_file_that_is_no_image_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "selfie.jpg"
    path.write_text("not really a jpeg")
    with pytest.raises(BadInput, match=r"^Photo p3 is not an image we can read\. Please upload it again\.$"):
        load_photo(Photo(id="p3", path=str(path)))
