"""SSIM (Wang, Bovik, Sheikh & Simoncelli 2004) with the paper's settings: an 11x11 Gaussian window
of sigma 1.5, K1 = 0.01, K2 = 0.03, on 8-bit greyscale; here on 256 px copies."""

from __future__ import annotations

import cv2
import numpy as np

COMPARE_SIDE = 256
C1 = (0.01 * 255) ** 2
C2 = (0.03 * 255) ** 2


def grey_copy(image: np.ndarray, side: int = COMPARE_SIDE) -> np.ndarray:
    """A (side, side) float64 greyscale copy of an RGB uint8 image."""
    grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY) if image.ndim == 3 else image
    small = cv2.resize(grey, (side, side), interpolation=cv2.INTER_AREA)
    result: np.ndarray = small.astype(np.float64)
    return result


def ssim(a: np.ndarray, b: np.ndarray) -> float:
    """Mean SSIM of two same-size greyscale float images (0..255), over the window's valid area."""

    def window(x: np.ndarray) -> np.ndarray:
        blurred: np.ndarray = cv2.GaussianBlur(x, (11, 11), 1.5, borderType=cv2.BORDER_REFLECT)[5:-5, 5:-5]
        return blurred

    mu_a, mu_b = window(a), window(b)
    var_a = window(a * a) - mu_a * mu_a
    var_b = window(b * b) - mu_b * mu_b
    covariance = window(a * b) - mu_a * mu_b
    numerator = (2 * mu_a * mu_b + C1) * (2 * covariance + C2)
    denominator = (mu_a * mu_a + mu_b * mu_b + C1) * (var_a + var_b + C2)
    return float(np.mean(numerator / denominator))


def image_ssim(a: np.ndarray, b: np.ndarray, side: int = COMPARE_SIDE) -> float:
    return ssim(grey_copy(a, side), grey_copy(b, side))
