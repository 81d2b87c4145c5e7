#!/usr/bin/env python3
"""Three templates' results on one model, as the studio engine renders them, for a look by eye.

    apps/worker/engine/.venv/bin/python bench/engine-samples.py

Two models are trained from the fixture photos (apps/worker/test/fixtures/astronaut*.jpg): as they
are, and with the top 4% cut off so the hair touches the photo's top edge. Each renders image 0 of
prof_1 (navy seamless), prof_23 (office) and prof_41 (neon gradient) at 1024 px, written to
bench/results/studio-samples/{photos}-{template}.jpg.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "apps" / "worker" / "engine"
sys.path[:0] = [str(ENGINE), str(ENGINE / "tests")]

import generate_support  # noqa: E402
from generate_support import FIXTURES, MODEL_PHOTOS, RecordingJob, build_model, generate_params, load_templates  # noqa: E402

from studioshot_engine.studio.generate import StudioGenerator  # noqa: E402

TEMPLATES = ("prof_1", "prof_23", "prof_41")
OUT = ROOT / "bench" / "results" / "studio-samples"


def main() -> int:
    templates = {t["id"]: t for t in load_templates()}
    OUT.mkdir(parents=True, exist_ok=True)
    generator = StudioGenerator()
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        for photos, top in (("as-is", 0.0), ("hair-at-top", 0.04)):
            folder = work / photos / "photos"
            folder.mkdir(parents=True)
            for name in MODEL_PHOTOS:
                with Image.open(FIXTURES / f"{name}.jpg") as photo:
                    width, height = photo.size
                    photo.crop((0, round(top * height), width, height)).save(folder / f"{name}.jpg", quality=92)
            generate_support.FIXTURES = folder
            try:
                model = build_model(work / photos / "model")
            finally:
                generate_support.FIXTURES = FIXTURES
            for template_id in TEMPLATES:
                out = work / photos / template_id
                studio = templates[template_id]["variants"][0]["studio"]
                generator.generate(
                    RecordingJob(), generate_params(model, out, studio=studio, template_id=template_id, count=1)
                )
                shutil.copy(out / "image-0.jpg", OUT / f"{photos}-{template_id}.jpg")
                print(OUT / f"{photos}-{template_id}.jpg")
    return 0


if __name__ == "__main__":
    sys.exit(main())
