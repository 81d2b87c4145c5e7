from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from harness import EngineProcess, StartEngine

if TYPE_CHECKING:
    # Imported where it is used: the flux suite shares this file but not the studio's OpenCV models.
    from studioshot_engine.studio.training import StudioTrainer


@pytest.fixture
def start_engine(tmp_path: Path) -> Iterator[StartEngine]:
    """Starts engine processes (each must say ready first) and kills whatever is left after the test."""
    engines: list[EngineProcess] = []

    def start(*extra_args: str, expect_ready: bool = True, env: Mapping[str, str] | None = None) -> EngineProcess:
        engine = EngineProcess(tmp_path / f"engine-{len(engines)}.stderr", *extra_args, env=env)
        engines.append(engine)
        if expect_ready:
            assert engine.receive()["type"] == "ready"
        return engine

    yield start
    for engine in engines:
        engine.stop()


@pytest.fixture(scope="session")
def trainer() -> StudioTrainer:
    """One trainer (its detectors loaded once) for every in-process test."""
    from studioshot_engine.studio.training import StudioTrainer  # noqa: PLC0415

    return StudioTrainer()
