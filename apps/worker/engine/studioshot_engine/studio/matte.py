"""Mattes: the person in a head-and-shoulders portrait, and the head in an aligned face crop.

The person matte (`person_matte`, the portraits of format 2) comes from MediaPipe's selfie
segmentation model (`selfie_segmentation.tflite`, run by the TFLite runtime `ai-edge-litert`; the
file is taken from the mediapipe 0.10.21 wheel at install time, scripts/lib.sh), at 256x256, on the
portrait and its mirror image. Only the part connected to the face is kept, the inner face is
always in, and a colour guided filter (He et al.) lifts it to the portrait's full resolution so the
edge follows the hair rather than the model's coarse grid. Round the head, where loose strands of
hair lie in front of the background, the alpha is then read from the colours themselves: each
pixel's colour as a mix of the hair's colour nearby and the background's colour nearby (projected
on the line between them), trusted as far as the two colours differ.

The head matte (`head_matte`, the aligned crops of format 1) is GrabCut, seeded by where alignment
guarantees the face to be; when its answer is implausible the seeded head ellipse and neck stand in.
"""

from __future__ import annotations

import math
import os
import sys
from functools import cache
from pathlib import Path
from typing import Literal

import cv2
import numpy as np

from .alignment import CROP_SIZE
from .regions import HEAD_ELLIPSE_AXES, HEAD_ELLIPSE_CENTRE, INNER_FACE_ELLIPSE_AXES, NECK_RECT, SKIN_ELLIPSE_CENTRE

MODEL_DIR_ENV = "ENGINE_MODEL_DIR"
SEGMENTATION_MODEL_FILE = "selfie_segmentation.tflite"
SEGMENTATION_INPUT = 256
# The subject: the segmented parts touching the face, grown by this much (of the 256 px grid) so
# the guided filter can still move the edge outwards onto hair the model cut short.
SUBJECT_GROWTH = 6
# The guided filter runs on a copy this big (its coefficients are then applied at full size), with
# this window radius and regularisation (colour in 0..1): small enough to follow strands of hair,
# large enough to straddle the model's soft edge.
GUIDE_SIZE = 640
GUIDE_RADIUS = 8
GUIDE_EPSILON = 1e-4
# The filtered edge is steepened this much about 0.5: the model's edge is a ramp a few of its
# pixels wide, the hair's edge is not.
EDGE_GAIN = 2.0
# The strands: within this reach outside the filtered edge (eye distances), round the head (above
# the chin line, within the head's width), the alpha comes from the colour mix. Solid person and
# clear background, for the colours nearby: the filtered alpha above and below these.
STRAND_REACH = 0.45
STRAND_HEAD_BELOW_EYES = 1.0
STRAND_HEAD_HALF_WIDTH = 2.6
STRAND_SOLID, STRAND_CLEAR = 0.97, 0.03
# The colours nearby: Gaussian averages of the solid person and the clear background this wide
# (of the side), the wider where the narrower finds none.
STRAND_COLOUR_SIGMAS = (0.01, 0.04)
STRAND_COLOUR_REDUCTION = 4
# A mix below this is the background's own variation, not hair (the rest is stretched to 0..1).
STRAND_FLOOR = 0.18
# The mix is trusted fully where the two colours differ by this much (RGB distance, 0..1).
STRAND_CONTRAST = 0.12
# Inside the face for sure (in eye distances from the eyes' midpoint): never cut away.
INNER_FACE_CENTRE_DOWN = 0.55
INNER_FACE_AXES = (0.7, 1.0)


def model_dir() -> Path:
    """Where the engine's model files are: ENGINE_MODEL_DIR, else the virtualenv's share folder."""
    if configured := os.environ.get(MODEL_DIR_ENV):
        return Path(configured)
    for prefix in (Path(sys.prefix), Path(__file__).resolve().parents[2] / ".venv"):
        if (prefix / "share" / "studioshot-models").is_dir():
            return prefix / "share" / "studioshot-models"
    return Path(sys.prefix) / "share" / "studioshot-models"


