#!/usr/bin/env bash
# Puts in bench/gpu/wheels/ the wheels the GPU machine lacks (it has torch, peft, transformers,
# accelerate and safetensors, but no diffusers, and no network): diffusers' pure-Python wheel, at
# the version the flux engine pins. Run it here after changing that pin; the wheels travel with
# the working tree.
set -euo pipefail
cd "$(dirname "$0")"
version="$(sed -n 's/^diffusers==//p' ../../apps/worker/engine/requirements-flux.lock)"
rm -f wheels/diffusers-*.whl
python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: -d wheels "diffusers==$version"
ls wheels
