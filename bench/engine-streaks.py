#!/usr/bin/env python3
"""Edge-replication streaks in the studio engine's images, counted by the engine's own detector
(studio/render/streaks.py) over every template on the fixture photos.

    apps/worker/engine/.venv/bin/python bench/engine-streaks.py --label after [--size 1024]

Three models are trained from the fixture photos (apps/worker/test/fixtures/astronaut*.jpg), cut
in code: as they are; with the top 9% cut off, so the hair touches the photo's top edge (as in a
close selfie); and with 12% cut off the left and 10% off the bottom (shoulder and clothes cut by
the photo's edges). Each template's first variant renders 4 images from each model (the 4 use
portraits 0-3). The count of flagged images is written under the label to
bench/results/engine-streaks.{json,md}, keeping the other labels' figures ("before" is the
renderer before its framing rules).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "apps" / "worker" / "engine"
sys.path[:0] = [str(ENGINE), str(ENGINE / "tests"), str(ROOT / "bench")]

import generate_support  # noqa: E402
from generate_support import FIXTURES, MODEL_PHOTOS, RecordingJob, build_model, generate_params, load_templates  # noqa: E402

from studioshot_engine.studio.generate import StudioGenerator  # noqa: E402
from studioshot_engine.studio.render.streaks import find_streaks  # noqa: E402

COUNT = 4
RESULTS = ROOT / "bench" / "results"
# (name, what it is, fractions cut from left, top, right, bottom)
PHOTO_SETS: list[tuple[str, str, tuple[float, float, float, float]]] = [
    ("as-is", "the fixture photos as they are", (0.0, 0.0, 0.0, 0.0)),
    ("hair-at-top", "top 4% cut off: the hair touches the top edge", (0.0, 0.04, 0.0, 0.0)),
    ("hair-cut", "top 9% cut off: the hair cut flat, a quarter of the head gone", (0.0, 0.09, 0.0, 0.0)),
    ("cut-side-bottom", "12% cut off the left, 10% off the bottom", (0.12, 0.0, 0.0, 0.10)),
]


def cut_photos(directory: Path, cut: tuple[float, float, float, float]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for name in MODEL_PHOTOS:
        with Image.open(FIXTURES / f"{name}.jpg") as photo:
            width, height = photo.size
            left, top, right, bottom = cut
            box = (
                round(left * width),
                round(top * height),
                width - round(right * width),
                height - round(bottom * height),
            )
            photo.crop(box).save(directory / f"{name}.jpg", quality=92)
    return directory


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--label", required=True, help="the renderer's name in the results (before, after)")
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--keep", type=Path, help="copy the flagged images here")
    args = parser.parse_args()
    templates = load_templates()
    generator = StudioGenerator()
    started = time.perf_counter()
    sets: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        for set_name, description, cut in PHOTO_SETS:
            photos = cut_photos(work / set_name / "photos", cut)
            generate_support.FIXTURES = photos
            try:
                model = build_model(work / set_name / "model")
            finally:
                generate_support.FIXTURES = FIXTURES
            flagged: list[dict[str, Any]] = []
            images = dropped = 0
            for template in templates:
                out = work / set_name / template["id"]
                studio = template["variants"][0]["studio"]
                generator.generate(
                    RecordingJob(),
                    generate_params(model, out, studio=studio, template_id=template["id"], count=COUNT, size=args.size),
                )
                for index in range(COUNT):
                    images += 1
                    path = out / f"image-{index}.jpg"
                    if not path.exists():
                        dropped += 1
                        continue
                    report = find_streaks(np.asarray(Image.open(path).convert("RGB")))
                    if report.flagged:
                        flagged.append({"template": template["id"], "image": index, "edges": report.edges})
                        if args.keep:
                            args.keep.mkdir(parents=True, exist_ok=True)
                            (args.keep / f"{set_name}-{template['id']}-{index}.jpg").write_bytes(path.read_bytes())
            sets[set_name] = {
                "photos": description,
                "images": images,
                "flagged": len(flagged),
                "dropped": dropped,
                "which": flagged,
            }
            print(f"{args.label} {set_name}: {len(flagged)} of {images} flagged, {dropped} dropped", flush=True)
    path = RESULTS / "engine-streaks.json"
    results: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    results[args.label] = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "size": args.size,
        "templates": len(templates),
        "images_per_template": COUNT,
        "seconds": round(time.perf_counter() - started, 1),
        "sets": sets,
    }
    RESULTS.mkdir(exist_ok=True)
    path.write_text(json.dumps(results, indent=2) + "\n")
    lines = [
        "# Edge-replication streaks (studio engine)",
        "",
        "Images flagged by the engine's streak detector (`studio/render/streaks.py`), every template's first "
        f"variant, {COUNT} images each at the size shown, from models of the fixture photos cut in code. "
        "Regenerate with `apps/worker/engine/.venv/bin/python bench/engine-streaks.py --label after`.",
        "",
        "| renderer | photos | flagged / images | dropped by the engine |",
        "| --- | --- | --- | --- |",
    ]
    for label, run in results.items():
        for set_name, counted in run["sets"].items():
            lines.append(
                f"| {label} ({run['date']}, {run['size']} px) | {set_name}: {counted['photos']} | "
                f"**{counted['flagged']}** / {counted['images']} | {counted.get('dropped', 0)} |"
            )
    (RESULTS / "engine-streaks.md").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
