"""What a task sees of the protocol: a job to report to, and the two ways a job ends early."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from .protocol import ArtifactKind, GenerateParams, LogLevel, TrainParams


class BadInput(Exception):
    """The input cannot make a model or an image. The message is plain language: the user may read it."""


class JobCancelled(Exception):
    """The worker cancelled the job; raised at the next step boundary."""


class JobContext(Protocol):
    """The running job a trainer or generator reports to (the loop's `_RunningJob`, a test's recorder)."""

    def progress(
        self,
        step: int,
        total: int,
        message: str,
        metrics: Mapping[str, float] | None = None,
        eta_seconds: float | None = None,
    ) -> None:
        """Reports `step` of `total` done; raises JobCancelled instead once a cancel has arrived."""

    def raise_if_cancelled(self) -> None: ...

    def artifact(self, path: str, kind: ArtifactKind, meta: Mapping[str, Any] | None = None) -> None:
        """Announces a finished file in the output directory (`kind`: a lowercase word, `meta`: small
        facts about it, each a string, number, boolean or list of numbers)."""

    def log(self, level: LogLevel, message: str) -> None: ...


class Trainer(Protocol):
    def train(self, job: JobContext, params: TrainParams) -> dict[str, Any]:
        """Writes the artifacts (announcing each) and returns the result summary."""
        ...


class Generator(Protocol):
    def generate(self, job: JobContext, params: GenerateParams) -> dict[str, Any]:
        """Writes the images (announcing each) and returns the result summary."""
        ...
