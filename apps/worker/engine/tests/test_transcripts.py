"""Every golden transcript, replayed against a real engine process (rules: engine-transcripts/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import TRANSCRIPTS, StartEngine, replay_transcript

TRANSCRIPT_FILES = sorted(TRANSCRIPTS.glob("*.ndjson"))


def test_there_are_transcripts_for_every_outcome() -> None:
    names = {path.stem for path in TRANSCRIPT_FILES}
    assert {
        "handshake",
        "train-success",
        "train-cancelled",
        "train-bad-input",
        "protocol-mismatch",
        "generate-success",
        "generate-cancelled",
    } <= names


@pytest.mark.parametrize("path", TRANSCRIPT_FILES, ids=lambda path: path.stem)
def test_engine_replays_transcript(path: Path, start_engine: StartEngine, tmp_path: Path) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    replay_transcript(path, start_engine(expect_ready=False), out_dir)
