"""The protocol loop: commands arrive on the reader thread, jobs run one at a time on the main thread."""

from __future__ import annotations

import queue
import sys
import threading
import traceback
from collections.abc import Callable
from typing import NoReturn

from . import protocol
from .channel import Channel
from .jobs import BadInput, JobCancelled, Trainer
from .protocol import ArtifactKind, LogLevel, ProtocolError, StartCommand, parse_command


class EngineLoop:
    def __init__(self, channel: Channel, trainer: Trainer) -> None:
        self._channel = channel
        self._trainer = trainer
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
        job = _RunningJob(self._channel, command.job_id, self._is_cancel_requested)
        try:
            job.raise_if_cancelled()
            summary = self._trainer.train(job, command.params)
            self._channel.send(protocol.result(command.job_id, summary))
        except JobCancelled:
            self._channel.send(protocol.error(command.job_id, "cancelled", "Training was cancelled.", retryable=False))
        except BadInput as error:
            self._channel.send(protocol.error(command.job_id, "bad_input", str(error), retryable=False))
        except Exception as error:  # any other failure is ours, and worth a retry
            traceback.print_exc(file=sys.stderr)
            message = f"internal error: {type(error).__name__}: {error}"
            self._channel.send(protocol.error(command.job_id, "internal", message, retryable=True))
        finally:
            with self._lock:
                self._accepted.discard(command.job_id)
                self._cancel_requested.discard(command.job_id)

    def _is_cancel_requested(self, job_id: str) -> bool:
        with self._lock:
            return job_id in self._cancel_requested


class _RunningJob:
    """The JobContext of one run: reports go straight to the pipe, tagged with the job id."""

    def __init__(self, channel: Channel, job_id: str, is_cancel_requested: Callable[[str], bool]) -> None:
        self._channel = channel
        self._job_id = job_id
        self._is_cancel_requested = is_cancel_requested

    def progress(self, step: int, total: int, message: str) -> None:
        # Checked first, so no progress follows a cancel the engine has read.
        self.raise_if_cancelled()
        self._channel.send(protocol.progress(self._job_id, step, total, message))

    def raise_if_cancelled(self) -> None:
        if self._is_cancel_requested(self._job_id):
            raise JobCancelled

    def artifact(self, path: str, kind: ArtifactKind) -> None:
        self._channel.send(protocol.artifact(self._job_id, path, kind))

    def log(self, level: LogLevel, message: str) -> None:
        self._channel.send(protocol.log(level, message))
