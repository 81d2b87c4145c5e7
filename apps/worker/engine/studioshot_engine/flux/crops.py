"""Face-centred training crops: each photo gives a close-up and a head-and-shoulders square.

The face box is the photo checks' (pixels of the optimised copy, upright); the crop is cut from the
full-size original when it is the same picture (same shape), so a 512 px crop of a small face is
not an enlargement of the 1024 px copy. Without a box the crop is centred where a selfie's face
usually is (a log says so).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

from ..jobs import BadInput
from ..protocol import FaceBox, Photo

# Crop side as a multiple of the face box's larger side, and where the face's centre sits
# (fraction of the crop from the top): a close-up keeps the face large and central; the portrait
# shows hair, neck and shoulders with the eyes in the upper part of the frame.
CROP_KINDS = {"close-up": (2.0, 0.46), "portrait": (3.4, 0.38)}
CAPTIONS = {
    "close-up": "a close-up photo of {trigger}",
    "portrait": "a photo of {trigger}, head and shoulders",
}


@dataclass(frozen=True)
class TrainingCrop:
    photo_id: str
    kind: str  # a key of CROP_KINDS
    image: Image.Image  # RGB, resolution x resolution
    caption: str


def caption_for(kind: str, trigger_word: str) -> str:
    return CAPTIONS[kind].format(trigger=trigger_word)


def training_crops(photo: Photo, resolution: int, trigger_word: str) -> list[TrainingCrop]:
    """The photo's crops; BadInput when the photo cannot be read."""
    image, box = _source(photo)
    crops = []
    for kind, (scale, face_row) in CROP_KINDS.items():
        square = _square(image.size, box, scale, face_row)
        cut = image.crop(square).resize((resolution, resolution), Image.Resampling.LANCZOS, reducing_gap=3.0)
        crops.append(TrainingCrop(photo.id, kind, cut, caption_for(kind, trigger_word)))
    return crops


def _open_upright(path: str) -> Image.Image:
    try:
        with Image.open(path) as opened:
            upright = ImageOps.exif_transpose(opened)
            return upright.convert("RGB")
    except (OSError, UnidentifiedImageError, ValueError) as error:
        raise BadInput("One of your photos could not be read. Please upload it again.") from error


def _source(photo: Photo) -> tuple[Image.Image, FaceBox]:
    """The sharpest copy of the photo and the face box in its pixels."""
    copy = _open_upright(photo.path)
    box = photo.face_box or _assumed_face(copy.size)
    if photo.original_path and photo.original_path != photo.path:
        try:
            original = _open_upright(photo.original_path)
        except BadInput:
            return copy, box
        scale_x, scale_y = original.width / copy.width, original.height / copy.height
        # The same picture only when scaled evenly (a crop or rotation of it is another picture).
        if scale_x >= 1 and abs(scale_x - scale_y) <= 0.01 * scale_x:
            scaled = FaceBox(box.x * scale_x, box.y * scale_y, box.width * scale_x, box.height * scale_y)
            return original, scaled
    return copy, box


def _assumed_face(size: tuple[int, int]) -> FaceBox:
    width, height = size
    side = 0.4 * min(width, height)
    return FaceBox(x=(width - side) / 2, y=0.38 * height - side / 2, width=side, height=side)


def _square(size: tuple[int, int], box: FaceBox, scale: float, face_row: float) -> tuple[int, int, int, int]:
    """A square around the face (side `scale` face sizes, the face's centre `face_row` down it), moved
    inside the photo, and made smaller if the photo is smaller than it."""
    width, height = size
    side = min(scale * max(box.width, box.height), width, height)
    centre_x = box.x + box.width / 2
    centre_y = box.y + box.height / 2
    left = min(max(centre_x - side / 2, 0.0), width - side)
    top = min(max(centre_y - face_row * side, 0.0), height - side)
    return round(left), round(top), round(left + side), round(top + side)
