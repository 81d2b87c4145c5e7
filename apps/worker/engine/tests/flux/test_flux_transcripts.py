"""The flux golden transcripts (packages/contracts/engine-transcripts/flux), replayed against a real
flux engine process on the tiny weights with the transcripts' settings (flux/settings.json)."""

from __future__ import annotations

from pathlib import Path

import pytest
from flux_support import FLUX_MESSAGE_TIMEOUT_S, FLUX_TRANSCRIPTS, flux_env
from harness import StartEngine, replay_transcript

FLUX_TRANSCRIPT_FILES = sorted(FLUX_TRANSCRIPTS.glob("*.ndjson"))


def test_there_are_flux_transcripts_for_each_conversation() -> None:
    assert {path.stem for path in FLUX_TRANSCRIPT_FILES} == {"train-resume", "generate"}


@pytest.mark.parametrize("path", FLUX_TRANSCRIPT_FILES, ids=lambda path: path.stem)
def test_flux_engine_replays_transcript(
    path: Path, start_engine: StartEngine, flux_weights: Path, tmp_path: Path
) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    engine = start_engine("--engine", "flux", expect_ready=False, env=flux_env(flux_weights))
    replay_transcript(path, engine, out_dir, timeout=FLUX_MESSAGE_TIMEOUT_S)
