#!/usr/bin/env bash
# Puts in bench/gpu/wheels/ the wheels the GPU machine lacks (it has Python 3.12, torch, peft,
# transformers, accelerate, safetensors, numpy and Pillow, and no network), at the versions the
# flux engine's lock pins: diffusers for the benchmark (run.sh), and for the flux test suite
# (test-flux.sh) pytest with its own dependencies and jsonschema with its (the engine's protocol).
# Run it here after changing one of those pins; the wheels travel with the working tree.
set -euo pipefail
cd "$(dirname "$0")"
lock=../../apps/worker/engine/requirements-flux.lock
# What test-flux.sh installs, by distribution name as the lock writes it.
packages=(diffusers pytest iniconfig pluggy pygments jsonschema jsonschema-specifications referencing attrs rpds-py)
pins=()
for name in "${packages[@]}"; do
  version="$(sed -n "s/^${name}==//p" "$lock")"
  [ -n "$version" ] || { echo "$name is not pinned in $lock" >&2; exit 1; }
  pins+=("$name==$version")
done
rm -f wheels/*.whl
# The GPU machine's Python and platform, whatever this machine runs: rpds-py is compiled.
python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
  --python-version 3.12 --implementation cp --abi cp312 --platform manylinux_2_17_x86_64 \
  -d wheels "${pins[@]}"
printf '%s\n' "${pins[@]}" >wheels/requirements.txt
ls wheels
