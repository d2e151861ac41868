#!/usr/bin/env python3
"""An independent verifier of provcert certificates, written from the specifications only:
DSSE v1 (github.com/secure-systems-lab/dsse: envelope.md, protocol.md), the in-toto Statement v1 and the
test-result predicate v0.1 (github.com/in-toto/attestation), RFC 8037 (Ed25519 JWKs) and RFC 7638 (thumbprints).
It shares no code with provcert. Usage: independent_verifier.py CERTIFICATE.json JWKS.json
Prints "VALID <result> <subject name> <sha256>" and exits 0, or "REFUSED <reason>" and exits 1."""
import base64
import hashlib
import json
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def pae(payload_type, body):
    # protocol.md: "DSSEv1" + SP + LEN(type) + SP + type + SP + LEN(body) + SP + body
    t = payload_type.encode("utf-8")
    return b"DSSEv1 %d %s %d %s" % (len(t), t, len(body), body)


def thumbprint(x):
    # RFC 7638 for an OKP key: the required members crv, kty, x in lexicographic order, no whitespace.
    canonical = '{"crv":"Ed25519","kty":"OKP","x":"%s"}' % x
    return base64.urlsafe_b64encode(hashlib.sha256(canonical.encode()).digest()).rstrip(b"=").decode()


def refuse(reason):
    print("REFUSED " + reason)
    sys.exit(1)


def main():
    with open(sys.argv[1]) as f:
        envelope = json.load(f)
    with open(sys.argv[2]) as f:
        jwks = json.load(f)
    keys = {}
    for jwk in jwks.get("keys", []):
        if jwk.get("kty") == "OKP" and jwk.get("crv") == "Ed25519" and jwk.get("kid") == thumbprint(jwk["x"]):
            keys[jwk["kid"]] = Ed25519PublicKey.from_public_bytes(b64url_decode(jwk["x"]))
    if envelope.get("payloadType") != "application/vnd.in-toto+json":
        refuse("payloadType is not application/vnd.in-toto+json")
    try:
        body = base64.b64decode(envelope["payload"], validate=True)
    except Exception:
        refuse("payload is not base64")
    verified = False
    for signature in envelope.get("signatures", []):
        key = keys.get(signature.get("keyid"))
        if key is None:
            continue
        try:
            key.verify(base64.b64decode(signature["sig"], validate=True), pae(envelope["payloadType"], body))
            verified = True
            break
        except (InvalidSignature, ValueError):
            continue
    if not verified:
        refuse("no signature verifies with a key of the JWKS")
    statement = json.loads(body)
    if statement.get("_type") != "https://in-toto.io/Statement/v1":
        refuse("not an in-toto Statement v1")
    if statement.get("predicateType") != "https://in-toto.io/attestation/test-result/v0.1":
        refuse("not a test-result v0.1 predicate")
    subjects = statement.get("subject", [])
    if len(subjects) != 1 or "sha256" not in subjects[0].get("digest", {}):
        refuse("not exactly one subject with a sha256 digest")
    predicate = statement["predicate"]
    result = predicate.get("result")
    if result not in ("PASSED", "WARNED", "FAILED"):
        refuse("result is not PASSED, WARNED or FAILED")
    for field in ("passedTests", "warnedTests", "failedTests"):
        if not all(isinstance(t, str) for t in predicate.get(field, [])):
            refuse(field + " is not a list of strings")
    if result == "PASSED" and (predicate.get("failedTests") or predicate.get("warnedTests")):
        refuse("PASSED with failed or warned tests")
    if result == "WARNED" and predicate.get("failedTests"):
        refuse("WARNED with failed tests")
    for descriptor in predicate.get("configuration", []):
        if not any(k in descriptor for k in ("uri", "digest", "content")):
            refuse("a configuration resource descriptor has no uri, digest or content")
    print("VALID %s %s %s" % (result, subjects[0].get("name"), subjects[0]["digest"]["sha256"]))


if __name__ == "__main__":
    main()
