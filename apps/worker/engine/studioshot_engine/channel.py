"""The fd-3 pipe to the worker: thread-safe writes, and a reader thread that ends the process with it.

Node gives the child a UNIX socketpair as fd 3, so one descriptor both reads and writes. When the
worker dies (even by kill -9) its end closes: the read hits EOF or a write fails, and the engine
exits at once, mid-job or not, so no orphaned engine keeps computing for nobody.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from typing import NoReturn

PARENT_GONE_EXIT_CODE = 0


class Channel:
    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._write_lock = threading.Lock()

    def send(self, line: bytes) -> None:
        """Writes one whole line; lines from different threads never interleave."""
        with self._write_lock:
            view = memoryview(line)
            while view:
                try:
                    written = os.write(self._fd, view)
                except OSError as error:
                    _parent_gone(f"writing to the protocol pipe failed: {error}")
                view = view[written:]

    def start_reader(self, on_line: Callable[[bytes], None]) -> None:
        """Calls `on_line` for every line the worker sends, on a daemon thread; EOF ends the process."""
        threading.Thread(target=self._read_lines, args=(on_line,), name="fd-reader", daemon=True).start()

    def _read_lines(self, on_line: Callable[[bytes], None]) -> None:
        try:
            with open(self._fd, "rb", closefd=False) as stream:
                for line in stream:
                    on_line(line)
        except OSError as error:
            _parent_gone(f"reading the protocol pipe failed: {error}")
        _parent_gone("the worker closed the protocol pipe")


def _parent_gone(reason: str) -> NoReturn:
    with contextlib.suppress(OSError):  # stderr may have gone with the worker; exiting is what matters
        os.write(2, f"studioshot_engine: {reason}; exiting\n".encode())
    # os._exit, not sys.exit: it ends the process from any thread, without waiting for the job.
    os._exit(PARENT_GONE_EXIT_CODE)
