"""Aligned face crops: eyes level, at the same place and the same distance apart in every crop."""

from __future__ import annotations

import math

import cv2
import numpy as np

from .faces import Box, Point

CROP_SIZE = 512
# Eyes land here in every crop: 21% of the width apart and a little above the middle, which leaves
# room for the hair above and the chin and neck below.
CANONICAL_LEFT_EYE: Point = (0.395 * CROP_SIZE, 0.48 * CROP_SIZE)
CANONICAL_RIGHT_EYE: Point = (0.605 * CROP_SIZE, 0.48 * CROP_SIZE)
CANONICAL_EYE_DISTANCE = CANONICAL_RIGHT_EYE[0] - CANONICAL_LEFT_EYE[0]


def eye_alignment(left_eye: Point, right_eye: Point) -> np.ndarray:
    """The similarity transform (2x3) taking the photo's eyes to the canonical eyes."""
    dx, dy = right_eye[0] - left_eye[0], right_eye[1] - left_eye[1]
    scale = CANONICAL_EYE_DISTANCE / math.hypot(dx, dy)
    angle = -math.atan2(dy, dx)
    cos, sin = scale * math.cos(angle), scale * math.sin(angle)
    transform = np.array([[cos, -sin, 0.0], [sin, cos, 0.0]])
    transform[:, 2] = np.array(CANONICAL_LEFT_EYE) - transform[:, :2] @ np.array(left_eye)
    return transform


def transform_scale(transform: np.ndarray) -> float:
    return float(math.hypot(transform[0, 0], transform[1, 0]))


def align(rgb: np.ndarray, transform: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The aligned crop, and where it shows the photo (255) rather than its stretched border (0)."""
    scale = transform_scale(transform)
    if scale < 1:
        # Shrink first with area averaging: warpAffine alone would alias a big face.
        rgb = cv2.resize(rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        transform = np.hstack([transform[:, :2] / scale, transform[:, 2:]])
    size = (CROP_SIZE, CROP_SIZE)
    # Stretched edges rather than black: a crop reaching past the photo still blends in.
    crop = cv2.warpAffine(rgb, transform, size, flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)
    inside = np.full(rgb.shape[:2], 255, np.uint8)
    coverage = cv2.warpAffine(inside, transform, size, flags=cv2.INTER_NEAREST, borderValue=0)
    return crop, coverage


def transform_box(box: Box, transform: np.ndarray) -> Box:
    """The axis-aligned bounds of a box after the transform."""
    x, y, w, h = box
    corners = np.array([[x, y, 1], [x + w, y, 1], [x, y + h, 1], [x + w, y + h, 1]])
    moved = corners @ transform.T
    (left, top), (right, bottom) = moved.min(axis=0), moved.max(axis=0)
    return float(left), float(top), float(right - left), float(bottom - top)
