"""The studio engine's generation: a personal model's own portraits re-photographed in a studio.

Honest by construction: every image is the person's real face, hair and clothes from one of their
photos (the model's portraits, best first), given a new framing, backdrop, light, colour grade and
a gentle retouch (render/). Image k of a generation uses portrait k (cycling), its own camera
position and light variation, all drawn from the seed: the same parameters and seed give the same
bytes.

Every image is checked for edge-replication streaks (render/streaks.py) before it is written. A
flagged image is rendered again framed tighter, then from the model's other portraits; one that
no portrait renders clean (or frames: render/framing.py) is dropped, said in a warning and in the
summary's `dropped`, and never written.
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Mapping
from typing import Any

import cv2
import numpy as np
from PIL import Image

from ..jobs import BadInput, JobContext
from ..protocol import GenerateParams, GenerateTemplate
from .render.compose import Rendered, render
from .render.framing import Unframeable
from .render.look import Look, from_prompt, from_studio, vary
from .render.model import StudioModel, load_model
from .render.streaks import find_streaks
from .render.subject import is_prepared, subject_of

JPEG_QUALITY = 92
# Until this process has timed its own (2 cores, 1024 px: about 0.3 s an image, 0.7 s a portrait).
DEFAULT_SECONDS_PER_MEGAPIXEL = 0.35
DEFAULT_SECONDS_PER_PREPARATION = 0.8
THREADS = 2
# A flagged image's second try: this much closer than the first.
TIGHTER = 1.3
# A development convenience (the worker refuses it in production): image indices, comma
# separated, that the streak check flags on every render, so a test can have a set come back short
# through the whole retry and drop path.
FLAG_IMAGES_SETTING = "ENGINE_FLAG_IMAGES"


def flagged_by_setting(environ: Mapping[str, str]) -> frozenset[int]:
    """The image indices ENGINE_FLAG_IMAGES names (none when unset)."""
    value = environ.get(FLAG_IMAGES_SETTING, "").strip()
    if not value:
        return frozenset()
    try:
        return frozenset(int(part) for part in value.split(",") if part.strip())
    except ValueError as error:
        raise ValueError(f"{FLAG_IMAGES_SETTING} must list image indices, like 1,3: {value!r}") from error


class StudioGenerator:
    # Measured on this process's earlier images: the ETA before the first image of a generation.
    _seconds_per_megapixel = DEFAULT_SECONDS_PER_MEGAPIXEL  # rendering and writing one image
    _seconds_per_preparation = DEFAULT_SECONDS_PER_PREPARATION  # a portrait's first use (model not cached)

    def __init__(self, environ: Mapping[str, str] = os.environ) -> None:
        cv2.setNumThreads(min(THREADS, os.cpu_count() or 1))
        self._always_flagged = flagged_by_setting(environ)

    def generate(self, job: JobContext, params: GenerateParams) -> dict[str, Any]:
        started = time.perf_counter()
        count, size, seed = int(params.count), int(params.size), int(params.seed)
        template = params.template
        look = _look(template, params.prompt, shapes=params.prompt_shapes_look)
        if params.model_path is None:
            raise BadInput("This engine makes headshots from a trained model: train one first.")
        model = load_model(params.model_path)
        job.raise_if_cancelled()
        os.makedirs(params.output_dir, exist_ok=True)
        megapixels = size * size / 1e6
        references = [index % model.count for index in range(count)]
        render_estimate = StudioGenerator._seconds_per_megapixel * megapixels
        job.progress(0, count, "Loaded the model", eta_seconds=round(self._eta(model, references, render_estimate), 2))
        timings: list[float] = []
        dropped = 0
        for index, first_reference in enumerate(references):
            job.raise_if_cancelled()
            image_started = time.perf_counter()
            image_seed = seed_for_image(seed, index)
            found = self._clean_render(job, model, look, index=index, first=first_reference, seed=image_seed, size=size)
            if found is None:
                dropped += 1
                job.log("warn", f"image {index}: no portrait renders it without streaks or a visible cut; dropped")
            else:
                reference, rendered = found
                path = write_jpeg(os.path.join(params.output_dir, f"image-{index}.jpg"), rendered.image)
                placement = rendered.placement
                if placement.zoom > 1.0:
                    job.log(
                        "debug",
                        f"image {index}: framed {placement.zoom:.2f}x closer than the template asks (head "
                        f"{placement.head_height:.2f} of the frame, crown cut {placement.crown_cut:.2f}): "
                        f"portrait {reference}'s photo ends there",
                    )
                job.artifact(
                    path,
                    "image",
                    meta={
                        "index": index,
                        "reference": reference,
                        "face_box": rendered.face_box,
                        "seed": image_seed,
                        "width": size,
                        "height": size,
                    },
                )
            timings.append(time.perf_counter() - image_started)
            per_image = float(np.mean(timings))
            job.progress(
                index + 1,
                count,
                f"Rendered image {index + 1} of {count}",
                metrics={"seconds_per_image": round(per_image, 3), "seconds": round(timings[-1], 3)},
                eta_seconds=round(self._eta(model, references[index + 1 :], per_image), 2),
            )
        StudioGenerator._seconds_per_megapixel = float(np.median(timings)) / megapixels
        return {
            "images": count - dropped,
            "template_id": template.id if template is not None else None,
            "variant": template.variant if template is not None else None,
            "seed": seed,
            "size": size,
            "dropped": dropped,
            "seconds": round(time.perf_counter() - started, 3),
        }

    def _clean_render(
        self, job: JobContext, model: StudioModel, look: Look, *, index: int, first: int, seed: int, size: int
    ) -> tuple[int, Rendered] | None:
        """Image `index` rendered without streaks: from portrait `first` as the look frames it, then
        framed tighter, then from each other portrait in turn. None when none is clean."""
        order = [(first + step) % model.count for step in range(model.count)]
        for reference in order:
            for tighter in (1.0, TIGHTER):
                self._prepare(job, model, reference)
                rng = np.random.default_rng(seed)
                shot_look, variation = vary(look, index, rng)
                try:
                    rendered = render(
                        model,
                        reference,
                        shot_look,
                        variation,
                        size,
                        rng=rng,
                        checkpoint=job.raise_if_cancelled,
                        tighter=tighter,
                    )
                except Unframeable as why:
                    job.log("debug", f"image {index}: portrait {reference} cannot be framed ({why})")
                    break
                report = find_streaks(rendered.image)
                if index in self._always_flagged:
                    job.log("debug", f"image {index}: flagged by {FLAG_IMAGES_SETTING}; rendering it again")
                    continue
                if not report.flagged:
                    return reference, rendered
                job.log(
                    "debug",
                    f"image {index}: portrait {reference} at {tighter:.1f}x shows streaks at the "
                    f"{', '.join(report.edges)} edge; rendering it again",
                )
        return None

    @staticmethod
    def _prepare(job: JobContext, model: StudioModel, reference: int) -> None:
        if not is_prepared(model, reference):
            preparing = time.perf_counter()
            subject_of(model, reference)
            StudioGenerator._seconds_per_preparation = time.perf_counter() - preparing
            job.raise_if_cancelled()

    @staticmethod
    def _eta(model: StudioModel, references: list[int], per_image: float) -> float:
        unprepared = len({reference for reference in references if not is_prepared(model, reference)})
        return len(references) * per_image + unprepared * StudioGenerator._seconds_per_preparation


def seed_for_image(seed: int, index: int) -> int:
    """Image `index`'s own seed (31 bits), derived from the generation's."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0]) & 0x7FFFFFFF


def _look(template: GenerateTemplate | None, prompt: str, *, shapes: bool = False) -> Look:
    """The template's look; the prompt's recognised words over it when the prompt is the user's
    (`shapes`); the prompt's alone without a template."""
    if template is None:
        return from_prompt(prompt)
    try:
        return from_prompt(prompt, base=template.studio) if shapes else from_studio(template.studio)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise BadInput("This template cannot be rendered: its studio settings are incomplete.") from error


def write_jpeg(path: str, image: np.ndarray) -> str:
    """A baseline sRGB JPEG with no metadata, written next to its name and renamed into place."""
    buffer = io.BytesIO()
    Image.fromarray(image, "RGB").save(buffer, format="JPEG", quality=JPEG_QUALITY, subsampling=0, optimize=False)
    partial = f"{path}.partial"
    with open(partial, "wb") as file:
        file.write(buffer.getvalue())
    os.replace(partial, path)
    return path
