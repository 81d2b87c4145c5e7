#!/usr/bin/env bash
# Runs benchmarks against the built product with the same provisioning as `npm test`:
#   bash bench/run.sh              every benchmark
#   bash bench/run.sh NAME         one (profile-throughput, landing, webhook-throughput,
#                                  photo-processing, photo-upload, photo-checks, same-person, training,
#                                  journeys, queue-throughput, engine-generate, generation, image-serving, generate-page,
#                                  metrics-overhead, fleet-simulation)
#   bash bench/run.sh fuzz-long        the long random API fuzz run (not part of "every": ~20 min)
#   SAME_PERSON_REAL_DIR=dir bash bench/run.sh same-person-real
#                                      the same-person check on real photos not shipped here (not
#                                      part of "every"; see bench/same-person-real.ts)
# Results are written to bench/results/ (commit them with the machine they ran on).
source "$(dirname "$0")/../scripts/lib.sh"
provision
cd "$ROOT"
pnpm exec turbo run build --output-logs=errors-only
for name in ${1:-profile-throughput landing webhook-throughput photo-processing photo-upload photo-checks same-person training journeys queue-throughput engine-generate generation image-serving generate-page metrics-overhead fleet-simulation}; do
  log "bench: $name"
  if [ "$name" = fuzz-long ]; then ensure_schemathesis; fi
  if [ "$name" = profile-throughput ]; then ensure_vegeta; fi
  if [ "$name" = engine-generate ]; then
    "$ENGINE_PYTHON" bench/engine-generate.py
  else
    pnpm --filter @studioshot/bench "$name"
  fi
done
