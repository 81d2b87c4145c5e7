#!/usr/bin/env bash
# The flux engine's test suite (apps/worker/engine/tests/flux) on the GPU machine, with its own
# torch: every test runs there, the `cuda` ones included, on the GPU (torch picks it), and none
# compiles but the `compile` test.
#   bash bench/gpu/test-flux.sh            from the repository root, on a GPU machine
# Installs only the wheels carried in bench/gpu/wheels (made by fetch-wheels.sh: pytest, diffusers,
# jsonschema and their dependencies the machine lacks), with pip's index off, into a scratch
# directory. Writes to $OUT when set, else to bench/results:
#   flux-tests-gpu.json  the torch, CUDA and GPU it ran on beside the lock's torch, the counts and
#                        the slowest tests; flux-tests-gpu.txt  pytest's report; .xml  JUnit.
# The suite takes under 5 minutes on an H100 (the compile test most of it); the run stops at 290 s.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p "${OUT:-bench/results}"
out="$(cd "${OUT:-bench/results}" && pwd)"
site="$(mktemp -d)"
trap 'rm -rf "$site"' EXIT
python3 -m pip install -q --disable-pip-version-check --no-index --find-links bench/gpu/wheels \
  --no-deps --no-compile --target "$site" -r bench/gpu/wheels/requirements.txt
export PYTHONPATH="$site:$PWD/apps/worker/engine${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
# Inductor's and Triton's caches start empty: a warm cache would hide the compile test's cost.
export ENGINE_FLUX_COMPILE_CACHE_DIR="$site/compile-cache"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
status=0
(cd apps/worker/engine &&
  timeout 290 python3 -m pytest tests/flux -p no:cacheprovider -rs --durations=15 \
    --junitxml="$out/flux-tests-gpu.xml") 2>&1 | tee "$out/flux-tests-gpu.txt" || status=$?
python3 - "$out" "$status" <<'PY'
import json, re, sys, xml.etree.ElementTree as ET
from pathlib import Path
import torch

out, status = Path(sys.argv[1]), int(sys.argv[2])
lock = Path("apps/worker/engine/requirements-flux.lock").read_text()
pin = lambda name: (re.search(rf"^{name}==(\S+)", lock, re.M) or [None, None])[1]
suite = ET.parse(out / "flux-tests-gpu.xml").getroot() if (out / "flux-tests-gpu.xml").exists() else None
cases = [] if suite is None else list(suite.iter("testcase"))
def outcome(case):
    for kind in ("failure", "error", "skipped"):
        found = case.find(kind)
        if found is not None:
            return kind, (found.get("message") or "")[:300]
    return "passed", ""
results = [{"test": f"{c.get('classname')}::{c.get('name')}", "seconds": float(c.get("time", 0)), "outcome": outcome(c)[0], "message": outcome(c)[1]} for c in cases]
report = {
    "ran_on": {
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "gpu": torch.cuda.get_device_name() if torch.cuda.is_available() else None,
        "python": sys.version.split()[0],
    },
    "lock": {"torch": pin("torch"), "cuda_runtime": pin("nvidia-cuda-runtime"), "diffusers": pin("diffusers"), "pytest": pin("pytest")},
    "exit_status": status,
    "seconds": round(sum(r["seconds"] for r in results), 1),
    "counts": {k: sum(r["outcome"] == k for r in results) for k in ("passed", "failure", "error", "skipped")},
    "not_passed": [r for r in results if r["outcome"] != "passed"],
    "slowest": sorted(results, key=lambda r: -r["seconds"])[:15],
}
(out / "flux-tests-gpu.json").write_text(json.dumps(report, indent=2) + "\n")
print(json.dumps({k: report[k] for k in ("ran_on", "lock", "exit_status", "seconds", "counts")}, indent=2))
PY
exit "$status"
