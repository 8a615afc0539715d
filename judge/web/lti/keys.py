"""The tool's signing keys: RSA, made by the judge on first use and kept in its store (never a
file). The newest key signs (deep-linking responses, the services' token requests); a rotated
key signs no more but stays in the published JWKS for KEEP_PUBLISHED_S, so a platform that
cached the set still verifies what it signed, and is then removed."""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwcrypto.jwk import JWK

from judge.web.state.lti import LtiRecords, ToolKey

KEEP_PUBLISHED_S = 7 * 24 * 3600  # a retired key stays in the JWKS this long
ROTATE_AFTER_S = 90 * 24 * 3600  # `judge serve` makes a new key when the newest is this old
ALGORITHM = "RS256"


def new_key(now: float | None = None) -> ToolKey:
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    return ToolKey(secrets.token_hex(8), pem, time.time() if now is None else now, None)


def signing_key(store: LtiRecords) -> ToolKey:
    """The key that signs now: the newest, made (and the old ones retired) when there is none
    or it is older than ROTATE_AFTER_S."""
    held = [k for k in store.lti_keys() if k.retired is None]
    now = time.time()
    if held and now - held[0].created < ROTATE_AFTER_S:
        return held[0]
    return rotate(store, now)


def rotate(store: LtiRecords, now: float | None = None) -> ToolKey:
    """A new signing key; the old ones are published a while longer, then removed."""
    now = time.time() if now is None else now
    key = new_key(now)
    store.add_lti_key(key, retire_before=now - KEEP_PUBLISHED_S)
    return key


def public_jwk(key: ToolKey) -> dict[str, Any]:
    jwk = JWK.from_pem(key.private_pem.encode())
    public: dict[str, Any] = json.loads(jwk.export_public())
    return {**public, "kid": key.kid, "alg": ALGORITHM, "use": "sig"}


def published(store: LtiRecords) -> dict[str, list[dict[str, Any]]]:
    """The JWKS: the signing key and those retired within KEEP_PUBLISHED_S."""
    signing_key(store)
    now = time.time()
    keys = [k for k in store.lti_keys() if k.retired is None or now - k.retired < KEEP_PUBLISHED_S]
    return {"keys": [public_jwk(k) for k in keys]}
