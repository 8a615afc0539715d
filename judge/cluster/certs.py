"""`judge cluster certs`: a private certificate authority and the certificates of the
cluster's three roles. Every connection of the cluster (client, scheduler, worker) shows
a certificate of this CA and checks the other side's, so only holders of the folder can
submit work or join as a worker."""

from __future__ import annotations

import datetime
import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path

from judge.errors import JudgeError

ROLES = ("scheduler", "worker", "client")
CA_CERT = "ca.pem"
CA_KEY = "ca-key.pem"
VALID_DAYS = 825  # what browsers accept for a leaf; a course term fits many times


@dataclass(frozen=True)
class Certs:
    folder: Path
    files: tuple[Path, ...]


def cert_path(folder: Path, role: str) -> Path:
    return folder / f"{role}.pem"


def key_path(folder: Path, role: str) -> Path:
    return folder / f"{role}-key.pem"


def make(folder: Path, hosts: tuple[str, ...] = (), force: bool = False) -> Certs:
    """Write ca.pem (and its key), then a certificate and key for each role, signed by it.
    Keys are readable by their owner only. Refuses to overwrite unless `force`."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    existing = [p for p in [folder / CA_CERT, folder / CA_KEY] if p.exists()]
    if existing and not force:
        raise JudgeError(
            f"{existing[0]}: already exists (--force makes a new CA; every host then needs the new folder)"
        )
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    now = datetime.datetime.now(datetime.UTC)
    start, end = now - datetime.timedelta(hours=1), now + datetime.timedelta(days=VALID_DAYS)

    def write(path: Path, data: bytes, private: bool) -> Path:
        temporary = path.with_name(path.name + ".tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o644)
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
        return path

    def pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
        return key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "judge cluster CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    files = [
        write(folder / CA_KEY, pem_key(ca_key), True),
        write(folder / CA_CERT, ca.public_bytes(serialization.Encoding.PEM), False),
    ]
    names: list[x509.GeneralName] = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    for host in hosts:
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))
    for role in ROLES:
        key = ec.generate_private_key(ec.SECP256R1())
        cert = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"judge {role}")]))
            .issuer_name(ca_name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(start)
            .not_valid_after(end)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.SubjectAlternativeName(names), critical=False)
            # Each role both listens and connects (workers talk to each other).
            .add_extension(
                x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]),
                critical=False,
            )
            .sign(ca_key, hashes.SHA256())
        )
        files.append(write(key_path(folder, role), pem_key(key), True))
        files.append(write(cert_path(folder, role), cert.public_bytes(serialization.Encoding.PEM), False))
    return Certs(folder, tuple(files))
