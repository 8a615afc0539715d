"""Commands of judge hosts: `judge cluster certs`, `judge scheduler` and `judge worker`."""

from __future__ import annotations

from pathlib import Path

import click

from judge.cli.common import out, say, tls_options, unsafe_option


@click.group()
def cluster() -> None:
    """Judge hosts: the certificates of a cluster (see also `judge scheduler` and `judge worker`)."""


@cluster.command()
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--host",
    "hosts",
    multiple=True,
    help="A name or address of the scheduler or a worker, written into the certificates (repeatable).",
)
@click.option("--force", is_flag=True, help="Replace an existing CA (every host then needs the new folder).")
def certs(folder: Path, hosts: tuple[str, ...], force: bool) -> None:
    """Make FOLDER: a private CA and the certificates of the scheduler, the workers and the
    clients. Copy it (without ca-key.pem) to each judge machine; keep it from students."""
    from judge.cluster import certs as making

    made = making.make(folder, hosts, force)
    for path in made.files:
        out.print(f"  {path}")
    out.print(
        f"made {made.folder}: keys are readable by their owner only; "
        f"copy the folder without {making.CA_KEY} to each judge machine"
    )


@click.command()
@click.argument("listen", default="tls://0.0.0.0:8786", metavar="[tls://HOST:PORT]")
@tls_options
def scheduler(listen: str, certs_dir: Path | None, insecure_loopback: bool) -> None:
    """Run the cluster's scheduler, listening at tls://HOST:PORT (default all interfaces,
    port 8786). Clients (grade, verify, serve) and `judge worker` connect to it."""
    from judge.cluster import address, hosts

    point = address.endpoint(listen, certs_dir, insecure_loopback, "scheduler")
    hosts.serve_scheduler(point, say)


@click.command()
@click.argument("scheduler_address", metavar="tls://HOST:PORT")
@tls_options
@click.option(
    "-n",
    "--processes",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes, each judging one case at a time [default: the CPUs of this machine].",
)
@click.option(
    "--ports",
    "first_port",
    type=click.IntRange(1, 65535),
    default=None,
    help="Listen on known ports from this one (2 per process: nanny, worker), for a firewall [default: any].",
)
@unsafe_option
def worker(
    scheduler_address: str,
    certs_dir: Path | None,
    insecure_loopback: bool,
    processes: int | None,
    first_port: int | None,
) -> None:
    """Join the cluster at tls://HOST:PORT as a judge host: check this machine (sandbox,
    toolchains), then judge the cases the scheduler sends until stopped."""
    from judge.cluster import address, hosts
    from judge.grade import grading

    point = address.endpoint(scheduler_address, certs_dir, insecure_loopback, "worker")
    hosts.serve_worker(point, processes or grading.default_jobs(), first_port, say)
