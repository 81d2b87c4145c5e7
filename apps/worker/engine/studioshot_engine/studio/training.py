"""The studio engine's training: from the user's photos to a personal model a studio style can use.

Each photo is read, its main face found and aligned, and scored as a reference; the best faces are
cut out with a head matte, and cut again from the full-size original as head-and-shoulders
portraits with a person matte; the subject's colour and lighting profile is measured over all
usable photos. Generation reads only the model file. Deterministic: the same photos give the same
bytes.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from .. import __version__
from ..jobs import BadInput, JobContext
from ..protocol import Photo, TrainParams
from .alignment import (
    CANONICAL_EYE_DISTANCE,
    CANONICAL_LEFT_EYE,
    CANONICAL_RIGHT_EYE,
    CROP_SIZE,
    align,
    eye_alignment,
    transform_box,
    transform_scale,
)
from .artifact import DESCRIPTOR_LENGTH, MODEL_FILE, MODEL_FORMAT, MODEL_FORMAT_VERSION, PREVIEW_FILE, write_model
from .faces import Box, Face, FaceDetector, Point
from .matte import PersonSegmenter, head_matte, person_matte
from .photos import check_photo_files, load_photo
from .portrait import (
    PORTRAIT_EYE_DISTANCE,
    PORTRAIT_EYE_Y,
    PORTRAIT_SIZE,
    Portrait,
    cut_portrait,
    encode_jpeg,
    encode_png,
    pack,
)
from .preview import write_preview
from .profile import estimate_white_balance, measure_lighting, measure_skin, skin_mask, summarise, to_lab
from .quality import Quality, measure_quality

# A model needs a few views of the face to average the profile over; the photo checks already
# demand 10 usable photos, so this only stops a set the engine's detector largely disagrees with.
MIN_USABLE_PHOTOS = 3
# The model keeps this many aligned faces (best first): enough choice for the styles, ~6 MB at most.
MAX_REFERENCE_FACES = 8
# Fewer skin-coloured pixels than this where the face should be: the detection was not a face.
MIN_SKIN_PIXELS = 2000
# Steps after the per-photo ones: cut-outs, profile, writing.
FINAL_STEPS = 3
REJECTION_WORDS = {
    "no_face": "with no face we could find",
    "face_too_small": "with the face too small",
    "blurry": "too blurry",
    "too_dark": "too dark",
    "too_bright": "too bright",
}


@dataclass(frozen=True)
class AnalysedPhoto:
    index: int  # position in the request: ties in score keep the user's order
    photo: Photo
    source_size: tuple[int, int]  # the upright original's width and height
    source_scale: float  # working image pixels per original pixel
    face: Face
    transform: np.ndarray  # working image -> crop
    crop: np.ndarray
    coverage: np.ndarray
    quality: Quality
    profile: dict[str, Any]

    @property
    def source_transform(self) -> np.ndarray:
        """Original photo pixels -> crop."""
        return np.hstack([self.transform[:, :2] * self.source_scale, self.transform[:, 2:]])

    def in_source(self, point: Point) -> Point:
        """A working-image point in the upright `path` photo's pixels."""
        return point[0] / self.source_scale, point[1] / self.source_scale

    @property
    def source_face_box(self) -> Box:
        x, y, w, h = self.face.box
        scale = self.source_scale
        return x / scale, y / scale, w / scale, h / scale


@dataclass(frozen=True)
class Cutout:
    """One reference face's cut-outs: the aligned crop's head matte, the portrait and its person matte."""

    head_matte: np.ndarray
    head_matte_method: str
    portrait: Portrait
    portrait_matte: np.ndarray


