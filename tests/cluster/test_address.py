"""The rules of a cluster address: TLS with certificates, plain TCP on loopback only when asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.cluster import address, certs
from judge.errors import JudgeError


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return certs.make(tmp_path_factory.mktemp("certs") / "cluster").folder


def test_certificates_make_tls_whatever_the_scheme(folder: Path) -> None:
    for written in ("tls://10.0.0.5:9000", "tcp://10.0.0.5:9000", "10.0.0.5:9000"):
        point = address.endpoint(written, folder, False, "client")
        assert point.address == "tls://10.0.0.5:9000"
        assert point.certs == folder
    assert address.endpoint("judge-host", folder, False, "worker").address == "tls://judge-host:8786"


def test_plain_tcp_is_refused_unless_loopback_and_asked() -> None:
    with pytest.raises(JudgeError, match="plain tcp:// is refused"):
        address.endpoint("tcp://127.0.0.1:8786", None, False, "client")
    with pytest.raises(JudgeError, match=r"127\.0\.0\.1 only"):
        address.endpoint("tcp://10.0.0.5:8786", None, True, "client")
    with pytest.raises(JudgeError, match=r"127\.0\.0\.1 only"):
        address.endpoint("tcp://0.0.0.0:8786", None, True, "scheduler")
    with pytest.raises(JudgeError, match="needs the cluster's certificates"):
        address.endpoint("tls://127.0.0.1:8786", None, True, "client")
    point = address.endpoint("tcp://127.0.0.1:8786", None, True, "client")
    assert (point.address, point.certs) == ("tcp://127.0.0.1:8786", None)
    assert address.security(point, "client") is None


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("http://h:1", "unknown scheme"),
        ("tls://:1", "no host"),
        ("tls://h:x", "not a number"),
        ("h:70000", "out of range"),
    ],
)
def test_malformed_addresses_are_one_line(written: str, message: str) -> None:
    with pytest.raises(JudgeError, match=message):
        address.split(written)


def test_a_folder_without_the_role_s_key_is_named(tmp_path: Path, folder: Path) -> None:
    partial = tmp_path / "partial"
    partial.mkdir()
    for name in ("ca.pem", "client.pem", "client-key.pem"):
        (partial / name).write_bytes((folder / name).read_bytes())
    address.endpoint("tls://h:1", partial, False, "client")
    with pytest.raises(JudgeError, match=r"worker\.pem: missing"):
        address.endpoint("tls://h:1", partial, False, "worker")


def test_security_presents_the_role_s_certificate_and_requires_encryption(folder: Path) -> None:
    security = address.security(address.endpoint("tls://h:1", folder, False, "worker"), "worker")
    assert security is not None
    assert security.require_encryption
    assert security.tls_worker_cert == str(folder / "worker.pem")
    assert security.tls_ca_file == str(folder / "ca.pem")


def test_the_commands_refuse_an_open_port_in_one_line(tmp_path: Path) -> None:
    from tests.test_cli import judge

    for args, message in (
        (("worker", "tcp://10.0.0.5:8786"), "plain tcp:// is refused"),
        (("scheduler", "tcp://0.0.0.0:8786", "--insecure-loopback"), "127.0.0.1 only"),
        (("grade", str(tmp_path), "--scheduler", "tls://h:1", "--certs", str(tmp_path)), "ca.pem: missing"),
    ):
        refused = judge(*args)
        assert refused.returncode == 2, refused.stderr
        assert message in refused.stderr and len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    made = judge("cluster", "certs", str(tmp_path / "c"))
    assert made.returncode == 0 and "without ca-key.pem" in made.stdout
    again = judge("cluster", "certs", str(tmp_path / "c"))
    assert again.returncode == 2 and "already exists" in again.stderr
