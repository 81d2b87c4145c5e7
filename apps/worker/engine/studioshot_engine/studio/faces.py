"""Finding the main face and its eyes with OpenCV's Haar cascades (shipped in the wheel, no downloads)."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

import cv2
import numpy as np

CASCADE_DIR: str = cv2.data.haarcascades  # type: ignore[attr-defined]  # in the wheel; its stubs omit cv2.data
Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x, y, width, height

# Faces are searched for on a copy this big: checked photos show a face at least 12% of the
# photo high, still ~35 px here, and each doubling of the side doubles the search time.
DETECTION_MAX_SIDE = 320
# The smallest face searched for, as a fraction of the shorter side (the cascade's box is tighter
# than the whole face, so this sits below the photo checks' 12%).
MIN_FACE_FRACTION = 0.09
# A detection counts as a face with at least this many overlapping hits: real faces in the
# fixtures gather 21-56, the cascade's false alarms 4-6.
MIN_FACE_VOTES = 10
# Eyes are searched for in the face resampled to this width, so one set of eye sizes fits all.
EYE_SEARCH_WIDTH = 160
EYE_SEARCH_TOP, EYE_SEARCH_BOTTOM = 0.15, 0.6  # band of the face box that holds the eyes
# Where the eyes sit in the cascade's face box (measured on the fixtures); used to pick the right
# candidate, and as the estimate when an eye is not found.
EXPECTED_EYE_X, EXPECTED_EYE_Y = (0.27, 0.73), 0.38
# A found pair is believed only if it looks like a pair of eyes.
EYE_DISTANCE_RANGE = (0.3, 0.7)  # of the face box width
MAX_EYE_ROLL_DEGREES = 25.0


@dataclass(frozen=True)
class Face:
    box: Box  # in the pixels of the image searched
    votes: int  # the cascade's overlapping hits: its confidence
    faces_found: int  # every face in the photo, this one included
    left_eye: Point  # image left (the subject's right eye)
    right_eye: Point
    eyes_found: int  # 0, 1 or 2; the others are estimated from the box

    @property
    def roll_degrees(self) -> float:
        return math.degrees(math.atan2(self.right_eye[1] - self.left_eye[1], self.right_eye[0] - self.left_eye[0]))


class FaceDetector:
    def __init__(self) -> None:
        self._face = _cascade("haarcascade_frontalface_alt2.xml")
        self._eye = _cascade("haarcascade_eye.xml")
        self._eye_with_glasses = _cascade("haarcascade_eye_tree_eyeglasses.xml")

    def find_main_face(self, gray: np.ndarray) -> Face | None:
        """The face with the most votes in a greyscale photo, or None when there is none."""
        scale = min(1.0, DETECTION_MAX_SIDE / max(gray.shape))
        small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else gray
        small = cv2.equalizeHist(small)
        min_side = max(20, round(MIN_FACE_FRACTION * min(small.shape)))
        boxes, votes = self._face.detectMultiScale2(
            small, scaleFactor=1.1, minNeighbors=3, minSize=(min_side, min_side)
        )
        faces = sorted(
            ((int(v), tuple(int(c) for c in b)) for b, v in zip(boxes, votes, strict=True) if v >= MIN_FACE_VOTES),
            reverse=True,  # most votes first; ties broken by position, so the pick never depends on order
        )
        if not faces:
            return None
        best_votes, (x, y, w, h) = faces[0]
        box = (x / scale, y / scale, w / scale, h / scale)
        left_eye, right_eye, eyes_found = self._find_eyes(gray, box)
        return Face(box, best_votes, len(faces), left_eye, right_eye, eyes_found)

    def _find_eyes(self, gray: np.ndarray, box: Box) -> tuple[Point, Point, int]:
        """Each eye is searched for in its own half of the face, nearest to where eyes usually are."""
        x, y, w, h = box
        expected = [(x + fraction * w, y + EXPECTED_EYE_Y * h) for fraction in EXPECTED_EYE_X]
        origin_x, origin_y = max(0, round(x)), max(0, round(y + EYE_SEARCH_TOP * h))
        band = gray[origin_y : round(y + EYE_SEARCH_BOTTOM * h), origin_x : round(x + w)]
        if band.size == 0:
            return expected[0], expected[1], 0
        zoom = EYE_SEARCH_WIDTH / band.shape[1]
        band = cv2.equalizeHist(cv2.resize(band, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_AREA))
        middle = band.shape[1] // 2
        found: list[Point | None] = []
        for (pixels, offset), target in zip(((band[:, :middle], 0), (band[:, middle:], middle)), expected, strict=True):
            eye = self._best_eye(pixels, ((target[0] - origin_x) * zoom - offset, (target[1] - origin_y) * zoom))
            found.append(None if eye is None else (origin_x + (eye[0] + offset) / zoom, origin_y + eye[1] / zoom))
        return _believable_pair(found[0], found[1], expected, box)

    def _best_eye(self, half: np.ndarray, target: Point) -> Point | None:
        for cascade in (self._eye, self._eye_with_glasses):
            boxes = cascade.detectMultiScale(half, scaleFactor=1.1, minNeighbors=3, minSize=(14, 14), maxSize=(64, 64))
            if len(boxes):
                centres = sorted((bx + bw / 2, by + bh / 2) for bx, by, bw, bh in boxes)
                return min(centres, key=lambda c: math.dist(c, target))
        return None


def _believable_pair(
    left: Point | None, right: Point | None, expected: list[Point], box: Box
) -> tuple[Point, Point, int]:
    width = box[2]
    if left is not None and right is not None:
        distance = math.dist(left, right) / width
        roll = abs(math.degrees(math.atan2(right[1] - left[1], right[0] - left[0])))
        if EYE_DISTANCE_RANGE[0] <= distance <= EYE_DISTANCE_RANGE[1] and roll <= MAX_EYE_ROLL_DEGREES:
            return left, right, 2
        return expected[0], expected[1], 0
    centre_x = box[0] + width / 2
    if left is not None:  # the missing eye mirrors the found one across the face's middle
        return left, (2 * centre_x - left[0], left[1]), 1
    if right is not None:
        return (2 * centre_x - right[0], right[1]), right, 1
    return expected[0], expected[1], 0


def _cascade(name: str) -> cv2.CascadeClassifier:
    cascade = cv2.CascadeClassifier(os.path.join(CASCADE_DIR, name))
    if cascade.empty():
        raise RuntimeError(f"OpenCV's {name} did not load from {CASCADE_DIR}")
    return cascade
