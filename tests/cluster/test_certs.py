"""`judge cluster certs`: a CA and role certificates that verify against it, keys kept private."""

from __future__ import annotations

import ssl
import stat
from pathlib import Path

import pytest
from cryptography import x509

from judge.cluster import certs
from judge.errors import JudgeError


def test_every_role_is_signed_by_the_ca_and_keys_are_private(tmp_path: Path) -> None:
    made = certs.make(tmp_path / "c", hosts=("judge.lab", "10.1.2.3"))
    folder = made.folder
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    ca = x509.load_pem_x509_certificate((folder / certs.CA_CERT).read_bytes())
    for role in certs.ROLES:
        assert stat.S_IMODE(certs.key_path(folder, role).stat().st_mode) == 0o600
        cert = x509.load_pem_x509_certificate(certs.cert_path(folder, role).read_bytes())
        cert.verify_directly_issued_by(ca)
        names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        assert "judge.lab" in names.get_values_for_type(x509.DNSName)
        # What dask will do with it: load it as a TLS identity trusting the CA.
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH, cafile=str(folder / certs.CA_CERT))
        context.load_cert_chain(certs.cert_path(folder, role), certs.key_path(folder, role))
    assert stat.S_IMODE((folder / certs.CA_KEY).stat().st_mode) == 0o600


def test_an_existing_ca_is_not_overwritten_without_force(tmp_path: Path) -> None:
    first = certs.make(tmp_path / "c").folder
    before = (first / certs.CA_CERT).read_bytes()
    with pytest.raises(JudgeError, match="already exists"):
        certs.make(first)
    assert (first / certs.CA_CERT).read_bytes() == before
    certs.make(first, force=True)
    assert (first / certs.CA_CERT).read_bytes() != before
