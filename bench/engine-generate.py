#!/usr/bin/env python3
"""The studio engine's generation speed, in process (no worker, no pipe): what a warm engine takes
for a generation of 4 images at 1024 px, and for its first image.

    apps/worker/engine/.venv/bin/python bench/engine-generate.py [--runs 7] [--model model.npz]

The model is trained from the fixture photos (apps/worker/test/fixtures/astronaut*.jpg) unless one
is given. Each measured run is a whole `StudioGenerator().generate` of 4 images on a warm engine
(imports done, the model decoded and its portraits prepared by an earlier job, as a long-lived
engine has them); the templates cycle through the five backdrop kinds. Then the same with the
model cache emptied before each run (an engine's first job for a model). Medians are printed and
written, with the machine, to bench/results/engine-generate.{json,md}.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "apps" / "worker" / "engine"
sys.path[:0] = [str(ENGINE), str(ENGINE / "tests")]

from generate_support import RecordingJob, build_model, generate_params, load_templates  # noqa: E402
from studioshot_engine.studio.generate import StudioGenerator  # noqa: E402
from studioshot_engine.studio.render import model as model_cache  # noqa: E402
from studioshot_engine.studio.render.ssim import image_ssim  # noqa: E402

RERUN = "apps/worker/engine/.venv/bin/python bench/engine-generate.py"
TARGET_TOTAL_S = 6.0
TARGET_FIRST_S = 3.0
COUNT, SIZE = 4, 1024


class TimedJob(RecordingJob):
    """Notes when each image is announced."""

    def __init__(self) -> None:
        super().__init__()
        self.started = time.perf_counter()
        self.image_times: list[float] = []

    def artifact(self, path: str, kind: str, meta: Mapping[str, Any] | None = None) -> None:
        self.image_times.append(time.perf_counter() - self.started)
        super().artifact(path, kind, meta)


def one_per_kind(templates: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    chosen: dict[str, tuple[str, dict[str, Any]]] = {}
    for template in templates:
        studio = template["variants"][0]["studio"]
        chosen.setdefault(studio["backdrop"]["kind"], (template["id"], studio))
    return [chosen[kind] for kind in sorted(chosen)]


def max_pair_ssim(out: Path) -> float:
    images = [np.asarray(Image.open(out / f"image-{k}.jpg").convert("RGB")) for k in range(COUNT)]
    return max(image_ssim(images[a], images[b]) for a, b in itertools.combinations(range(COUNT), 2))


def run(
    generator: StudioGenerator, model: Path, out: Path, template: tuple[str, dict[str, Any]], seed: int
) -> tuple[float, float]:
    job = TimedJob()
    generator.generate(
        job, generate_params(model, out, studio=template[1], template_id=template[0], seed=seed, count=COUNT, size=SIZE)
    )
    return time.perf_counter() - job.started, job.image_times[0]


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": len(os.sched_getaffinity(0)),
        "python": platform.python_version(),
        "load_average_before": [round(v, 2) for v in os.getloadavg()],
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--model", type=Path)
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    info = machine()
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        model = args.model or build_model(work / "model")
        templates = one_per_kind(load_templates())
        generator = StudioGenerator()
        run(generator, model, work / "warmup", templates[0], 1)  # imports, model, portraits
        warm = [
            run(generator, model, work / f"warm-{i}", templates[i % len(templates)], 100 + i) for i in range(args.runs)
        ]
        ssims = [max_pair_ssim(work / f"warm-{i}") for i in range(args.runs)]
        cold = []
        for i in range(max(3, args.runs // 2)):
            model_cache.clear_cache()
            cold.append(run(generator, model, work / f"cold-{i}", templates[i % len(templates)], 200 + i))
    result = {
        "machine": info,
        "input": {
            "images": COUNT,
            "size": SIZE,
            "model": "fixture photos" if args.model is None else str(args.model),
            "templates": [template_id for template_id, _ in templates],
        },
        "warm": {
            "median_total_s": round(statistics.median(t for t, _ in warm), 3),
            "median_first_image_s": round(statistics.median(f for _, f in warm), 3),
            "runs": [{"total_s": round(t, 3), "first_image_s": round(f, 3)} for t, f in warm],
        },
        "max_pair_ssim": {"median": round(statistics.median(ssims), 3), "max": round(max(ssims), 3)},
        "cold_model": {
            "median_total_s": round(statistics.median(t for t, _ in cold), 3),
            "median_first_image_s": round(statistics.median(f for _, f in cold), 3),
            "runs": [{"total_s": round(t, 3), "first_image_s": round(f, 3)} for t, f in cold],
        },
        "targets": {"warm_total_s": TARGET_TOTAL_S, "warm_first_image_s": TARGET_FIRST_S},
    }
    passed = (
        result["warm"]["median_total_s"] < TARGET_TOTAL_S and result["warm"]["median_first_image_s"] < TARGET_FIRST_S
    )
    markdown = "\n".join(
        [
            "# Engine generation (studio)",
            "",
            f"Machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}; {info['date']} "
            f"(load average before: {', '.join(map(str, info['load_average_before']))}).",
            f"Input: {COUNT} images of {SIZE}x{SIZE} per generation, a model of the fixture photos; templates "
            f"{', '.join(result['input']['templates'])} in turn.",
            "",
            "| measure | median | target |",
            "| --- | --- | --- |",
            f"| warm engine: 4 images, total s | **{result['warm']['median_total_s']}** | < {TARGET_TOTAL_S} |",
            f"| warm engine: first image, s | **{result['warm']['median_first_image_s']}** | < {TARGET_FIRST_S} |",
            f"| largest SSIM between two images of a generation (256 px grey), median / max | "
            f"{result['max_pair_ssim']['median']} / {result['max_pair_ssim']['max']} | < 0.85 |",
            f"| model not cached (first job for it): 4 images, total s | {result['cold_model']['median_total_s']} | |",
            f"| model not cached: first image, s | {result['cold_model']['median_first_image_s']} | |",
            "",
            f"Warm runs (total / first, s): {', '.join(f'{t:.2f}/{f:.2f}' for t, f in warm)}.",
            f"Cold-model runs (total / first, s): {', '.join(f'{t:.2f}/{f:.2f}' for t, f in cold)}.",
            "",
            f"Result: {'PASS' if passed else 'FAIL'}. Regenerate with `{RERUN}`.",
            "",
        ]
    )
    print(markdown)
    if not args.no_write:
        results = ROOT / "bench" / "results"
        results.mkdir(exist_ok=True)
        (results / "engine-generate.json").write_text(json.dumps(result, indent=2) + "\n")
        (results / "engine-generate.md").write_text(markdown)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
