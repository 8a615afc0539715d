"""Grading on judge hosts, end to end: a LocalCluster of two worker processes, and a
`judge scheduler` with two `judge worker` processes on loopback over mutual TLS. Verdicts
and scores equal the local pool's; a worker killed mid-run costs a retry, not a result; a
scheduler that goes away ends the run in one line with what was finished saved; and a
client without the cluster's certificates reaches neither the scheduler nor a worker."""

from __future__ import annotations

import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

import tests.needs
from judge.cli.common import cluster_endpoint
from judge.cluster import certs, needs
from judge.cluster.address import Endpoint
from judge.grade import judging
from tests.author.test_parts import make_problem
from tests.grade.test_grading import make_class, small_problems
from tests.test_cli import judge

if TYPE_CHECKING:
    from distributed import LocalCluster

# Minutes of clusters starting, burning and being killed: the slow tier (make test-slow).
pytestmark = pytest.mark.slow

BURN = (
    "import time\n"
    "end = time.process_time() + 0.4\n"
    "while time.process_time() < end:\n"
    "    pass\n"
    "a, b = map(int, input().split())\n"
    "print(a + b)\n"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Host:
    """A long-running judge command in its own session (killed as a group)."""

    def __init__(self, log: Path, *args: str) -> None:
        self.log = log
        with log.open("wb") as stream:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "judge", *args], stdout=stream, stderr=subprocess.STDOUT, start_new_session=True
            )

    def wait_for(self, text: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.log.read_text(errors="replace"):
            assert self.process.poll() is None, self.log.read_text(errors="replace")
            assert time.monotonic() < deadline, f"no {text!r} in {self.log}: {self.log.read_text(errors='replace')}"
            time.sleep(0.2)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        try:
            os.killpg(self.process.pid, sig)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=30)


class Cluster:
    def __init__(self, root: Path, folder: Path) -> None:
        self.root, self.certs = root, folder
        self.address = f"tls://127.0.0.1:{free_port()}"
        self.hosts: list[Host] = []
        self.worker_port = 0  # where the first worker listens (known: --ports)
        self.scheduler = self.start("scheduler", "scheduler", self.address)
        self.scheduler.wait_for("scheduler listening")

    def start(self, name: str, *args: str) -> Host:
        host = Host(self.root / f"{name}-{len(self.hosts)}.log", *args, "--certs", str(self.certs))
        self.hosts.append(host)
        return host

    def worker(self, *extra: str) -> Host:
        host = self.start("worker", "worker", self.address, "-n", "1", *extra)
        host.wait_for("joined")
        return host

    def close(self) -> None:
        for host in reversed(self.hosts):
            host.kill(signal.SIGTERM if host.process.poll() is None else signal.SIGKILL)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return certs.make(tmp_path_factory.mktemp("certs") / "cluster").folder


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory, folder: Path) -> Iterator[Cluster]:
    made = Cluster(tmp_path_factory.mktemp("cluster"), folder)
    try:
        first = free_port()
        made.worker("--ports", str(first))
        made.worker_port = first + 1  # --ports gives the nanny the first port, its worker the next
        made.worker()
        yield made
    finally:
        made.close()


def local_cluster(workers: int) -> LocalCluster:
    """Judge hosts in this machine's processes, offering what this machine has."""
    from distributed import LocalCluster

    return LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=":0",
        resources=needs.resources(needs.local_offer()),
    )


def outcome(out: Path) -> dict[str, tuple[str, float, tuple[str, ...]]]:
    found = json.loads((out / "results.json").read_text())["submissions"]
    return {r["student"]: (r["verdict"], r["score"], tuple(c["verdict"] for c in r["cases"])) for r in found}