class PersonSegmenter:
    """MediaPipe's selfie segmentation (general model, 256x256 RGB in 0..1, person probability out)."""

    def __init__(self, model_path: Path | None = None) -> None:
        path = model_path or model_dir() / SEGMENTATION_MODEL_FILE
        if not path.is_file():
            raise RuntimeError(
                f"the person segmentation model {path} is missing: run scripts/lib.sh's ensure_engine "
                f"(npm start or npm test does), or set {MODEL_DIR_ENV}"
            )
        # Imported here: only an engine that segments pays for the runtime.
        from ai_edge_litert.interpreter import Interpreter  # noqa: PLC0415

        # One thread: the same input gives the same output, and the engine runs one job at a time.
        self._interpreter = Interpreter(model_path=str(path), num_threads=1)
        self._interpreter.allocate_tensors()
        self._input = self._interpreter.get_input_details()[0]["index"]
        self._output = self._interpreter.get_output_details()[0]["index"]

    def probabilities(self, rgb: np.ndarray) -> np.ndarray:
        """float32 (256, 256): the chance each pixel shows a person, averaged with the mirror image's."""
        small = cv2.resize(rgb, (SEGMENTATION_INPUT, SEGMENTATION_INPUT), interpolation=cv2.INTER_AREA)
        tensor = small.astype(np.float32) / 255.0
        straight = self._run(tensor)
        mirrored = self._run(np.ascontiguousarray(tensor[:, ::-1]))[:, ::-1]
        averaged: np.ndarray = (straight + mirrored) / 2
        return averaged

    def _run(self, tensor: np.ndarray) -> np.ndarray:
        self._interpreter.set_tensor(self._input, tensor[None])
        self._interpreter.invoke()
        output: np.ndarray = self._interpreter.get_tensor(self._output)[0, :, :, 0].copy()
        return output


def person_matte(segmenter: PersonSegmenter, rgb: np.ndarray, valid: np.ndarray, eyes: np.ndarray) -> np.ndarray:
    """uint8 matte (255 = the person: hair, face, neck, shoulders, clothes) of a square portrait,
    at its full size; 0 where it does not show the photo. `eyes`: left and right (x, y) in pixels."""
    size = rgb.shape[0]
    probability = _subject(segmenter.probabilities(rgb), eyes * (SEGMENTATION_INPUT / size))
    alpha = _guided_upsample(rgb, probability)
    alpha = np.maximum(alpha, _inner_face(size, eyes))
    shown = valid.astype(np.float32)
    alpha = _strands(rgb, alpha * shown, shown, eyes)
    alpha *= shown
    matte: np.ndarray = np.clip(alpha * 255 + 0.5, 0, 255).astype(np.uint8)
    return matte


def _subject(probability: np.ndarray, eyes: np.ndarray) -> np.ndarray:
    """Only what is connected to the face: someone beside or behind the subject falls away."""
    person = (probability > 0.5).astype(np.uint8)
    count, labels = cv2.connectedComponents(person, connectivity=8)
    if count <= 1:
        return probability
    face = np.zeros_like(person)
    distance = float(np.linalg.norm(eyes[1] - eyes[0]))
    _ellipse(face, eyes, distance, 1)
    touching = np.unique(labels[(face > 0) & (person > 0)])
    touching = touching[touching > 0]
    if len(touching) == 0:
        return probability  # the model missed the face: trust it no further than that
    kept = np.isin(labels, touching).astype(np.uint8)
    grown = cv2.dilate(kept, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * SUBJECT_GROWTH + 1,) * 2))
    allowed = cv2.GaussianBlur(grown.astype(np.float32), (0, 0), SUBJECT_GROWTH / 2)
    subject: np.ndarray = probability * allowed
    return subject


def _inner_face(size: int, eyes: np.ndarray) -> np.ndarray:
    face = np.zeros((size, size), np.uint8)
    _ellipse(face, eyes, float(np.linalg.norm(eyes[1] - eyes[0])), 255, cv2.LINE_AA)
    inner: np.ndarray = face.astype(np.float32) / 255
    return inner


