"""Filters the renderer shares."""

from __future__ import annotations

import cv2
import numpy as np


def guided_filter(guide: np.ndarray, source: np.ndarray, radius: int, epsilon: float) -> np.ndarray:
    """He et al.'s guided filter with a grey guide: `source` smoothed, edges following `guide`."""
    size = (2 * radius + 1, 2 * radius + 1)

    def box(x: np.ndarray) -> np.ndarray:
        return cv2.boxFilter(x, -1, size, borderType=cv2.BORDER_REFLECT)

    mean_guide, mean_source = box(guide), box(source)
    variance = box(guide * guide) - mean_guide * mean_guide
    covariance = box(guide * source) - mean_guide * mean_source
    a = covariance / (variance + epsilon)
    b = mean_source - a * mean_guide
    result: np.ndarray = box(a) * guide + box(b)
    return result


def wide_blur(image: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur; a wide one is done on a smaller copy (the result is smooth anyway)."""
    if sigma <= 3.0:
        blurred: np.ndarray = cv2.GaussianBlur(image, (0, 0), sigma)
        return blurred
    factor = sigma / 2.0
    height, width = image.shape[:2]
    small = cv2.resize(
        image, (max(1, round(width / factor)), max(1, round(height / factor))), interpolation=cv2.INTER_AREA
    )
    small = cv2.GaussianBlur(small, (0, 0), 2.0)
    result: np.ndarray = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    return result
