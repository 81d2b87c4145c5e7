"""Builds every kustomization under infra/k8s and validates every object it makes, offline.

- Kubernetes objects: against the schemas of the oldest Kubernetes version the README supports
  (kubernetes-validate's bundled schemas), strictly: an unknown field is an error.
- KEDA ScaledObjects: against the openAPIV3Schema of KEDA's own CRD, of the KEDA version the README
  names, made strict the same way (every object that lists its properties allows no others).
- The rules the fleet depends on: requests and limits on every container, runAsNonRoot on every
  pod, no Secret object and no literal secret value, each worker Deployment scaled by a
  ScaledObject on the API's queue-load endpoint (never a Redis list length), the API's grace period
  above its shutdown's longest wait.

Before any of that it checks itself: a Deployment and a ScaledObject with a misspelt field must be
refused, or the run fails (a validator that lets everything through proves nothing).

Usage: validate.py KUSTOMIZE_BINARY KEDA_SCALEDOBJECT_CRD KUBERNETES_VERSION
"""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate
import yaml

K8S_DIR = Path(__file__).resolve().parent.parent
# The keys a ScaledObject's metadata may have here (the CRD leaves metadata to the API server).
SCALED_OBJECT_METADATA = {"name", "namespace", "labels", "annotations"}
# A literal value under one of these names would be a credential written into the manifests.
SECRET_NAME_PARTS = ("SECRET", "PASSWORD", "TOKEN", "DATABASE_URL", "SMTP_URL", "ACCESS_KEY")


def kustomizations() -> list[Path]:
    return sorted(p.parent for p in K8S_DIR.rglob("kustomization.yaml"))


