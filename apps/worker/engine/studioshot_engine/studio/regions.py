"""Face regions in the aligned crop. Alignment puts every face in the same place, so these are fixed."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from .alignment import CANONICAL_EYE_DISTANCE, CANONICAL_LEFT_EYE, CANONICAL_RIGHT_EYE, CROP_SIZE

EYE_Y = CANONICAL_LEFT_EYE[1]
MIDLINE_X = (CANONICAL_LEFT_EYE[0] + CANONICAL_RIGHT_EYE[0]) / 2
_IOD = CANONICAL_EYE_DISTANCE

# Brows to mouth, cheek to cheek: the part of the face that carries the likeness. Symmetric about
# the midline, so mirroring it compares the two halves of the face.
FACE_RECT = (
    round(CANONICAL_LEFT_EYE[0] - 0.6 * _IOD),
    round(EYE_Y - 0.6 * _IOD),
    round(CANONICAL_RIGHT_EYE[0] + 0.6 * _IOD) - round(CANONICAL_LEFT_EYE[0] - 0.6 * _IOD),
    round(2.1 * _IOD),
)
# Forehead to chin, inside the cheeks: mostly skin.
SKIN_ELLIPSE_CENTRE = (round(MIDLINE_X), round(EYE_Y + 0.55 * _IOD))
SKIN_ELLIPSE_AXES = (round(0.95 * _IOD), round(1.25 * _IOD))
EYE_RADIUS = round(0.32 * _IOD)
# The whole head with its hair, and the neck: what a studio composite keeps.
HEAD_ELLIPSE_CENTRE = (round(MIDLINE_X), round(EYE_Y + 0.1 * _IOD))
HEAD_ELLIPSE_AXES = (round(1.55 * _IOD), round(2.05 * _IOD))
NECK_RECT = (round(MIDLINE_X - 0.75 * _IOD), round(EYE_Y + 1.2 * _IOD), round(1.5 * _IOD), round(1.3 * _IOD))
# Inside the face for sure, whatever the hair does.
INNER_FACE_ELLIPSE_AXES = (round(0.75 * _IOD), round(1.05 * _IOD))


def face_pixels(image: np.ndarray) -> np.ndarray:
    x, y, w, h = FACE_RECT
    return image[y : y + h, x : x + w]


@cache
def skin_area() -> np.ndarray:
    """Where skin is expected (bool, crop sized): the face ellipse without the eyes and brows."""
    area = np.zeros((CROP_SIZE, CROP_SIZE), np.uint8)
    cv2.ellipse(area, SKIN_ELLIPSE_CENTRE, SKIN_ELLIPSE_AXES, 0, 0, 360, 1, -1)
    for eye in (CANONICAL_LEFT_EYE, CANONICAL_RIGHT_EYE):
        cv2.circle(area, (round(eye[0]), round(eye[1] - 0.1 * _IOD)), EYE_RADIUS, 0, -1)
    mask = area.astype(bool)
    mask.flags.writeable = False  # shared by every caller
    return mask


@cache
def face_halves() -> dict[str, np.ndarray]:
    """The crop split four ways (bool, crop sized): left and right of the face's midline, above and
    below the middle of the skin area."""
    columns, rows = np.meshgrid(np.arange(CROP_SIZE), np.arange(CROP_SIZE))
    halves = {
        "left": columns < MIDLINE_X,
        "right": columns >= MIDLINE_X,
        "upper": rows < SKIN_ELLIPSE_CENTRE[1],
        "lower": rows >= SKIN_ELLIPSE_CENTRE[1],
    }
    for half in halves.values():
        half.flags.writeable = False
    return halves
