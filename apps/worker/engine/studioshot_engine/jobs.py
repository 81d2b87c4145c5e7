"""What a trainer sees of the protocol: a job to report to, and the two ways a job ends early."""

from __future__ import annotations

from typing import Any, Protocol

from .protocol import ArtifactKind, LogLevel, TrainParams


class BadInput(Exception):
    """The photos cannot make a model. The message is plain language: the user may read it."""


class JobCancelled(Exception):
    """The worker cancelled the job; raised at the next step boundary."""


class JobContext(Protocol):
    def progress(self, step: int, total: int, message: str) -> None:
        """Reports `step` of `total` done; raises JobCancelled instead once a cancel has arrived."""

    def raise_if_cancelled(self) -> None: ...

    def artifact(self, path: str, kind: ArtifactKind) -> None: ...

    def log(self, level: LogLevel, message: str) -> None: ...


class Trainer(Protocol):
    def train(self, job: JobContext, params: TrainParams) -> dict[str, Any]:
        """Writes the artifacts (announcing each) and returns the result summary."""
        ...
