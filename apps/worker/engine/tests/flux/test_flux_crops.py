"""Face-centred training crops from the photo checks' face boxes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from flux_support import ASTRONAUT_FACE
from harness import FIXTURES
from PIL import Image

from studioshot_engine.flux.crops import CROP_KINDS, training_crops
from studioshot_engine.jobs import BadInput
from studioshot_engine.protocol import FaceBox, Photo


def _photo_with_marked_face(tmp_path: Path, size: tuple[int, int], box: FaceBox, name: str = "marked.png") -> str:
    """A grey picture whose face box is white: the crops show where they were cut."""
    pixels = np.full((size[1], size[0], 3), 60, np.uint8)
    left, top = round(box.x), round(box.y)
    pixels[top : top + round(box.height), left : left + round(box.width)] = 255
    path = tmp_path / name
    Image.fromarray(pixels).save(path)
    return str(path)


def _white_centre(image: Image.Image) -> tuple[float, float, float]:
    """Centre (x, y, as fractions) and share of the white area."""
    white = np.asarray(image.convert("L")) > 200
    rows, cols = np.nonzero(white)
    return cols.mean() / white.shape[1], rows.mean() / white.shape[0], white.mean()


def test_two_square_crops_per_photo_centred_on_the_face_with_captions(tmp_path: Path) -> None:
    box = FaceBox(x=300, y=200, width=100, height=120)
    path = _photo_with_marked_face(tmp_path, (1000, 800), box)
    crops = training_crops(Photo(id="p", path=path, face_box=box), 128, "ohwx")
    assert [crop.kind for crop in crops] == list(CROP_KINDS)
    assert [crop.caption for crop in crops] == ["a close-up photo of ohwx", "a photo of ohwx, head and shoulders"]
    close_up, portrait = crops
    for crop in crops:
        assert crop.image.size == (128, 128) and crop.image.mode == "RGB"
    x, y, share = _white_centre(close_up.image)
    assert x == pytest.approx(0.5, abs=0.03) and y == pytest.approx(CROP_KINDS["close-up"][1], abs=0.03)
    x_wide, y_wide, share_wide = _white_centre(portrait.image)
    assert x_wide == pytest.approx(0.5, abs=0.03) and y_wide == pytest.approx(CROP_KINDS["portrait"][1], abs=0.03)
    # The head-and-shoulders crop shows more around the face.
    assert share_wide < share / 2


def test_a_face_near_the_edge_is_cropped_inside_the_photo(tmp_path: Path) -> None:
    box = FaceBox(x=10, y=5, width=100, height=100)
    path = _photo_with_marked_face(tmp_path, (400, 300), box)
    close_up, portrait = training_crops(Photo(id="p", path=path, face_box=box), 64, "ohwx")
    # No padding: every pixel is the photo's (grey or white).
    for crop in (close_up, portrait):
        values = set(np.unique(np.asarray(crop.image.convert("L"))))
        assert min(values) >= 40
    x, y, _ = _white_centre(close_up.image)
    assert x < 0.5 and y < 0.5


def test_the_full_size_original_is_cut_when_it_is_the_same_picture(tmp_path: Path) -> None:
    box = FaceBox(x=100, y=80, width=60, height=60)
    copy = _photo_with_marked_face(tmp_path, (400, 300), box, "copy.png")
    # The original is twice the size; its face box is twice as far and large.
    original = _photo_with_marked_face(
        tmp_path, (800, 600), FaceBox(x=200, y=160, width=120, height=120), "original.png"
    )
    Image.open(original).convert("RGB").point(lambda v: v if v > 200 else 90).save(tmp_path / "original.png")
    crops = training_crops(Photo(id="p", path=copy, original_path=original, face_box=box), 96, "ohwx")
    background = np.median(np.asarray(crops[0].image.convert("L")))
    assert background == pytest.approx(90, abs=3), "cut from the original, not the copy"
    x, _, _ = _white_centre(crops[0].image)
    assert x == pytest.approx(0.5, abs=0.04)


def test_an_original_of_another_shape_is_not_used(tmp_path: Path) -> None:
    box = FaceBox(x=100, y=80, width=60, height=60)
    copy = _photo_with_marked_face(tmp_path, (400, 300), box, "copy.png")
    rotated = _photo_with_marked_face(tmp_path, (300, 400), box, "rotated.png")
    Image.open(rotated).convert("RGB").point(lambda v: v if v > 200 else 90).save(tmp_path / "rotated.png")
    crops = training_crops(Photo(id="p", path=copy, original_path=rotated, face_box=box), 96, "ohwx")
    assert np.median(np.asarray(crops[0].image.convert("L"))) == pytest.approx(60, abs=3)


def test_without_a_face_box_the_crop_is_where_a_selfie_face_usually_is() -> None:
    photo = Photo(id="astronaut", path=str(FIXTURES / "astronaut.jpg"))
    with_box = training_crops(Photo(id="a", path=photo.path, face_box=ASTRONAUT_FACE), 64, "ohwx")
    without = training_crops(photo, 64, "ohwx")
    assert [crop.image.size for crop in without] == [(64, 64), (64, 64)]
    assert np.asarray(with_box[0].image).tobytes() != np.asarray(without[0].image).tobytes()


def test_an_unreadable_photo_is_bad_input(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg")
    with pytest.raises(BadInput, match="could not be read"):
        training_crops(Photo(id="p", path=str(broken)), 64, "ohwx")
    with pytest.raises(BadInput):
        training_crops(Photo(id="p", path=str(tmp_path / "missing.jpg")), 64, "ohwx")
