"""The colour grade, on the finished 8-bit image: saturation and black and white as one colour
matrix, then per-channel tone curves (temperature, tint, contrast, fade) as lookup tables."""

from __future__ import annotations

import math

import cv2
import numpy as np

from .look import Look

LUMA = np.array([0.2126, 0.7152, 0.0722], np.float32)
CONTRAST_PIVOT = 0.46


def grade(image: np.ndarray, look: Look) -> np.ndarray:
    """`image`: (S, S, 3) uint8 sRGB; returns the graded copy."""
    saturation = look.saturation * (1.0 - look.monochrome)
    if abs(saturation - 1.0) > 1e-3:
        matrix = saturation * np.eye(3, dtype=np.float32) + (1.0 - saturation) * np.outer(np.ones(3, np.float32), LUMA)
        image = cv2.transform(image, matrix)
    return cv2.LUT(image, curves(look))


def curves(look: Look) -> np.ndarray:
    """(256, 1, 3) uint8 lookup table."""
    x = np.linspace(0.0, 1.0, 256)
    warm, tint = look.temperature, look.tint
    gains = np.array(
        [1.0 + 0.075 * warm + 0.025 * tint, 1.0 + 0.008 * warm - 0.05 * tint, 1.0 - 0.1 * warm + 0.025 * tint]
    )
    gains /= max(1.0, float(gains.max()))
    table = np.empty((256, 3))
    for channel in range(3):
        y = np.clip(x * gains[channel], 0.0, 1.0)
        y = _contrast(y, look.contrast)
        y = look.fade + (1.0 - look.fade - 0.3 * look.fade) * y
        table[:, channel] = y
    lut: np.ndarray = np.clip(table * 255.0 + 0.5, 0, 255).astype(np.uint8).reshape(256, 1, 3)
    return lut


def _contrast(y: np.ndarray, contrast: float) -> np.ndarray:
    """An S-curve through the pivot with slope `contrast` there, ends fixed; below 1, a straight
    flattening (raised blacks, lowered whites) with the pivot fixed."""
    if contrast <= 1.0:
        result: np.ndarray = CONTRAST_PIVOT + (y - CONTRAST_PIVOT) * contrast
        return result
    # A logistic curve normalised to 0..1, steep enough to have the slope asked for at the pivot.
    k = _logistic_steepness(contrast)

    def logistic(v: np.ndarray | float) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-k * (np.asarray(v) - CONTRAST_PIVOT)))

    low, high = logistic(0.0), logistic(1.0)
    curved: np.ndarray = (logistic(y) - low) / (high - low)
    return curved


def _logistic_steepness(contrast: float) -> float:
    # Slope at the pivot of the normalised logistic: (k / 4) / (l(1) - l(0)); solved by bisection.
    def slope(k: float) -> float:
        low = 1.0 / (1.0 + math.exp(k * CONTRAST_PIVOT))
        high = 1.0 / (1.0 + math.exp(-k * (1.0 - CONTRAST_PIVOT)))
        return (k / 4.0) / (high - low)

    lo, hi = 1e-3, 40.0
    for _ in range(60):
        middle = (lo + hi) / 2
        if slope(middle) < contrast:
            lo = middle
        else:
            hi = middle
    return (lo + hi) / 2
