import json
import os
import subprocess
import sys

import pytest

from studioshot_engine import PROTOCOL_VERSION, __version__
from studioshot_engine.protocol import decode, encode


def test_encode_is_one_versioned_json_line():
    line = encode("progress", step=3, total=10, message="aligning faces")
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line) == {"v": PROTOCOL_VERSION, "type": "progress", "step": 3, "total": 10, "message": "aligning faces"}


def test_decode_round_trips_and_rejects_other_versions():
    assert decode(encode("cancel"))["type"] == "cancel"
    with pytest.raises(ValueError):
        decode('{"v": 99, "type": "start"}')
    with pytest.raises(ValueError):
        decode("[1, 2]")


def test_engine_process_reports_ready_on_fd_3():
    read_end, write_end = os.pipe()
    proc = subprocess.run(
        [sys.executable, "-m", "studioshot_engine", "--engine", "studio", "--fd", str(write_end)],
        pass_fds=(write_end,),
        timeout=30,
    )
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        message = decode(pipe.readline())
    assert proc.returncode == 0
    assert message == {"v": PROTOCOL_VERSION, "type": "ready", "engine": "studio", "version": __version__}
