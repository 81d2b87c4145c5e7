"""Head-and-shoulders portraits: the square crops generation composes headshots from.

Each is cut from the full-size original (the photo's `original_path`, else its `path`), upright,
never rotated (the shoulders stay as the camera saw them): the eyes' midpoint centred horizontally
at 40% of the height, scaled so the eyes lie 0.14 of the side apart, which leaves the hair above
and the shoulders below in frame. A small original is enlarged; where the window reaches past the
photo it is black, and `valid` says where the photo is (nothing downstream may use the rest).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np
from PIL import Image

from .faces import Box, Point
from .photos import LoadedPhoto, UnreadablePhoto, load_image

PORTRAIT_SIZE = 1280
PORTRAIT_EYE_Y = 0.40  # of the side, from the top
PORTRAIT_EYE_DISTANCE = 0.14  # of the side
JPEG_QUALITY = 95
# The original and the optimised copy are the same picture; a different shape means they are not
# (an orientation lost with the metadata, a crop), and the copy the eyes were found on is used.
MAX_ASPECT_DIFFERENCE = 0.02
# Source pixels beyond the window kept for the resampling kernel.
WINDOW_MARGIN = 4

PortraitSource = Literal["original", "path"]


@dataclass(frozen=True)
class Portrait:
    rgb: np.ndarray  # uint8 (P, P, 3)
    valid: np.ndarray  # bool (P, P): where it shows the photo (elsewhere black)
    transform: np.ndarray  # float64 (2, 3): upright source pixels -> portrait pixels
    source: PortraitSource
    source_size: tuple[int, int]  # the upright source's width and height
    eyes: np.ndarray  # float32 (2, 2): left, right eye centre (x, y) in portrait pixels
    face_box: np.ndarray  # float32 (4,): the detected face x, y, w, h in portrait pixels

    @property
    def scale(self) -> float:
        """Portrait pixels per source pixel (> 1: enlarged)."""
        return float(self.transform[0, 0])


def portrait_transform(left_eye: Point, right_eye: Point, size: int = PORTRAIT_SIZE) -> np.ndarray:
    """Scale and shift (no rotation) taking a photo's eyes to the portrait's eye line."""
    scale = PORTRAIT_EYE_DISTANCE * size / math.dist(left_eye, right_eye)
    middle_x, middle_y = (left_eye[0] + right_eye[0]) / 2, (left_eye[1] + right_eye[1]) / 2
    return np.array([[scale, 0.0, size / 2 - scale * middle_x], [0.0, scale, PORTRAIT_EYE_Y * size - scale * middle_y]])


def cut_portrait(
    path: str,
    original_path: str | None,
    path_size: tuple[int, int],
    left_eye: Point,
    right_eye: Point,
    *,
    face_box: Box,
    size: int = PORTRAIT_SIZE,
) -> Portrait:
    """The portrait of one photo. Eyes and face box are in the upright `path` image's pixels
    (`path_size` its width and height); the crop comes from the original when it can be read and
    has the same shape."""
    if original_path is not None:
        try:
            return _cut(original_path, "original", path_size, (left_eye, right_eye), face_box=face_box, size=size)
        except (UnreadablePhoto, _DifferentPicture):
            pass
    try:
        return _cut(path, "path", path_size, (left_eye, right_eye), face_box=face_box, size=size)
    except _DifferentPicture as error:  # the working copy is the picture the eyes were found on
        raise AssertionError(f"{path} changed while it was read: {error}") from error


class _DifferentPicture(Exception):
    pass


def _cut(
    path: str,
    source: PortraitSource,
    path_size: tuple[int, int],
    eyes_in_path: tuple[Point, Point],
    *,
    face_box: Box,
    size: int,
) -> Portrait:
    left_eye, right_eye = eyes_in_path

    def scale_for(original_size: tuple[int, int]) -> float:
        # Decoded at the portrait's own scale when that shrinks it (never enlarged here).
        eye_distance = math.dist(left_eye, right_eye) * original_size[0] / path_size[0]
        return PORTRAIT_EYE_DISTANCE * size / eye_distance

    loaded = load_image(path, scale_for)
    width, height = loaded.original_size
    if abs((width / height) / (path_size[0] / path_size[1]) - 1) > MAX_ASPECT_DIFFERENCE:
        raise _DifferentPicture(f"{width}x{height} is not the shape of {path_size[0]}x{path_size[1]}")
    # Path pixels -> source (upright original) pixels.
    fx, fy = width / path_size[0], height / path_size[1]
    eyes = np.array([[left_eye[0] * fx, left_eye[1] * fy], [right_eye[0] * fx, right_eye[1] * fy]])
    transform = portrait_transform((eyes[0, 0], eyes[0, 1]), (eyes[1, 0], eyes[1, 1]), size)
    rgb, valid = _warp(loaded, transform, size)
    x, y, w, h = face_box
    box = np.array([x * fx, y * fy, w * fx, h * fy]) * transform[0, 0]
    box[:2] += transform[:, 2]
    return Portrait(
        rgb=rgb,
        valid=valid,
        transform=transform,
        source=source,
        source_size=(width, height),
        eyes=(eyes @ transform[:, :2].T + transform[:, 2]).astype(np.float32),
        face_box=box.astype(np.float32),
    )


def _warp(loaded: LoadedPhoto, transform: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The window of the photo the transform names, resampled to size x size, and where it is valid."""
    width, height = loaded.original_size
    decoded = loaded.rgb
    # Source pixels -> decoded pixels, per axis (the decoded size was rounded).
    dx, dy = decoded.shape[1] / width, decoded.shape[0] / height
    on_decoded = np.array([[transform[0, 0] / dx, 0.0, transform[0, 2]], [0.0, transform[1, 1] / dy, transform[1, 2]]])
    # Only the window's part of the photo is resampled.
    inverse = cv2.invertAffineTransform(on_decoded)
    corners = np.array([[0, 0, 1], [size, size, 1]], np.float64) @ inverse.T
    left = max(0, math.floor(corners[0, 0]) - WINDOW_MARGIN)
    top = max(0, math.floor(corners[0, 1]) - WINDOW_MARGIN)
    right = min(decoded.shape[1], math.ceil(corners[1, 0]) + WINDOW_MARGIN)
    bottom = min(decoded.shape[0], math.ceil(corners[1, 1]) + WINDOW_MARGIN)
    window = np.ascontiguousarray(decoded[top:bottom, left:right])
    shifted = on_decoded.copy()
    shifted[:, 2] += on_decoded[:, :2] @ np.array([left, top], np.float64)
    # Black past the photo, never its stretched edge: nothing may be made up from the photo's border.
    rgb = cv2.warpAffine(window, shifted, (size, size), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_CONSTANT)
    # A pixel shows the photo when its centre maps inside it.
    columns = (np.arange(size) + 0.5 - transform[0, 2]) / transform[0, 0]
    rows = (np.arange(size) + 0.5 - transform[1, 2]) / transform[1, 1]
    valid = ((rows >= 0) & (rows <= height))[:, None] & ((columns >= 0) & (columns <= width))[None, :]
    return rgb, valid


def encode_jpeg(rgb: np.ndarray) -> bytes:
    """Baseline JPEG at quality 95, no metadata: the same pixels give the same bytes."""
    buffer = io.BytesIO()
    Image.fromarray(rgb).save(buffer, format="JPEG", quality=JPEG_QUALITY, subsampling=0, optimize=True)
    return buffer.getvalue()


def encode_png(gray: np.ndarray) -> bytes:
    """8-bit greyscale PNG, no metadata."""
    ok, data = cv2.imencode(".png", gray, [cv2.IMWRITE_PNG_COMPRESSION, 6])
    if not ok:
        raise RuntimeError("PNG encoding failed")
    return bytes(data)


def pack(blobs: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """Concatenated bytes (uint8, 1-D) and the offsets (int64, N + 1) that split them again."""
    offsets = np.zeros(len(blobs) + 1, np.int64)
    offsets[1:] = np.cumsum([len(blob) for blob in blobs])
    data = np.frombuffer(b"".join(blobs), np.uint8).copy()
    return data, offsets
