"""How good a photo is as a reference: sharpness, face size, frontal-ness and exposure, each 0..1."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .alignment import CANONICAL_EYE_DISTANCE
from .regions import face_pixels

# Sharpness is measured on the face resampled to this square, so photos of any size compare.
SHARPNESS_SAMPLE_SIZE = 128
# Variance of the Laplacian at which a face counts as fully sharp (the sharp 512 px portrait scores
# about 200), and below which it is too blurred to learn from: the fixtures' sharp copies score
# 108-208 (the lowest rotated and resampled), their 2 px blur 15. 50 is 2x from the one, 3x from the other.
FULLY_SHARP = 200.0
MIN_SHARPNESS = 50.0
# Below this many pixels between the eyes the crop would be a 3.5x enlargement of too little face
# (the photo checks' 80 px face is about 32 px between the eyes; the 256 px fixture has 23).
MIN_EYE_DISTANCE_PX = 30.0
# Mean lightness (CIE L*) of the face: well exposed in this range, unusable outside the outer one.
GOOD_FACE_LIGHTNESS = (50.0, 82.0)
USABLE_FACE_LIGHTNESS = (15.0, 97.0)
# How much found eyes say about a frontal face: two found, one, or none (estimated from the box).
EYES_FOUND_CONFIDENCE = {2: 1.0, 1: 0.6, 0: 0.3}
# Mirror symmetry counted as fully frontal: frontal fixtures score 0.42-0.56, a three-quarter view 0.11.
FRONTAL_SYMMETRY = 0.5
SYMMETRY_SAMPLE_SIZE = 32  # coarse: the symmetry of the face's shape, not of its pores
WEIGHTS = {"sharpness": 0.35, "size": 0.2, "frontality": 0.3, "exposure": 0.15}


@dataclass(frozen=True)
class Quality:
    eye_distance_px: float  # in the photo the crop came from
    sharpness: float  # variance of the Laplacian of the contrast-normalised face
    face_lightness: float  # mean L* of the face
    sharpness_score: float
    size_score: float
    frontality_score: float
    exposure_score: float

    @property
    def score(self) -> float:
        return (
            WEIGHTS["sharpness"] * self.sharpness_score
            + WEIGHTS["size"] * self.size_score
            + WEIGHTS["frontality"] * self.frontality_score
            + WEIGHTS["exposure"] * self.exposure_score
        )

    def rejection(self) -> str | None:
        """Why the photo cannot be used at all, or None."""
        if self.eye_distance_px < MIN_EYE_DISTANCE_PX:
            return "face_too_small"
        if self.sharpness < MIN_SHARPNESS:
            return "blurry"
        if not USABLE_FACE_LIGHTNESS[0] <= self.face_lightness <= USABLE_FACE_LIGHTNESS[1]:
            return "too_dark" if self.face_lightness < USABLE_FACE_LIGHTNESS[0] else "too_bright"
        return None


def measure_quality(
    crop_gray: np.ndarray, crop_lightness: np.ndarray, eye_distance_px: float, eyes_found: int
) -> Quality:
    """Scores an aligned crop; `eye_distance_px` is the eye distance in the photo it came from."""
    face = cv2.resize(
        face_pixels(crop_gray), (SHARPNESS_SAMPLE_SIZE, SHARPNESS_SAMPLE_SIZE), interpolation=cv2.INTER_AREA
    )
    sharpness = _laplacian_variance(_normalise_contrast(face))
    lightness = float(face_pixels(crop_lightness).mean())
    return Quality(
        eye_distance_px=eye_distance_px,
        sharpness=sharpness,
        face_lightness=lightness,
        sharpness_score=_clamp(sharpness / FULLY_SHARP),
        # Below the crop's own eye distance the crop is an enlargement, and softer for it.
        size_score=_clamp(eye_distance_px / CANONICAL_EYE_DISTANCE),
        frontality_score=EYES_FOUND_CONFIDENCE[eyes_found] * _clamp(_mirror_symmetry(face) / FRONTAL_SYMMETRY),
        exposure_score=_exposure_score(lightness),
    )


def _normalise_contrast(gray: np.ndarray) -> np.ndarray:
    """Stretches the 1st-99th percentile to 0-255: a dim photo is not a soft one."""
    low, high = np.percentile(gray, (1, 99))
    stretched = (gray.astype(np.float32) - low) * (255.0 / max(high - low, 1.0))
    normalised: np.ndarray = np.clip(stretched, 0, 255).astype(np.uint8)
    return normalised


def _laplacian_variance(gray: np.ndarray) -> float:
    # ksize=1: the 4-neighbour kernel, as the worker's photo checks use.
    return float(cv2.Laplacian(gray, cv2.CV_64F, ksize=1)[1:-1, 1:-1].var())


def _mirror_symmetry(face: np.ndarray) -> float:
    """Correlation of the face with its mirror image: high for a frontal face, low as it turns."""
    pixels = cv2.resize(face, (SYMMETRY_SAMPLE_SIZE, SYMMETRY_SAMPLE_SIZE), interpolation=cv2.INTER_AREA).astype(
        np.float64
    )
    # Side light makes one half brighter without turning the face: its left-right trend is removed.
    columns = np.arange(SYMMETRY_SAMPLE_SIZE)
    slope, intercept = np.polyfit(columns, pixels.mean(axis=0), 1)
    pixels -= slope * columns + intercept
    mirrored = pixels[:, ::-1]
    denominator = float(np.sqrt((pixels * pixels).sum() * (mirrored * mirrored).sum()))
    return float((pixels * mirrored).sum() / denominator) if denominator else 0.0


def _exposure_score(lightness: float) -> float:
    (good_low, good_high), (usable_low, usable_high) = GOOD_FACE_LIGHTNESS, USABLE_FACE_LIGHTNESS
    if lightness < good_low:
        return _clamp((lightness - usable_low) / (good_low - usable_low))
    if lightness > good_high:
        return _clamp((usable_high - lightness) / (usable_high - good_high))
    return 1.0


def _clamp(value: float) -> float:
    return min(1.0, max(0.0, value))