def _ellipse(canvas: np.ndarray, eyes: np.ndarray, distance: float, value: int, line: int = cv2.LINE_8) -> None:
    """The inner face (forehead to chin, inside the cheeks), turned with the eyes."""
    dx, dy = eyes[1] - eyes[0]
    angle = math.atan2(dy, dx)
    down = np.array([-math.sin(angle), math.cos(angle)])  # perpendicular to the eye line, towards the chin
    centre = (eyes[0] + eyes[1]) / 2 + INNER_FACE_CENTRE_DOWN * distance * down
    axes = (max(1, round(INNER_FACE_AXES[0] * distance)), max(1, round(INNER_FACE_AXES[1] * distance)))
    cv2.ellipse(canvas, (round(centre[0]), round(centre[1])), axes, math.degrees(angle), 0, 360, value, -1, line)


def _strands(rgb: np.ndarray, alpha: np.ndarray, valid: np.ndarray, eyes: np.ndarray) -> np.ndarray:
    """Round the head, the alpha of loose hair from the colour mix: each pixel between the hair's
    colour nearby (F) and the background's (B), alpha = (I - B).(F - B) / |F - B|^2, blended with the
    filtered alpha by how far F and B differ."""
    size = rgb.shape[0]
    image = rgb.astype(np.float32) / 255
    solid = (alpha > STRAND_SOLID).astype(np.float32)
    clear = ((alpha < STRAND_CLEAR) & (valid > 0)).astype(np.float32)
    hair, hair_weight = _colour_nearby(image, solid, size)
    back, back_weight = _colour_nearby(image, clear, size)
    difference = hair - back
    contrast = np.einsum("ijc,ijc->ij", difference, difference)
    mix = np.einsum("ijc,ijc->ij", image - back, difference) / np.maximum(contrast, 1e-6)
    mix = np.clip((mix - STRAND_FLOOR) / (1 - STRAND_FLOOR), 0, 1)
    trust = np.clip(np.sqrt(contrast) / STRAND_CONTRAST, 0, 1) * (hair_weight > 0.01) * (back_weight > 0.01)
    distance = float(np.linalg.norm(eyes[1] - eyes[0]))
    middle = eyes.mean(axis=0)
    outside = cv2.distanceTransform((alpha < 0.5).astype(np.uint8), cv2.DIST_L2, 5)
    rows, columns = np.ogrid[:size, :size]
    head = (rows < middle[1] + STRAND_HEAD_BELOW_EYES * distance) & (
        np.abs(columns - middle[0]) < STRAND_HEAD_HALF_WIDTH * distance
    )
    band = (outside <= STRAND_REACH * distance) & head & (alpha < STRAND_SOLID)
    result: np.ndarray = np.where(band, trust * mix + (1 - trust) * alpha, alpha).astype(np.float32)
    return result