class StudioTrainer:
    def __init__(self) -> None:
        self._detector = FaceDetector()
        self._segmenter = PersonSegmenter()

    def train(self, job: JobContext, params: TrainParams) -> dict[str, Any]:
        check_photo_files(params.photos)
        count = len(params.photos)
        total = count + FINAL_STEPS
        usable: list[AnalysedPhoto] = []
        rejected: list[dict[str, str]] = []
        for index, photo in enumerate(params.photos):
            job.raise_if_cancelled()
            outcome = self.analyse(index, photo)
            if isinstance(outcome, str):
                rejected.append({"photo_id": photo.id, "reason": outcome})
                job.log("info", f"photo {photo.id} set aside: {outcome}")
            else:
                usable.append(outcome)
            job.progress(index + 1, total, f"Checked photo {index + 1} of {count}")
        # A one-photo restyle (a user without a model) asks for fewer; never more than the default.
        minimum = min(params.min_usable_photos or MIN_USABLE_PHOTOS, MIN_USABLE_PHOTOS)
        if len(usable) < minimum:
            raise BadInput(_too_few_message(len(usable), count, rejected, minimum))

        ranked = sorted(usable, key=lambda analysed: (-analysed.quality.score, analysed.index))
        references = ranked[:MAX_REFERENCE_FACES]
        cutouts = []
        for reference in references:
            job.raise_if_cancelled()
            cutout = self.cut_out(reference)
            if reference.photo.original_path is not None and cutout.portrait.source != "original":
                job.log(
                    "warn",
                    f"photo {reference.photo.id}: its original is unreadable or another picture; "
                    "the portrait comes from the optimised copy",
                )
            cutouts.append(cutout)
        job.progress(count + 1, total, f"Cut out the {len(references)} best faces")

        profile = _model_profile(params, ranked, references, cutouts, rejected)
        job.progress(count + 2, total, "Measured skin tone, white balance and lighting")

        os.makedirs(params.output_dir, exist_ok=True)
        model_path = os.path.join(params.output_dir, MODEL_FILE)
        preview_path = os.path.join(params.output_dir, PREVIEW_FILE)
        faces = np.stack([reference.crop for reference in references])
        mattes = np.stack([cutout.head_matte for cutout in cutouts])
        arrays = {
            "faces": faces,
            "mattes": mattes,
            "face_boxes": np.array([transform_box(r.face.box, r.transform) for r in references], np.float32),
            "source_transforms": np.stack([reference.source_transform for reference in references]),
            **_portrait_arrays(cutouts),
            **_descriptor_arrays(references),
        }
        write_model(model_path, arrays, profile)
        write_preview(preview_path, faces, mattes, profile, (cutouts[0].portrait.rgb, cutouts[0].portrait_matte))
        job.progress(count + 3, total, "Saved the personal model")
        job.artifact(model_path, "model")
        job.artifact(preview_path, "preview")
        return {
            "photos_used": len(usable),
            "photos_rejected": len(rejected),
            "reference_photo_id": references[0].photo.id,
            "reference_faces": len(references),
            "rejected": rejected,
        }

    def cut_out(self, reference: AnalysedPhoto) -> Cutout:
        matte, method = head_matte(reference.crop, reference.coverage)
        face = reference.face
        portrait = cut_portrait(
            reference.photo.path,
            reference.photo.original_path,
            reference.source_size,
            reference.in_source(face.left_eye),
            reference.in_source(face.right_eye),
            face_box=reference.source_face_box,
        )
        person = person_matte(self._segmenter, portrait.rgb, portrait.valid, portrait.eyes.astype(np.float64))
        return Cutout(matte, method, portrait, person)

    def analyse(self, index: int, photo: Photo) -> AnalysedPhoto | str:
        """The photo measured and aligned, or why it cannot be used."""
        loaded = load_photo(photo)
        face = self._detector.find_main_face(cv2.cvtColor(loaded.rgb, cv2.COLOR_RGB2GRAY))
        if face is None:
            return "no_face"
        transform = eye_alignment(face.left_eye, face.right_eye)
        crop, coverage = align(loaded.rgb, transform)
        crop_lab = to_lab(crop)
        eye_distance = CANONICAL_EYE_DISTANCE / transform_scale(transform)
        quality = measure_quality(
            cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY), crop_lab[..., 0], eye_distance, face.eyes_found
        )
        if reason := quality.rejection():
            return reason
        skin = skin_mask(crop_lab)
        if skin.sum() < MIN_SKIN_PIXELS:
            return "no_face"
        profile = {
            "skin": measure_skin(crop, crop_lab, skin),
            "white_balance": estimate_white_balance(loaded.rgb),
            "lighting": measure_lighting(crop_lab, skin),
        }
        return AnalysedPhoto(
            index, photo, loaded.original_size, loaded.scale, face, transform, crop, coverage, quality, profile
        )