def build(kustomize: str, directory: Path) -> list[dict[str, Any]]:
    result = subprocess.run(
        [kustomize, "build", str(directory)], capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise SystemExit(f"kustomize build {directory} failed:\n{result.stderr}")
    return [doc for doc in yaml.safe_load_all(result.stdout) if doc]


def strict(schema: Any) -> Any:
    """The CRD schema with additionalProperties: false wherever an object lists its properties."""
    if isinstance(schema, dict):
        out = {key: strict(value) for key, value in schema.items()}
        if (
            "properties" in schema
            and "additionalProperties" not in schema
            and not schema.get("x-kubernetes-preserve-unknown-fields")
        ):
            out["additionalProperties"] = False
        return out
    if isinstance(schema, list):
        return [strict(item) for item in schema]
    return schema


def scaled_object_validator(crd_path: Path) -> jsonschema.protocols.Validator:
    crd = yaml.safe_load(crd_path.read_text())
    versions = {v["name"]: v for v in crd["spec"]["versions"]}
    schema = strict(versions["v1alpha1"]["schema"]["openAPIV3Schema"])
    return jsonschema.Draft7Validator(schema)


def validate_object(
    doc: dict[str, Any], version: str, scaled_objects: jsonschema.protocols.Validator
) -> list[str]:
    if doc.get("kind") == "ScaledObject":
        errors = [
            f"{'.'.join(str(p) for p in e.absolute_path) or '(root)'}: {e.message}"
            for e in scaled_objects.iter_errors(doc)
        ]
        extra = set(doc.get("metadata", {})) - SCALED_OBJECT_METADATA
        if extra:
            errors.append(f"metadata: unexpected {sorted(extra)}")
        return errors
    try:
        kubernetes_validate.validate(doc, version, strict=True)
    except kubernetes_validate.ValidationError as error:
        path = ".".join(str(p) for p in error.path) or "(root)"
        return [f"{path}: {error.message}"]
    except kubernetes_validate.SchemaNotFoundError as error:
        return [f"no schema for {doc.get('apiVersion')} {doc.get('kind')} in {version}: {error}"]
    return []


def name(doc: dict[str, Any]) -> str:
    return f"{doc.get('kind')}/{doc.get('metadata', {}).get('name')}"


def pod_spec(doc: dict[str, Any]) -> dict[str, Any] | None:
    if doc["kind"] in ("Deployment", "StatefulSet", "Job"):
        return doc["spec"]["template"]["spec"]
    return None


def env_entries(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(container name, env entry) for every container and init container of a pod template."""
    spec = pod_spec(doc) or {}
    containers = spec.get("containers", []) + spec.get("initContainers", [])
    return [(c["name"], entry) for c in containers for entry in c.get("env", [])]


def fleet_rules(docs: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for doc in docs:
        by_kind.setdefault(doc["kind"], []).append(doc)

    if by_kind.get("Secret"):
        problems.append("Secret objects are the operator's, never in the manifests")
    for doc in docs:
        spec = pod_spec(doc)
        if spec is None:
            continue
        if spec.get("securityContext", {}).get("runAsNonRoot") is not True:
            problems.append(f"{name(doc)}: the pod must set runAsNonRoot: true")
        for container in spec.get("containers", []) + spec.get("initContainers", []):
            resources = container.get("resources", {})
            for part in ("requests", "limits"):
                for resource in ("cpu", "memory"):
                    if resource not in resources.get(part, {}):
                        problems.append(
                            f"{name(doc)} {container['name']}: no {resource} in resources.{part}"
                        )
        for container, entry in env_entries(doc):
            if "value" in entry and any(p in entry["name"] for p in SECRET_NAME_PARTS):
                problems.append(
                    f"{name(doc)} {container}: {entry['name']} is a literal; take it from a Secret"
                )

    # Every worker pool is scaled by KEDA on the API's queue-load endpoint.
    scaled = {so["spec"]["scaleTargetRef"]["name"]: so for so in by_kind.get("ScaledObject", [])}
    workers = [
        d
        for d in by_kind.get("Deployment", [])
        if d["spec"]["template"]["metadata"]["labels"].get("app.kubernetes.io/component")
        == "worker"
    ]
    if not workers:
        problems.append("no worker Deployment found")
    for worker in workers:
        so = scaled.get(worker["metadata"]["name"])
        if so is None:
            problems.append(f"{name(worker)}: no ScaledObject scales it")
            continue
        for trigger in so["spec"]["triggers"]:
            meta = trigger.get("metadata", {})
            url = meta.get("url", "")
            if trigger["type"] != "metrics-api" or "/queue-load?queues=" not in url:
                problems.append(
                    f"{name(so)}: scale on the API's /queue-load (metrics-api), not {trigger['type']}"
                )
            if meta.get("valueLocation") != "total":
                problems.append(f"{name(so)}: valueLocation must be `total`")

    # The API's grace period covers its shutdown: readiness delay, longest wait, closing.
    for api in (d for d in by_kind.get("Deployment", []) if d["metadata"]["name"] == "api"):
        spec = pod_spec(api) or {}
        env = {e["name"]: e.get("value") for _, e in env_entries(api)}
        names = ("SHUTDOWN_READINESS_DELAY_MS", "GENERATION_WAIT_MS", "UPLOAD_CHECKS_WAIT_MS")
        waits = [env.get(n) for n in names]
        if None in waits:
            problems.append(f"{name(api)}: set the shutdown delay and both waits explicitly")
            continue
        delay, generation, upload = (int(w) for w in waits)
        # The API's own deadline (apps/api/src/shutdown.ts): delay + the longer wait + 10 s.
        needed = (delay + max(generation, upload) + 10_000) / 1000
        if spec.get("terminationGracePeriodSeconds", 30) <= needed:
            problems.append(f"{name(api)}: terminationGracePeriodSeconds must exceed {needed:g}")
        # The Service must drop the pod while it still serves: readiness fails within the delay.
        readiness = spec["containers"][0].get("readinessProbe", {})
        notice_ms = readiness.get("periodSeconds", 10) * readiness.get("failureThreshold", 3) * 1000
        if readiness.get("httpGet", {}).get("path") != "/health" or notice_ms >= delay:
            problems.append(
                f"{name(api)}: readiness must probe /health and fail within {delay} ms"
            )
    return problems


def self_check(docs: list[dict[str, Any]], version: str, scaled_objects: Any) -> None:
    """A misspelt field must be refused, in a Kubernetes object and in a ScaledObject."""
    deployment = copy.deepcopy(next(d for d in docs if d["kind"] == "Deployment"))
    deployment["spec"]["template"]["spec"]["containers"][0]["resource"] = {}
    so = copy.deepcopy(next(d for d in docs if d["kind"] == "ScaledObject"))
    so["spec"]["minReplicas"] = 0
    so_trigger = copy.deepcopy(next(d for d in docs if d["kind"] == "ScaledObject"))
    so_trigger["spec"]["triggers"][0]["metdata"] = {}
    for bad in (deployment, so, so_trigger):
        if not validate_object(bad, version, scaled_objects):
            raise SystemExit(f"the validator accepted a misspelt field in {name(bad)}: not strict")


def main() -> int:
    kustomize, crd_path, version = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
    scaled_objects = scaled_object_validator(crd_path)
    failures = 0
    checked_self = False
    for directory in kustomizations():
        docs = build(kustomize, directory)
        if not checked_self:
            self_check(docs, version, scaled_objects)
            checked_self = True
        where = directory.relative_to(K8S_DIR)
        problems = [
            f"{name(d)}: {e}" for d in docs for e in validate_object(d, version, scaled_objects)
        ]
        problems += fleet_rules(docs)
        for problem in problems:
            print(f"  {where}: {problem}")
        failures += len(problems)
        print(f"{where}: {len(docs)} objects, {len(problems)} problems (Kubernetes {version})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