def _colour_nearby(image: np.ndarray, where: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The mean colour of `where`'s pixels round each pixel, and how much of it there is (worked
    out on a copy STRAND_COLOUR_REDUCTION times smaller: both change slowly)."""
    small_side = max(16, size // STRAND_COLOUR_REDUCTION)
    small_image = cv2.resize(image, (small_side, small_side), interpolation=cv2.INTER_AREA)
    small_where = cv2.resize(where, (small_side, small_side), interpolation=cv2.INTER_AREA)
    colour: np.ndarray | None = None
    weight: np.ndarray | None = None
    for fraction in STRAND_COLOUR_SIGMAS:
        sigma = fraction * small_side
        this_weight = cv2.GaussianBlur(small_where, (0, 0), sigma)
        this_colour = (
            cv2.GaussianBlur(small_image * small_where[..., None], (0, 0), sigma)
            / np.maximum(this_weight, 1e-6)[..., None]
        )
        if colour is None or weight is None:
            colour, weight = this_colour, this_weight
        else:
            missing = weight < 0.02
            colour = np.where(missing[..., None], this_colour, colour)
            weight = np.where(missing, this_weight, weight)
    assert colour is not None and weight is not None
    full_colour: np.ndarray = cv2.resize(colour, (size, size), interpolation=cv2.INTER_LINEAR)
    full_weight: np.ndarray = cv2.resize(weight, (size, size), interpolation=cv2.INTER_LINEAR)
    return full_colour, full_weight


def _guided_upsample(rgb: np.ndarray, probability: np.ndarray) -> np.ndarray:
    """The coarse probability, edge-aligned to the portrait: a colour guided filter on a GUIDE_SIZE
    copy, its linear coefficients applied to the full-size portrait (the fast guided filter)."""
    size = rgb.shape[0]
    guide = cv2.resize(rgb, (GUIDE_SIZE, GUIDE_SIZE), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    target = cv2.resize(probability, (GUIDE_SIZE, GUIDE_SIZE), interpolation=cv2.INTER_LINEAR)
    a, b = _guided_coefficients(guide, target, GUIDE_RADIUS, GUIDE_EPSILON)
    full = rgb.astype(np.float32) / 255
    a = cv2.resize(a, (size, size), interpolation=cv2.INTER_LINEAR)
    b = cv2.resize(b, (size, size), interpolation=cv2.INTER_LINEAR)
    alpha = a[..., 0] * full[..., 0] + a[..., 1] * full[..., 1] + a[..., 2] * full[..., 2] + b
    steep: np.ndarray = np.clip((alpha - 0.5) * EDGE_GAIN + 0.5, 0, 1).astype(np.float32)
    return steep


def _guided_coefficients(
    guide: np.ndarray, target: np.ndarray, radius: int, epsilon: float
) -> tuple[np.ndarray, np.ndarray]:
    """Box-averaged a (H, W, 3) and b (H, W) of the colour guided filter: output = a . guide + b."""

    def mean(image: np.ndarray) -> np.ndarray:
        box: np.ndarray = cv2.boxFilter(image, -1, (2 * radius + 1, 2 * radius + 1), borderType=cv2.BORDER_REFLECT)
        return box

    mean_guide = mean(guide)
    mean_target = mean(target)
    covariance = mean(guide * target[..., None]) - mean_guide * mean_target[..., None]
    # The guide's 3x3 colour covariance per pixel (symmetric: six planes), regularised.
    sigma = {}
    for i, j in ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)):
        sigma[i, j] = mean(guide[..., i] * guide[..., j]) - mean_guide[..., i] * mean_guide[..., j]
        if i == j:
            sigma[i, j] = sigma[i, j] + epsilon
    # Its inverse by cofactors (vectorised; far faster than a solve per pixel).
    c00 = sigma[1, 1] * sigma[2, 2] - sigma[1, 2] ** 2
    c01 = sigma[0, 2] * sigma[1, 2] - sigma[0, 1] * sigma[2, 2]
    c02 = sigma[0, 1] * sigma[1, 2] - sigma[0, 2] * sigma[1, 1]
    c11 = sigma[0, 0] * sigma[2, 2] - sigma[0, 2] ** 2
    c12 = sigma[0, 1] * sigma[0, 2] - sigma[0, 0] * sigma[1, 2]
    c22 = sigma[0, 0] * sigma[1, 1] - sigma[0, 1] ** 2
    determinant = sigma[0, 0] * c00 + sigma[0, 1] * c01 + sigma[0, 2] * c02
    cov0, cov1, cov2 = covariance[..., 0], covariance[..., 1], covariance[..., 2]
    a = (
        np.stack(
            [
                c00 * cov0 + c01 * cov1 + c02 * cov2,
                c01 * cov0 + c11 * cov1 + c12 * cov2,
                c02 * cov0 + c12 * cov1 + c22 * cov2,
            ],
            axis=-1,
        )
        / determinant[..., None]
    )
    b = mean_target - np.einsum("ijc,ijc->ij", a, mean_guide)
    return mean(a), mean(b)


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
