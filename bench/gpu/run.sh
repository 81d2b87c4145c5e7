#!/usr/bin/env bash
# The FLUX.1 GPU benchmark, on the GPU machine (its python3 holds torch, peft and transformers):
#   bash bench/gpu/run.sh [STAGES]      STAGES: env,eager,train (default), stepcache,compiled, or any list
# Installs the carried wheels (bench/gpu/wheels) into a scratch directory, runs the stages, and
# writes flux-gpu.json / .md (and flux-gpu-profile.txt) to $OUT when set (the GPU machine's output folder),
# else to bench/results. Figures already in bench/results/flux-gpu.json (an earlier command's) are
# kept and the new stages' added, so the stages can run as separate commands of under 10 minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
stages="${1:-env,eager,train}"
site="$(mktemp -d)"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target "$site" bench/gpu/wheels/*.whl
out="${OUT:-bench/results}"
mkdir -p "$out"
if [ "$out" != bench/results ] && [ -f bench/results/flux-gpu.json ]; then cp bench/results/flux-gpu.json "$out/"; fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1 \
  python3 bench/gpu/flux_bench.py --stages "$stages" --out "$out"