def _portrait_arrays(cutouts: list[Cutout]) -> dict[str, np.ndarray]:
    portraits, portrait_offsets = pack([encode_jpeg(cutout.portrait.rgb) for cutout in cutouts])
    mattes, matte_offsets = pack([encode_png(cutout.portrait_matte) for cutout in cutouts])
    return {
        "portraits_jpeg": portraits,
        "portraits_offsets": portrait_offsets,
        "portrait_mattes_png": mattes,
        "portrait_mattes_offsets": matte_offsets,
        "portrait_valid": np.stack([cutout.portrait.valid for cutout in cutouts]),
        "portrait_eyes": np.stack([cutout.portrait.eyes for cutout in cutouts]).astype(np.float32),
        "portrait_face_boxes": np.stack([cutout.portrait.face_box for cutout in cutouts]).astype(np.float32),
        "portrait_transforms": np.stack([cutout.portrait.transform for cutout in cutouts]).astype(np.float64),
    }


def _descriptor_arrays(references: list[AnalysedPhoto]) -> dict[str, np.ndarray]:
    """The photo checks' face descriptors, one row per reference face (zeros where there was none)."""
    descriptors = np.zeros((len(references), DESCRIPTOR_LENGTH), np.float32)
    present = np.zeros(len(references), bool)
    for row, reference in enumerate(references):
        descriptor = reference.photo.descriptor
        if descriptor is not None and len(descriptor) == DESCRIPTOR_LENGTH:
            descriptors[row] = descriptor
            present[row] = True
    return {"descriptors": descriptors, "descriptor_present": present}


def _model_profile(
    params: TrainParams,
    ranked: list[AnalysedPhoto],
    references: list[AnalysedPhoto],
    cutouts: list[Cutout],
    rejected: list[dict[str, str]],
) -> dict[str, Any]:
    return {
        "format": MODEL_FORMAT,
        "format_version": MODEL_FORMAT_VERSION,
        "engine": "studio",
        "engine_version": __version__,
        "model_name": params.model_name,
        "trigger_word": params.trigger_word,
        "crop": {"size": CROP_SIZE, "left_eye": list(CANONICAL_LEFT_EYE), "right_eye": list(CANONICAL_RIGHT_EYE)},
        "portrait_size": PORTRAIT_SIZE,
        "portrait_framing": {"eye_line": PORTRAIT_EYE_Y, "eye_distance": PORTRAIT_EYE_DISTANCE},
        "used_photo_ids": [analysed.photo.id for analysed in ranked],
        "rejected": rejected,
        "faces": [_face_entry(reference, cutout) for reference, cutout in zip(references, cutouts, strict=True)],
        "subject": summarise([analysed.profile for analysed in ranked]),
    }


def _face_entry(analysed: AnalysedPhoto, cutout: Cutout) -> dict[str, Any]:
    quality = analysed.quality
    return {
        "photo_id": analysed.photo.id,
        "score": round(quality.score, 4),
        "quality": {
            "sharpness": round(quality.sharpness, 1),
            "eye_distance_px": round(quality.eye_distance_px, 1),
            "face_lightness": round(quality.face_lightness, 2),
            "sharpness_score": round(quality.sharpness_score, 4),
            "size_score": round(quality.size_score, 4),
            "frontality_score": round(quality.frontality_score, 4),
            "exposure_score": round(quality.exposure_score, 4),
        },
        "eyes_found": analysed.face.eyes_found,
        "faces_found": analysed.face.faces_found,
        "roll_degrees": round(analysed.face.roll_degrees, 2),
        "source_size": list(analysed.source_size),
        "matte": cutout.head_matte_method,
        "portrait": {
            "source": cutout.portrait.source,
            "source_size": list(cutout.portrait.source_size),
            "scale": round(cutout.portrait.scale, 4),
            "matte": "segmentation",
        },
        **analysed.profile,
    }


def _too_few_message(usable: int, count: int, rejected: list[dict[str, str]], minimum: int) -> str:
    if minimum == 1:
        return "Your photo could not be used to make headshots. Please upload a clear, well-lit photo of your face."
    needed = f"A model needs at least {minimum} {_photos(minimum)} that clearly show your face"
    if not rejected:
        return f"{needed}; we received {count} {_photos(count)}."
    reasons = Counter(entry["reason"] for entry in rejected)
    details = ", ".join(f"{number} {REJECTION_WORDS[reason]}" for reason, number in reasons.items())
    return (
        f"{needed}, and only {usable} of your {count} {_photos(count)} can be used "
        f"({details}). Please add clear, well-lit photos of your face."
    )


def _photos(count: int) -> str:
    return "photo" if count == 1 else "photos"
