#!/usr/bin/env python3
"""The person matte measured against known alpha, and against the hand-drawn masks for leakage.

    apps/worker/engine/.venv/bin/python bench/engine-matte.py --label after [--crops]

The repository's hand masks (apps/worker/engine/tests/fixtures/masks) are binary polygons, which
reward hard edges, so the edge is measured on composites whose alpha is known by construction,
built here from the fixture photos (nothing is downloaded): each masked photo's portrait (cut as
the training cuts it) is the subject, its polygon drawn anti-aliased at the portrait's resolution
is the subject's alpha, and strand-like hair of known coverage is drawn out of the hair's outline
(thin curved strokes, 1-2.5 px wide, each partly transparent, in the hair's own colour). The
composite over each of four backgrounds (light grey, dark navy, green, beige, each with a gentle
gradient and noise) goes through `person_matte` as the training runs it.

Reported per label: SAD (sum of absolute alpha differences / 1000) and gradient error (sum of
squared differences of the alpha gradient's magnitude, Gaussian derivatives at sigma 1.4, / 1000)
in the edge band (pixels within 6 px of any fractional alpha or of the polygon's outline);
leakage (mean matte over the hand mask's background, on the fixture photos themselves, 4 px away
from the outline) and missed person (mean of 1 - matte over the hand mask's person, 4 px in); and
seconds per portrait. Results go to bench/results/engine-matte.{json,md} under the label; with
--crops, 100% crops (256 px, no scaling) of three hair edges, each composite cut out with the
label's matte onto mid-grey, to bench/results/matte-crops/.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "apps" / "worker" / "engine"
sys.path[:0] = [str(ENGINE), str(ENGINE / "tests")]

from hand_masks import MASKS, mask_names  # noqa: E402

from studioshot_engine.studio.matte import PersonSegmenter, person_matte  # noqa: E402
from studioshot_engine.studio.portrait import Portrait, cut_portrait  # noqa: E402

FIXTURES = ROOT / "apps" / "worker" / "test" / "fixtures"
RESULTS = ROOT / "bench" / "results"
BACKGROUNDS = {
    "light-grey": (232, 232, 228),
    "dark-navy": (28, 38, 70),
    "green": (62, 128, 72),
    "beige": (205, 178, 140),
}
SUPERSAMPLE = 4
BAND_PX = 6
CLEAR_PX = 4
STRANDS = 140
CROP = 256


def portrait_of(name: str) -> tuple[Portrait, dict[str, Any]]:
    spec = json.loads((MASKS / f"{name}.json").read_text())
    left, right = spec["eyes"]
    distance = float(np.hypot(right[0] - left[0], right[1] - left[1]))
    box = (left[0] - distance / 2, left[1] - distance / 2, 2 * distance, 2.4 * distance)
    portrait = cut_portrait(
        str(FIXTURES / spec["image"]), None, tuple(spec["size"]), tuple(left), tuple(right), face_box=box
    )
    return portrait, spec


def polygon_alpha(spec: dict[str, Any], transform: np.ndarray, size: int) -> np.ndarray:
    """The hand-drawn person in portrait pixels, anti-aliased (float32 0..1)."""
    big = np.zeros((size * SUPERSAMPLE, size * SUPERSAMPLE), np.uint8)
    for polygon in spec["person"]:
        points = np.array(polygon, np.float64) @ transform[:, :2].T + transform[:, 2]
        cv2.fillPoly(big, [np.round(points * SUPERSAMPLE * 16).astype(np.int32)], 255, cv2.LINE_8, shift=4)
    small = cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA)
    alpha: np.ndarray = small.astype(np.float32) / 255
    return alpha


def strands(
    person: np.ndarray, rgb: np.ndarray, eyes: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Hair strands drawn out of the hair's outline: their coverage (0..1) and colour."""
    size = person.shape[0]
    distance = float(np.linalg.norm(eyes[1] - eyes[0]))
    middle = eyes.mean(axis=0)
    inside = (person > 0.5).astype(np.uint8)
    contours, _ = cv2.findContours(inside, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outline = np.concatenate([c[:, 0, :] for c in contours]).astype(np.float64)
    # The hair: the outline above the mouth, within the head's width.
    hair = outline[(outline[:, 1] < middle[1] + 0.8 * distance) & (np.abs(outline[:, 0] - middle[0]) < 2.3 * distance)]
    hair = hair[(hair[:, 1] > 2) & (hair[:, 0] > 2) & (hair[:, 0] < size - 3)]
    coverage = np.zeros((size * SUPERSAMPLE, size * SUPERSAMPLE), np.float32)
    colour_sum = np.zeros((size * SUPERSAMPLE, size * SUPERSAMPLE, 3), np.float32)
    centre = np.array([middle[0], middle[1] - 0.6 * distance])
    for _ in range(STRANDS):
        base = hair[rng.integers(len(hair))]
        outward = base - centre
        outward /= np.linalg.norm(outward) + 1e-9
        side = np.array([-outward[1], outward[0]])
        length = rng.uniform(0.12, 0.45) * distance
        start = base - outward * rng.uniform(2, 8)
        bend = side * rng.uniform(-0.5, 0.5) * length
        control = start + outward * length * 0.55 + bend
        end = start + outward * length + bend * 1.6
        t = np.linspace(0, 1, 24)[:, None]
        curve = (1 - t) ** 2 * start + 2 * (1 - t) * t * control + t**2 * end
        # The strand's colour: the hair inside its base (past the photo's own edge pixels).
        sx, sy = np.clip(np.round(start - outward * 14).astype(int), 0, size - 1)
        colour = rgb[sy, sx].astype(np.float32) * rng.uniform(0.85, 1.15)
        # Drawn in the strand's own box of the supersampled canvas.
        points = np.round(curve * SUPERSAMPLE).astype(np.int32)
        width = max(1, round(rng.uniform(1.0, 2.5) * SUPERSAMPLE))
        x0, y0 = np.maximum(points.min(axis=0) - 2 * width, 0)
        x1, y1 = np.minimum(points.max(axis=0) + 2 * width, size * SUPERSAMPLE)
        if x1 <= x0 or y1 <= y0:
            continue
        layer = np.zeros((y1 - y0, x1 - x0), np.float32)
        cv2.polylines(layer, [points - np.array([x0, y0])], False, 1.0, width, cv2.LINE_AA)
        layer *= rng.uniform(0.45, 0.95)
        box = np.s_[y0:y1, x0:x1]
        colour_sum[box] += layer[..., None] * colour * (1 - coverage[box][..., None])
        coverage[box] += layer * (1 - coverage[box])
    small = cv2.resize(coverage, (size, size), interpolation=cv2.INTER_AREA)
    colour_small = (
        cv2.resize(colour_sum, (size, size), interpolation=cv2.INTER_AREA) / np.maximum(small, 1e-6)[..., None]
    )
    return small, np.clip(colour_small, 0, 255)


def background(colour: tuple[int, int, int], size: int, rng: np.random.Generator) -> np.ndarray:
    ramp = np.linspace(-12, 12, size, dtype=np.float32)
    back = np.array(colour, np.float32)[None, None, :] + ramp[None, :, None] * 0.6 + ramp[:, None, None] * 0.4
    back += cv2.GaussianBlur(rng.normal(0, 6, (size, size, 3)).astype(np.float32), (0, 0), 3)
    return np.clip(back, 0, 255)


def gradient_magnitude(alpha: np.ndarray) -> np.ndarray:
    smooth = cv2.GaussianBlur(alpha, (0, 0), 1.4)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
    magnitude: np.ndarray = np.hypot(gx, gy)
    return magnitude


def crop_at_hair(truth: np.ndarray, hair: np.ndarray, eyes: np.ndarray) -> tuple[int, int]:
    """A CROP-sized window on the top of the head where strands are thickest."""
    size = truth.shape[0]
    middle = eyes.mean(axis=0)
    density = cv2.blur(hair, (CROP // 2, CROP // 2))
    density[int(middle[1]) :, :] = 0
    y, x = np.unravel_index(int(np.argmax(density)), density.shape)
    top = int(np.clip(y - CROP // 2, 0, size - CROP))
    left = int(np.clip(x - CROP // 2, 0, size - CROP))
    return top, left


def main() -> int:  # noqa: PLR0915 (one measurement, read top to bottom)
    parser = argparse.ArgumentParser()
    parser.add_argument("--label", required=True)
    parser.add_argument("--crops", action="store_true")
    args = parser.parse_args()
    segmenter = PersonSegmenter()
    rows: list[dict[str, Any]] = []
    leakage: list[dict[str, Any]] = []
    seconds: list[float] = []
    crops_dir = RESULTS / "matte-crops"
    for name in mask_names():
        portrait, spec = portrait_of(name)
        size = portrait.rgb.shape[0]
        valid = portrait.valid.astype(np.float32)
        eyes = portrait.eyes.astype(np.float64)
        subject = polygon_alpha(spec, portrait.transform, size) * valid
        rng = np.random.default_rng(21)
        hair, hair_colour = strands(subject, portrait.rgb, eyes, rng)
        hair *= valid
        truth = subject + hair * (1 - subject)
        colour = (subject[..., None] * portrait.rgb + (hair * (1 - subject))[..., None] * hair_colour) / np.maximum(
            truth, 1e-6
        )[..., None]
        fractional = ((truth > 0.004) & (truth < 0.996)).astype(np.uint8)
        outline = cv2.morphologyEx((subject > 0.5).astype(np.uint8), cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
        near = cv2.distanceTransform(1 - np.maximum(fractional, outline), cv2.DIST_L2, 5)
        band = (near <= BAND_PX) & (valid > 0)
        # Leakage and missed person, on the photo itself with its own background.
        matte = person_matte(segmenter, portrait.rgb, portrait.valid, eyes).astype(np.float32) / 255
        to_outline = cv2.distanceTransform(1 - outline, cv2.DIST_L2, 5)
        clear = (to_outline > CLEAR_PX) & (valid > 0)
        person_area, background_area = clear & (subject > 0.5), clear & (subject <= 0.5)
        leakage.append(
            {
                "photo": name,
                "leakage": round(float(matte[background_area].mean()), 5),
                "missed_person": round(float(1 - matte[person_area].mean()), 5),
            }
        )
        for back_name, back_colour in BACKGROUNDS.items():
            back = background(back_colour, size, rng)
            composite = np.clip(truth[..., None] * colour + (1 - truth[..., None]) * back + 0.5, 0, 255).astype(
                np.uint8
            )
            started = time.perf_counter()
            predicted = person_matte(segmenter, composite, portrait.valid, eyes).astype(np.float32) / 255
            seconds.append(time.perf_counter() - started)
            error = np.abs(predicted - truth)
            gradient = (gradient_magnitude(predicted) - gradient_magnitude(truth)) ** 2
            rows.append(
                {
                    "photo": name,
                    "background": back_name,
                    "sad_band": round(float(error[band].sum()) / 1000, 3),
                    "gradient_band": round(float(gradient[band].sum()) / 1000, 4),
                    "band_pixels": int(band.sum()),
                }
            )
            if args.crops and back_name == "dark-navy":
                top, left = crop_at_hair(truth, hair, eyes)
                window = np.s_[top : top + CROP, left : left + CROP]
                grey = np.full((CROP, CROP, 3), 128.0, np.float32)
                cut = predicted[window][..., None] * composite[window] + (1 - predicted[window][..., None]) * grey
                ideal = truth[window][..., None] * colour[window] + (1 - truth[window][..., None]) * grey
                crops_dir.mkdir(parents=True, exist_ok=True)
                picture = np.hstack([composite[window], ideal, cut]).astype(np.uint8)
                cv2.imwrite(str(crops_dir / f"{name}-{args.label}.png"), cv2.cvtColor(picture, cv2.COLOR_RGB2BGR))
    summary = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "composites": len(rows),
        "sad_band_mean": round(statistics.mean(r["sad_band"] for r in rows), 3),
        "gradient_band_mean": round(statistics.mean(r["gradient_band"] for r in rows), 4),
        "leakage_mean": round(statistics.mean(r["leakage"] for r in leakage), 5),
        "missed_person_mean": round(statistics.mean(r["missed_person"] for r in leakage), 5),
        "seconds_per_portrait_median": round(statistics.median(seconds), 3),
        "composites_detail": rows,
        "hand_masks": leakage,
    }
    path = RESULTS / "engine-matte.json"
    results: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    results[args.label] = summary
    RESULTS.mkdir(exist_ok=True)
    path.write_text(json.dumps(results, indent=2) + "\n")
    lines = [
        "# Person matte against known alpha (studio engine)",
        "",
        "Composites of the three hand-masked fixture photos' portraits (1280 px) with strand-like hair of known",
        "coverage, over four backgrounds (12 composites); leakage and missed person on the photos themselves",
        "against the hand masks. SAD and gradient error in the edge band (6 px round every fractional alpha and",
        "the outline), / 1000. Regenerate with",
        "`apps/worker/engine/.venv/bin/python bench/engine-matte.py --label after --crops`.",
        "",
        "| matte | SAD in band (mean) | gradient error in band (mean) | leakage | missed person "
        "| s per portrait (median) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for label, run in results.items():
        lines.append(
            f"| {label} ({run['date']}) | **{run['sad_band_mean']}** | {run['gradient_band_mean']} | "
            f"{run['leakage_mean']:.2%} | {run['missed_person_mean']:.2%} | {run['seconds_per_portrait_median']} |"
        )
    lines += [
        "",
        "Crops in `matte-crops/` (100%, 256 px): the composite over dark navy, the known alpha's cut-out onto",
        "mid-grey, and the label's matte's cut-out onto mid-grey.",
        "",
    ]
    (RESULTS / "engine-matte.md").write_text("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
