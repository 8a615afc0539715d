"""What `--scheduler` and `judge worker` accept: a cluster address and how to reach it.

A dask scheduler runs the functions it is sent, so an open port would let anyone on the
network run code on the judge hosts. Every address therefore uses TLS with the cluster's
certificates (`tls://`, and `tcp://` or a bare HOST:PORT are taken as TLS once certificates
are given); plain TCP is allowed only on the loopback interface, and only when asked for
with `--insecure-loopback` (tests, one machine)."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from judge.cluster import certs
from judge.errors import JudgeError

if TYPE_CHECKING:
    from distributed import Security

DEFAULT_PORT = 8786


@dataclass(frozen=True)
class Endpoint:
    address: str  # tls://HOST:PORT or tcp://127.0.0.1:PORT
    certs: Path | None  # None: plain TCP on loopback

    @property
    def host(self) -> str:
        return split(self.address)[1]


def split(address: str) -> tuple[str, str, int]:
    """(scheme, host, port) of `[scheme://]host[:port]`; JudgeError when malformed."""
    scheme, _, rest = address.rpartition("://")
    scheme = scheme or ""
    if scheme not in ("", "tcp", "tls"):
        raise JudgeError(f"{address}: unknown scheme {scheme}:// (use tls://HOST:PORT)")
    host, colon, port_text = rest.rpartition(":")
    if not colon:
        host, port_text = rest, str(DEFAULT_PORT)
    host = host.strip("[]")
    if not host:
        raise JudgeError(f"{address}: no host (expected tls://HOST:PORT)")
    try:
        port = int(port_text)
    except ValueError:
        raise JudgeError(f"{address}: port {port_text!r} is not a number") from None
    if not 0 <= port <= 65535:
        raise JudgeError(f"{address}: port {port} is out of range")
    return scheme, host, port


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def endpoint(address: str, certs_dir: Path | None, insecure_loopback: bool, role: str) -> Endpoint:
    """Check an address against the rules above and say in one line what is wrong."""
    scheme, host, port = split(address)
    where = f"[{host}]" if ":" in host else host
    if certs_dir is not None:
        check_folder(certs_dir, role)
        return Endpoint(f"tls://{where}:{port}", certs_dir)
    if scheme == "tls":
        raise JudgeError(
            f"{address}: TLS needs the cluster's certificates (--certs DIR, made by `judge cluster certs`)"
        )
    if not insecure_loopback:
        raise JudgeError(
            f"{address}: plain tcp:// is refused (anyone who reaches the port could run code on the judge hosts); "
            "give --certs DIR (made by `judge cluster certs`), or --insecure-loopback for 127.0.0.1 only"
        )
    if not is_loopback(host):
        raise JudgeError(f"{address}: --insecure-loopback is for 127.0.0.1 only; other hosts need --certs DIR")
    return Endpoint(f"tcp://{where}:{port}", None)


def check_folder(folder: Path, role: str) -> None:
    for path in (folder / certs.CA_CERT, certs.cert_path(folder, role), certs.key_path(folder, role)):
        if not path.is_file():
            raise JudgeError(f"{path}: missing (make the folder with `judge cluster certs {folder}`)")


def security(point: Endpoint, role: str) -> Security | None:
    """dask's TLS settings for this side of a connection (None for loopback TCP). Every
    role presents a certificate and requires one from the other side."""
    if point.certs is None:
        return None
    from distributed import Security

    folder = point.certs
    options = {
        f"tls_{role}_cert": str(certs.cert_path(folder, role)),
        f"tls_{role}_key": str(certs.key_path(folder, role)),
    }
    return Security(tls_ca_file=str(folder / certs.CA_CERT), require_encryption=True, **options)
