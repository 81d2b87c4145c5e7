"""Reading a user's photo: any format Pillow decodes, upright (EXIF orientation), bounded in size."""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageOps

from ..jobs import BadInput
from ..protocol import Photo

# Bigger than any face crop needs (a 512 px crop wants ~110 px between the eyes), small enough
# that a 48-megapixel original costs no more to analyse than a phone's 12.
WORKING_MAX_SIDE = 1600
# Transparent areas are shown on this neutral grey rather than on whatever colour they hide.
TRANSPARENCY_BACKGROUND = (128, 128, 128)


@dataclass(frozen=True)
class LoadedPhoto:
    rgb: np.ndarray  # (h, w, 3) uint8, upright (for load_photo: longest side <= WORKING_MAX_SIDE)
    original_size: tuple[int, int]  # (width, height) upright, before any downscale
    scale: float  # decoded pixels per original pixel (<= 1)


def check_photo_files(photos: tuple[Photo, ...]) -> None:
    """Fails fast, before any work, when a photo the worker promised is not on disk."""
    for photo in photos:
        if not os.path.isfile(photo.path):
            raise BadInput(f"We could not find photo {photo.id}. Please upload it again.")


def load_photo(photo: Photo) -> LoadedPhoto:
    """The photo's working copy (`path`, longest side at most WORKING_MAX_SIDE)."""
    try:
        return load_image(photo.path, lambda size: WORKING_MAX_SIDE / max(size))
    except UnreadablePhoto as error:
        raise BadInput(f"Photo {photo.id} is not an image we can read. Please upload it again.") from error


class UnreadablePhoto(Exception):
    """The file is missing, or not an image Pillow can decode."""


def load_image(path: str, scale_for: Callable[[tuple[int, int]], float]) -> LoadedPhoto:
    """The image upright, at `scale_for(upright original size)` of its size (at most 1: never enlarged)."""
    try:
        with warnings.catch_warnings():
            # A huge image is fine here (JPEG is decoded at a reduced scale); a bomb still raises.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                return _decode(image, scale_for)
    except (OSError, ValueError, Image.DecompressionBombError, SyntaxError) as error:
        raise UnreadablePhoto(str(error)) from error


def _decode(image: Image.Image, scale_for: Callable[[tuple[int, int]], float]) -> LoadedPhoto:
    # EXIF orientations 5-8 swap width and height.
    orientation = image.getexif().get(0x0112, 1)
    stored_width, stored_height = image.size
    original_size = (stored_height, stored_width) if orientation in (5, 6, 7, 8) else (stored_width, stored_height)
    scale = min(1.0, scale_for(original_size))
    if scale < 1.0:
        # JPEG only: decode straight at 1/2, 1/4 or 1/8 scale, never smaller than asked for.
        image.draft("RGB", (math.ceil(stored_width * scale), math.ceil(stored_height * scale)))
    upright = ImageOps.exif_transpose(image)
    rgb = _to_rgb(upright)
    target = (round(original_size[0] * scale), round(original_size[1] * scale))
    if rgb.size != target:
        # reducing_gap: a fast box reduction first, Lanczos only for the last factor.
        rgb = rgb.resize(target, Image.Resampling.LANCZOS, reducing_gap=3.0)
    return LoadedPhoto(rgb=np.asarray(rgb), original_size=original_size, scale=scale)


def _to_rgb(image: Image.Image) -> Image.Image:
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        background = Image.new("RGB", rgba.size, TRANSPARENCY_BACKGROUND)
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    return image.convert("RGB")
