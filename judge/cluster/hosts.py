"""The long-running commands of a cluster: `judge scheduler` (on the teacher's machine) and
`judge worker` (on each judge machine). Both run until SIGINT or SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
from collections.abc import Callable
from typing import Any

from judge.cluster import address, needs, remote
from judge.cluster.engine import lighten, quiet_logs
from judge.errors import JudgeError
from judge.run import lifecycle, sandbox

JOIN_NOTICE_S = 30  # a worker that has not joined says so this often


async def _until_stopped(finished: list[Any]) -> bool:
    """Wait for SIGINT, SIGTERM (True) or the end of any of `finished` (awaitables, False)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    waiters = [asyncio.ensure_future(f) for f in finished] + [asyncio.ensure_future(stop.wait())]
    await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
    for waiter in waiters:
        waiter.cancel()
    return stop.is_set()


def serve_scheduler(point: address.Endpoint, say: Callable[[str], None]) -> None:
    from distributed import Scheduler

    quiet_logs()
    lighten()
    _, host, port = address.split(point.address)

    async def main() -> None:
        scheduler = Scheduler(
            host=host,
            port=port,
            protocol="tls" if point.certs else "tcp",
            security=address.security(point, "scheduler"),
            dashboard=False,
            # A worker that dies in the middle of a case costs a retry elsewhere; one that
            # keeps dying with the same case makes it fail after this many tries.
            allowed_failures=3,
        )
        try:
            await scheduler
        except OSError as err:
            raise JudgeError(f"{point.address}: cannot listen: {err}") from None
        say(f"scheduler listening at {scheduler.address} ({'mutual TLS' if point.certs else 'plain TCP, loopback'})")
        await _until_stopped([scheduler.finished()])
        await scheduler.close()

    asyncio.run(main())


def check_machine() -> needs.Offer:
    """The worker's start-up check: an isolated sandbox (unless unsafe) and a toolchain."""
    offer = needs.local_offer()
    if not offer.isolated and os.environ.get(sandbox.UNSAFE_ENV) != "1":
        raise JudgeError(f"this machine cannot judge: {sandbox.isolation_problem(sandbox.detect())}")
    if not offer.toolchains:
        raise JudgeError("this machine cannot judge: no compiler or runtime of any language (judge doctor)")
    return offer


def serve_worker(point: address.Endpoint, processes: int, first_port: int | None, say: Callable[[str], None]) -> None:
    """Start `processes` dask workers of one thread each (the sandbox runs one case at a
    time per process) under nannies, which restart a worker that dies."""
    from distributed import Nanny

    offer = check_machine()
    os.environ[remote.OFFER_ENV] = offer.to_json()  # the worker processes need not probe again
    lifecycle.remove_stale()
    # The worker processes are spawned: their logging comes from dask's configuration.
    os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "error")
    quiet_logs()
    lighten()
    languages = ", ".join(f"{language} ({version})" for language, version in offer.toolchains)
    say(f"this machine: sandbox {offer.sandbox_mode}; judge code {offer.code}; {languages}")

    async def main() -> None:
        nannies = []
        for index in range(processes):
            ports: dict[str, Any] = {}
            if first_port is not None:  # a firewall wants known ports: nanny, then worker
                ports = {"port": first_port + 2 * index, "worker_port": first_port + 2 * index + 1}
            nannies.append(
                Nanny(
                    point.address,
                    nthreads=1,
                    resources=needs.resources(offer),
                    security=address.security(point, "worker"),
                    memory_limit=0,  # the sandbox limits each case; dask must not kill a worker for it
                    name=f"{socket.gethostname()}-{os.getpid()}-{index}",
                    dashboard=False,
                    **ports,
                )
            )
        say(f"joining {point.address} with {processes} worker process(es)")
        starting = asyncio.ensure_future(asyncio.gather(*nannies))
        waited = 0
        while True:
            done, _ = await asyncio.wait({starting}, timeout=JOIN_NOTICE_S)
            if done:
                break
            waited += JOIN_NOTICE_S
            say(
                f"still waiting for {point.address} after {waited} s (is it running? the address, certificates, firewall?)"
            )
        try:
            starting.result()
        except OSError as err:
            raise JudgeError(f"{point.address}: cannot join: {err}") from None
        say("joined; judging until stopped (Ctrl-C)")
        stopped = await _until_stopped([n.finished() for n in nannies])
        await asyncio.gather(*(n.close(timeout=10) for n in nannies), return_exceptions=True)
        if not stopped:
            raise JudgeError(
                f"{point.address}: the scheduler went away; this worker stopped (start it again to rejoin)"
            )

    asyncio.run(main())