def grade(root: Path, out: str, *extra: str) -> Path:
    result = judge(
        "--problems", str(root / "problems"), "grade", str(root / "submissions"), "-o", str(root / out), *extra
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return root / out


@tests.needs.mark("java")  # the class's CE is a Java class's
def test_verdicts_are_the_same_on_every_engine(tmp_path: Path, cluster: Cluster) -> None:
    small_problems(tmp_path / "problems")
    make_class(tmp_path)
    # (-j1 against -j2 is test_grading's.)
    local = outcome(grade(tmp_path, "j2", "-j", "2"))
    assert {s: v[:2] for s, v in outcome(grade(tmp_path, "full", "--full")).items()} == {
        s: v[:2] for s, v in local.items()
    }
    assert {v[0] for v in local.values()} >= {"AC", "WA", "TLE", "MLE", "RE", "OLE", "CE"}
    with local_cluster(2) as pool:
        on_pool = grade(tmp_path, "local-cluster", "--scheduler", pool.scheduler_address, "--insecure-loopback")
    assert outcome(on_pool) == local
    hosts = grade(tmp_path, "hosts", "--scheduler", cluster.address, "--certs", str(cluster.certs))
    assert outcome(hosts) == local
    # Only verdicts and figures came back: no secret input, answer or output in any result.
    secrets = [p.read_bytes().strip() for p in (tmp_path / "problems").rglob("tests/*/*.*")]
    secrets = [s for s in secrets if len(s) > 20 and "samples" not in str(s)]
    for path in (hosts / "results").rglob("*.json"):
        text = path.read_bytes()
        assert not any(secret in text for secret in secrets)


def _burning_class(root: Path, students: int) -> None:
    problems = root / "problems"
    problems.mkdir()
    make_problem(problems)
    assert judge("--problems", str(problems), "gen").returncode == 0
    for index in range(students):
        folder = root / "submissions" / f"s{index:02}"
        folder.mkdir(parents=True)
        (folder / "sum.py").write_text(BURN + f"# student {index}\n")


def _wait_for_results(folder: Path, count: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while len(list(folder.glob("*/*.json"))) < count:
        assert time.monotonic() < deadline, f"fewer than {count} results in {folder}"
        time.sleep(0.1)


def test_a_worker_killed_mid_run_costs_a_retry_not_a_result(tmp_path: Path, cluster: Cluster) -> None:
    _burning_class(tmp_path, students=6)
    doomed = cluster.worker()
    out = tmp_path / "reports"
    args = ["--problems", str(tmp_path / "problems"), "grade", str(tmp_path / "submissions"), "-o", str(out)]
    args += ["--scheduler", cluster.address, "--certs", str(cluster.certs)]
    running = subprocess.Popen([sys.executable, "-m", "judge", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _wait_for_results(out / "results", 1)
    doomed.kill()  # the whole machine: its nanny, its worker process and their sandboxes
    stdout, stderr = running.communicate(timeout=300)
    assert running.returncode == 0, stderr.decode()
    assert "Traceback" not in stderr.decode()
    assert "graded 6 submission(s)" in stdout.decode()
    found = outcome(out)
    assert sorted(found) == [f"s{i:02}" for i in range(6)]
    for verdict, score, cases in found.values():
        assert (verdict, score) == ("AC", 100)
        assert cases == ("AC",) * 9  # each case once, none lost


def test_a_scheduler_that_goes_away_ends_the_run_in_one_line(tmp_path: Path, folder: Path) -> None:
    _burning_class(tmp_path, students=6)
    (tmp_path / "hosts").mkdir()
    own = Cluster(tmp_path / "hosts", folder)
    try:
        own.worker()
        out = tmp_path / "reports"
        args = ["--problems", str(tmp_path / "problems"), "grade", str(tmp_path / "submissions"), "-o", str(out)]
        args += ["--scheduler", own.address, "--certs", str(folder)]
        running = subprocess.Popen(
            [sys.executable, "-m", "judge", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        _wait_for_results(out / "results", 1)
        own.scheduler.kill()
        _, stderr = running.communicate(timeout=120)
    finally:
        own.close()
    text = stderr.decode()
    assert running.returncode == 1, text
    assert "Traceback" not in text
    assert "lost the scheduler" in text and "run again to resume" in text
    saved = len(list((out / "results").glob("*/*.json")))
    assert 1 <= saved < 6
    resumed = judge(*args[:-4], "-j", "2")
    assert f"graded {6 - saved} submission(s), {saved} unchanged" in resumed.stdout, resumed.stdout


def test_verify_and_the_web_judge_run_on_the_hosts(tmp_path: Path, cluster: Cluster) -> None:
    from tests.web.conftest import Server
    from tests.web.test_app import ACCEPTED, PROBLEM, WRONG, submitted_id

    on_hosts = ("--scheduler", cluster.address, "--certs", str(cluster.certs))
    problems = tmp_path / "problems"
    problems.mkdir()
    make_problem(problems)
    assert judge("--problems", str(problems), "gen").returncode == 0
    verified = judge("--problems", str(problems), "verify", *on_hosts)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "2 solution(s), 0 failure(s)" in verified.stdout
    # The web judge: SQLite stays here, the cases run on the hosts.
    server = Server(small_problems(tmp_path / "web-problems"), tmp_path / "web" / "data", extra=on_hosts)
    (tmp_path / "web").mkdir()
    tokens = server.roster("ana")
    server.start()
    try:
        client = server.client()
        assert client.login("ana", tokens["ana"]).status == 303
        seen = {}
        for name, source in (("right.c", ACCEPTED), ("wrong.c", WRONG)):
            reply = client.submit(PROBLEM, name, source)
            assert reply.status == 303, reply.body
            seen[name] = client.wait_done(submitted_id(reply.headers["location"]))["verdict"]
    finally:
        server.stop()
    assert seen == {"right.c": "AC", "wrong.c": "WA"}
    assert "on the judge hosts of tls://" in server.log.read_text()


def _tls_handshake(port: int, context: ssl.SSLContext) -> None:
    """Connect and read: a server that wants a client certificate fails one of the two."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        with context.wrap_socket(raw) as tls:
            tls.settimeout(5)
            if tls.recv(1) == b"":
                raise ConnectionResetError("closed by the server")


def test_a_client_without_the_certificates_is_refused(tmp_path: Path, cluster: Cluster, folder: Path) -> None:
    from distributed import Client, Security

    stranger = certs.make(tmp_path / "stranger").folder
    scheduler_port = int(cluster.address.rsplit(":", 1)[1])
    ours = ssl.create_default_context(cafile=str(folder / certs.CA_CERT))
    ours.check_hostname = False
    ours.load_cert_chain(folder / "client.pem", folder / "client-key.pem")
    bare = ssl.create_default_context(cafile=str(folder / certs.CA_CERT))
    bare.check_hostname = False
    alien = ssl.create_default_context(cafile=str(folder / certs.CA_CERT))
    alien.check_hostname = False
    alien.load_cert_chain(stranger / "client.pem", stranger / "client-key.pem")
    for port in (scheduler_port, cluster.worker_port):
        # Our own certificate: the handshake goes through (the control).
        with socket.create_connection(("127.0.0.1", port), timeout=10) as raw, ours.wrap_socket(raw) as tls:
            assert tls.version() is not None
        # No certificate, or one of another CA: refused.
        for context in (bare, alien):
            with pytest.raises((ssl.SSLError, OSError)):
                _tls_handshake(port, context)
    # Nor can dask's own client submit anything, with no certificate or with a stranger's.
    strangers = Security(
        tls_ca_file=str(stranger / "ca.pem"),
        tls_client_cert=str(stranger / "client.pem"),
        tls_client_key=str(stranger / "client-key.pem"),
        require_encryption=True,
    )
    plain = cluster.address.replace("tls://", "tcp://")
    for where, security in ((plain, None), (cluster.address, strangers)):
        with pytest.raises((OSError, TimeoutError)):
            Client(where, security=security, timeout=5, set_as_default=False)
    # The judge says so in one line.
    klass = tmp_path / "class" / "ana"
    klass.mkdir(parents=True)
    (klass / "sum.py").write_text("print(1)\n")
    problems = tmp_path / "problems"
    problems.mkdir()
    make_problem(problems)
    assert judge("--problems", str(problems), "gen").returncode == 0
    refused = judge(
        "--problems",
        str(problems),
        "grade",
        str(klass.parent),
        "-o",
        str(tmp_path / "out"),
        "--scheduler",
        cluster.address,
        "--certs",
        str(stranger),
    )
    assert refused.returncode == 2
    assert "cannot reach the scheduler" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr


def test_an_interactive_problem_is_judged_on_judge_hosts(tmp_path: Path, cluster: Cluster) -> None:
    # The interactor travels with the problem; a worker runs it beside each submission.
    from judge.author import scaffold

    problems = tmp_path / "problems"
    problems.mkdir()
    made = scaffold.create(problems, "guess", "python3", kind="interactive")
    assert judge("--problems", str(problems), "gen").returncode == 0
    for student, solution in (("ada", "accepted/bisect.py"), ("bo", "wrong_answer/count_up.py")):
        folder = tmp_path / "submissions" / student
        folder.mkdir(parents=True)
        (folder / "guess.py").write_bytes((made.directory / "solutions" / solution).read_bytes())
    local = outcome(grade(tmp_path, "local", "-j", "2"))
    hosts = outcome(grade(tmp_path, "hosts", "--scheduler", cluster.address, "--certs", str(cluster.certs)))
    assert hosts == local and local["ada"][:2] == ("AC", 100.0) and local["bo"][0] == "WA"


@tests.needs.mark("isolation")
def test_each_students_variant_is_judged_on_the_hosts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.author import making
    from judge.kinds.table import load_problem
    from judge.web import variants
    from tests.author.test_variants import fixed, m_of, scaled

    problems, data = tmp_path / "problems", tmp_path / "data"
    problems.mkdir()
    base = load_problem(scaled(problems))
    making.write(base, making.generate(base))
    ada, bob = (variants.of_student(base, who, data) for who in ("ada", "bob"))
    for who in ("ada", "bob"):
        (tmp_path / "submissions" / who).mkdir(parents=True)
        (tmp_path / "submissions" / who / "scaled.py").write_text(fixed(m_of(ada)))
    with local_cluster(1) as pool:
        on_pool = ("--scheduler", pool.scheduler_address, "--insecure-loopback", "--data", str(data))
        found = json.loads((grade(tmp_path, "out", *on_pool) / "results.json").read_text())["submissions"]
        point = cluster_endpoint(pool.scheduler_address, None, True, "client")
        assert point is not None
        # The web judge's worker too; judged here (judging.judge), it would fail: on the hosts only.
        monkeypatch.setattr(judging, "judge", None)
        on_web = _web_verdicts_on(point, problems, data)
    want = {"ada": ("AC", ada.variant), "bob": ("WA", bob.variant)}
    assert {r["student"]: (r["verdict"], r["variant"]) for r in found} == want
    assert on_web == want


def _web_verdicts_on(point: Endpoint, problems: Path, data: Path) -> dict[str, tuple[str, str]]:
    """The web judge's worker judging ada's and bob's submissions (ada's program) on the hosts."""
    from judge.web.state.store import Store
    from judge.web.worker import LoadedProblems, claimed_problem, judge_claim

    store = Store(data)
    program = (problems.parent / "submissions" / "ada" / "scaled.py").read_bytes()
    for who in ("ada", "bob"):
        store.add_user(who)
        store.submit(who, "scaled", "python3", "scaled.py", program)
    verdicts = {}
    loaded = LoadedProblems()
    for _ in range(2):
        claim = store.claim(worker=1)
        assert claim is not None
        record = judge_claim(claim, claimed_problem(claim, loaded, problems, data), store, point)
        assert record is not None
        verdicts[claim.student] = (record.verdict, record.variant)
    return verdicts
