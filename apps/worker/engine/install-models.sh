#!/usr/bin/env bash
# Puts the model files the studio engine runs into <venv>/share/studioshot-models (where the
# engine looks unless ENGINE_MODEL_DIR says otherwise): MediaPipe's selfie segmentation, taken out
# of the mediapipe 0.10.21 wheel (newer releases dropped it, and the package itself pins numpy<2,
# so the engine never depends on it), checked against its sha256. Used by scripts/lib.sh and
# infra/worker.Dockerfile.
#
#   bash apps/worker/engine/install-models.sh <venv>
set -euo pipefail
venv="${1:?usage: install-models.sh <venv>}"
WHEEL="mediapipe==0.10.21"
FILES=(
  "mediapipe/modules/selfie_segmentation/selfie_segmentation.tflite 9ee168ec7c8f2a16c56fe8e1cfbc514974cbbb7e434051b455635f1bd1462f5c"
)
# What this script installs, for the caller's stamp: change a pin or a sum, and it runs again.
if [ "${2:-}" = "--describe" ]; then
  printf '%s\n' "$WHEEL" "${FILES[@]}"
  exit 0
fi
models="$venv/share/studioshot-models"
wheels="$(mktemp -d)"
trap 'rm -rf "$wheels"' EXIT
# Every platform's wheel carries the same model files: this one is fetched whatever the host is.
"$venv/bin/pip" download -q --disable-pip-version-check --no-deps --only-binary=:all: \
  --platform manylinux_2_28_x86_64 --python-version 3.11 -d "$wheels" "$WHEEL"
mkdir -p "$models"
"$venv/bin/python" - "$wheels"/mediapipe-*.whl "$models" "${FILES[@]}" <<'PY'
import hashlib, os, sys, zipfile
wheel, target, entries = sys.argv[1], sys.argv[2], sys.argv[3:]
with zipfile.ZipFile(wheel) as archive:
    for entry in entries:
        member, digest = entry.split()
        data = archive.read(member)
        if hashlib.sha256(data).hexdigest() != digest:
            sys.exit(f"{member}: sha256 {hashlib.sha256(data).hexdigest()} is not the expected {digest}")
        path = os.path.join(target, os.path.basename(member))
        with open(f"{path}.partial", "wb") as file:
            file.write(data)
        os.replace(f"{path}.partial", path)
PY
