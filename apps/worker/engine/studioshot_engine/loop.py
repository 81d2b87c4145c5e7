"""The protocol loop: commands arrive on the reader thread, jobs run one at a time on the main thread.

One process serves any number of jobs in sequence (a warm engine): a `train` goes to the trainer,
a `generate` to the generator, made on the first generate job (its imports and model caches stay
for the next ones).
"""

from __future__ import annotations

import queue
import sys
import threading
import traceback
from collections.abc import Callable, Mapping
from typing import Any, NoReturn

from . import protocol
from .channel import Channel
from .jobs import BadInput, Generator, JobCancelled, Trainer
from .protocol import ArtifactKind, GenerateParams, LogLevel, ProtocolError, StartCommand, TrainParams, parse_command

CANCELLED_MESSAGES = {"train": "Training was cancelled.", "generate": "Generation was cancelled."}
GeneratorFactory = Callable[[], Generator]


class GenerationUnavailable(Exception):
    """This engine build cannot generate (its generator did not load)."""


class EngineLoop:
    def __init__(self, channel: Channel, trainer: Trainer, generator_factory: GeneratorFactory | None = None) -> None:
        self._channel = channel
        self._trainer = trainer
        self._generator_factory = generator_factory
        self._generator: Generator | None = None
        self._starts: queue.SimpleQueue[StartCommand] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._accepted: set[str] = set()  # queued or running
        self._cancel_requested: set[str] = set()

    def serve_forever(self) -> NoReturn:
        """Runs accepted jobs in order until the channel closes (which ends the process)."""
        self._channel.start_reader(self._on_line)
        while True:
            self._run(self._starts.get())

    def _on_line(self, line: bytes) -> None:
        if not line.strip():
            return  # blank lines carry nothing; the worker's side skips them too
        try:
            command = parse_command(line)
        except ProtocolError as error:
            self._channel.send(protocol.error(error.job_id, "protocol", str(error), retryable=False))
            return
        reply = None
        with self._lock:
            if isinstance(command, StartCommand):
                if command.job_id in self._accepted:
                    # Not attributed to the job: the run already under way goes on undisturbed.
                    reply = protocol.error(None, "protocol", f"job {command.job_id} was started twice", retryable=False)
                else:
                    self._accepted.add(command.job_id)
                    self._starts.put(command)
            elif command.job_id in self._accepted:
                self._cancel_requested.add(command.job_id)
            else:
                # A cancel that crossed the job's result on the pipe: nothing left to stop.
                reply = protocol.log("info", f"cancel for job {command.job_id} ignored: not running")
        if reply is not None:
            self._channel.send(reply)

    def _run(self, command: StartCommand) -> None:
        job = RunningJob(self._channel, command.job_id, self._is_cancel_requested, command.request_id)
        # The run's first line: with the job id and the request id, which find it in the logs.
        job.log("info", f"{command.task} started")
        try:
            job.raise_if_cancelled()
            if isinstance(command.params, TrainParams):
                summary = self._trainer.train(job, command.params)
            else:
                summary = self._generate(job, command.params)
            self._channel.send(protocol.result(command.job_id, summary))
        except JobCancelled:
            message = CANCELLED_MESSAGES[command.task]
            self._channel.send(protocol.error(command.job_id, "cancelled", message, retryable=False))
        except BadInput as error:
            self._channel.send(protocol.error(command.job_id, "bad_input", str(error), retryable=False))
        except GenerationUnavailable as error:
            self._channel.send(protocol.error(command.job_id, "internal", str(error), retryable=False))
        except Exception as error:  # any other failure is ours, and worth a retry
            traceback.print_exc(file=sys.stderr)
            message = f"internal error: {type(error).__name__}: {error}"
            self._channel.send(protocol.error(command.job_id, "internal", message, retryable=True))
        finally:
            with self._lock:
                self._accepted.discard(command.job_id)
                self._cancel_requested.discard(command.job_id)

    def _generate(self, job: RunningJob, params: GenerateParams) -> dict[str, Any]:
        if self._generator is None:
            if self._generator_factory is None:
                raise GenerationUnavailable("This engine cannot generate images.")
            try:
                self._generator = self._generator_factory()
            except ImportError as error:
                traceback.print_exc(file=sys.stderr)
                raise GenerationUnavailable(f"This engine cannot generate images: {error}") from error
        return self._generator.generate(job, params)

    def _is_cancel_requested(self, job_id: str) -> bool:
        with self._lock:
            return job_id in self._cancel_requested


class RunningJob:
    """The JobContext of one run: reports go straight to the pipe, tagged with the job id."""

    def __init__(
        self,
        channel: Channel,
        job_id: str,
        is_cancel_requested: Callable[[str], bool],
        request_id: str | None = None,
    ) -> None:
        self._channel = channel
        self.job_id = job_id
        self.request_id = request_id
        self._is_cancel_requested = is_cancel_requested

    def progress(
        self,
        step: int,
        total: int,
        message: str,
        metrics: Mapping[str, float] | None = None,
        eta_seconds: float | None = None,
    ) -> None:
        # Checked first, so no progress follows a cancel the engine has read.
        self.raise_if_cancelled()
        self._channel.send(
            protocol.progress(self.job_id, step, total, message, metrics=metrics, eta_seconds=eta_seconds)
        )

    def raise_if_cancelled(self) -> None:
        if self._is_cancel_requested(self.job_id):
            raise JobCancelled

    def artifact(self, path: str, kind: ArtifactKind, meta: Mapping[str, Any] | None = None) -> None:
        self._channel.send(protocol.artifact(self.job_id, path, kind, meta))

    def log(self, level: LogLevel, message: str) -> None:
        self._channel.send(protocol.log(level, message, job_id=self.job_id, request_id=self.request_id))
