"""Schemathesis hooks for the Studioshot API fuzz run (apps/api/test/fuzz/harness.ts loads them).

Every authenticated call is made as the real user the harness signed up (FUZZ_ACCESS_TOKEN),
except the calls that end a session or change the account: each of those test cases gets a
throw-away user of its own, signed up through the API just before, so the main user's session
and profile stay as seeded for the rest of the run. A password reset ends every session of its
account, and the fuzzer can learn the main user's address (GET /api/v1/users/profile) and chain
forgot-password (whose answer carries the code with outbox mail) into reset-password: those two
calls name a stand-in account instead whenever they name the main user.
"""

import itertools
import json
import os
import urllib.request
import uuid

import schemathesis

BASE_URL = os.environ["FUZZ_BASE_URL"]
ACCESS_TOKEN = os.environ["FUZZ_ACCESS_TOKEN"]
USER_EMAIL = os.environ["FUZZ_USER_EMAIL"].strip().lower()

_serial = itertools.count()


def sign_up_throwaway() -> dict:
    """A new account through POST /api/v1/auth/register; returns its token pair."""
    n = next(_serial)
    body = json.dumps(
        {
            "email": f"throwaway-{os.getpid()}-{n}@example.com",
            "password": f"throwaway-password-{n}",
            "name": "Throwaway User",
        }
    ).encode()
    request = urllib.request.Request(
        f"{BASE_URL}/api/v1/auth/register",
        data=body,
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


# Calls that end sign-ins (one, all, or every other one with a password change).
_SESSION_ENDING = {
    ("POST", "/api/v1/auth/logout"),
    ("PATCH", "/api/v1/users/profile"),
    ("DELETE", "/api/v1/users/sessions/{id}"),
    ("DELETE", "/api/v1/users/sessions"),
    ("POST", "/api/v1/users/change-password"),
    # Deleting the account: refused without its password, and never tried on the main user.
    ("DELETE", "/api/v1/users/me"),
}


def _ends_session(ctx) -> bool:
    operation = ctx.operation
    return (operation.method.upper(), operation.path) in _SESSION_ENDING


@schemathesis.auth(refresh_interval=None).apply_to(_ends_session)
class ThrowawayUser:
    """A fresh user for every test case of a session-ending or account-changing call."""

    def get(self, case, context):
        return sign_up_throwaway()["access_token"]

    def set(self, case, data, context):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


@schemathesis.auth(refresh_interval=3000)
class FuzzUser:
    """The seeded user (credits, a completed upload session, a trained model)."""

    def get(self, case, context):
        return ACCESS_TOKEN

    def set(self, case, data, context):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


_stand_in: dict = {}


def stand_in_email() -> str:
    """A throw-away account that password resets aimed at the main user land on instead."""
    if "email" not in _stand_in:
        registered = sign_up_throwaway()
        _stand_in["email"] = registered["user"]["email"]
    return _stand_in["email"]


# A real client sends a fresh idempotency key with each new Generate (the web app one per click).
# Schemathesis would reuse one generated key with different bodies, which the API rightly refuses
# (422 idempotency_key_reused), so every Generate case gets a key of its own, in the header and in
# any body field that carries one.
GENERATE_PATHS = (
    "/api/v1/generation/generate-trained",
    "/api/v1/inference/generate",
    "/inference/generate",
    "/generation/flux-generate",
    "/models/generate-image",
    "/api/v1/queue/generation/start-queued",
    "/api/v1/queue/submit",
)


def _fresh_keys(case, kwargs) -> None:
    key = f"fuzz-{uuid.uuid4()}"
    headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != "idempotency-key"}
    case.headers = {**headers, "Idempotency-Key": key}
    if isinstance(kwargs.get("headers"), dict):
        kwargs["headers"] = {
            **{k: v for k, v in kwargs["headers"].items() if k.lower() != "idempotency-key"},
            "Idempotency-Key": key,
        }
    for body in (kwargs.get("json"), kwargs.get("data")):
        if not isinstance(body, dict):
            continue
        if "idempotency_key" in body:
            body["idempotency_key"] = key
        params = body.get("params")
        if isinstance(params, dict) and "idempotency_key" in params:
            params["idempotency_key"] = key
    files = kwargs.get("files")
    if isinstance(files, list):
        kwargs["files"] = [
            (name, (part[0], key, *part[2:]) if name == "idempotency_key" and isinstance(part, tuple) else part)
            for name, part in files
        ]


@schemathesis.hook
def before_call(context, case, kwargs):
    path = case.operation.path
    if path in GENERATE_PATHS:
        _fresh_keys(case, kwargs)
        return
    if not (path.endswith("/api/v1/auth/forgot-password") or path.endswith("/api/v1/auth/reset-password")):
        return
    body = kwargs.get("json")
    if isinstance(body, dict) and isinstance(body.get("email"), str):
        if body["email"].strip().lower() == USER_EMAIL:
            body["email"] = stand_in_email()
