"""A soft matte of the head (face, hair, neck) in an aligned crop, for compositing onto a backdrop.

GrabCut separates the head from its background by colour, seeded by where alignment guarantees
the face to be; when its answer is implausible the seeded head ellipse and neck stand in.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

import cv2
import numpy as np

from .alignment import CROP_SIZE
from .regions import HEAD_ELLIPSE_AXES, HEAD_ELLIPSE_CENTRE, INNER_FACE_ELLIPSE_AXES, NECK_RECT, SKIN_ELLIPSE_CENTRE

MatteMethod = Literal["grabcut", "ellipse"]

FOREGROUND = (cv2.GC_FGD, cv2.GC_PR_FGD)
# GrabCut runs on a small copy: the head's outline needs little detail, and time grows with pixels.
SEGMENT_SIZE = 160
SEGMENT_ITERATIONS = 3
# The crop's top and upper side edges are background: the head never reaches them.
BACKGROUND_BORDER = 0.03  # of the crop
BACKGROUND_SIDES_DOWN_TO = 0.6  # of the crop's height
# A plausible head covers this fraction of the seeded head area (ellipse and neck).
PLAUSIBLE_COVERAGE = (0.45, 1.6)
FEATHER_SIGMA = 0.008 * CROP_SIZE  # soft edge, a few pixels wide
# GrabCut's colour models start from k-means with OpenCV's global random generator.
SEED = 20261122


def head_matte(crop: np.ndarray, coverage: np.ndarray) -> tuple[np.ndarray, MatteMethod]:
    """uint8 matte (255 = head) of a crop, and how it was made; 0 wherever the crop shows no photo."""
    small = cv2.resize(crop, (SEGMENT_SIZE, SEGMENT_SIZE), interpolation=cv2.INTER_AREA)
    labels = cv2.resize(_seeds(), (SEGMENT_SIZE, SEGMENT_SIZE), interpolation=cv2.INTER_NEAREST)
    seeded = np.isin(labels, FOREGROUND)
    cv2.setRNGSeed(SEED)
    background_model, foreground_model = np.zeros((1, 65)), np.zeros((1, 65))
    no_rect = (0, 0, 0, 0)  # seeded by the labels (GC_INIT_WITH_MASK), not by a rectangle
    cv2.grabCut(small, labels, no_rect, background_model, foreground_model, SEGMENT_ITERATIONS, cv2.GC_INIT_WITH_MASK)
    head = np.isin(labels, FOREGROUND)
    method: MatteMethod = "grabcut"
    if not PLAUSIBLE_COVERAGE[0] <= head.sum() / seeded.sum() <= PLAUSIBLE_COVERAGE[1]:
        head, method = seeded, "ellipse"
    matte = cv2.resize(head.astype(np.uint8) * 255, (CROP_SIZE, CROP_SIZE), interpolation=cv2.INTER_LINEAR)
    matte = cv2.GaussianBlur(matte, (0, 0), FEATHER_SIGMA)
    return np.minimum(matte, coverage), method


@cache
def _seeds() -> np.ndarray:
    """GrabCut's starting labels at crop size: sure face, probable head and neck, probable and sure
    background. Also the fallback matte (the head ellipse and neck)."""
    seeds = np.full((CROP_SIZE, CROP_SIZE), cv2.GC_PR_BGD, np.uint8)
    cv2.ellipse(seeds, HEAD_ELLIPSE_CENTRE, HEAD_ELLIPSE_AXES, 0, 0, 360, cv2.GC_PR_FGD, -1)
    x, y, w, h = NECK_RECT
    cv2.rectangle(seeds, (x, y), (x + w, y + h), cv2.GC_PR_FGD, -1)
    cv2.ellipse(seeds, SKIN_ELLIPSE_CENTRE, INNER_FACE_ELLIPSE_AXES, 0, 0, 360, cv2.GC_FGD, -1)
    border = round(BACKGROUND_BORDER * CROP_SIZE)
    sides_to = round(BACKGROUND_SIDES_DOWN_TO * CROP_SIZE)
    seeds[:border, :] = cv2.GC_BGD
    seeds[:sides_to, :border] = cv2.GC_BGD
    seeds[:sides_to, -border:] = cv2.GC_BGD
    seeds.flags.writeable = False  # shared by every call
    return seeds
