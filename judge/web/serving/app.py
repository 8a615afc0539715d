"""`judge serve`: the web judge. Students log in, read the problems, submit, and watch their
submissions being judged; the hidden cases stay on the server.

Pages are the project's Jinja2 templates (no script or style from the network). Requests
are plain HTML forms, each body capped as it arrives; a session is a random id in an
HttpOnly, SameSite=Lax cookie, and a row in SQLite that logging out deletes. Failed logins
are throttled per account and per address. What a student sees of a submission is cut to
the problem's feedback level by judge.grade.feedback. Every error is a page with its HTTP status
and one clear sentence, never a stack trace, and every response carries the same headers.

The app is put together here from its parts: site (what the routes share), guard (checks,
headers, error pages), and the routes per audience: auth, student, teacher, api.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from judge.web.lti import passback
from judge.web.lti import routes as lti_routes
from judge.web.routes import api, auth, board, exams, insight, rejudging, review, student, teacher
from judge.web.routes import teams as team_routes
from judge.web.routes.site import FORM_FIELDS, Settings, Site, log
from judge.web.serving import guard
from judge.web.worker import Workers, WorkerSettings

__all__ = ["Settings", "create_app"]
# The pages' own scripts, and the code editor (Ace, from the npm registry: `make` puts it in
# static/ace; without it the submit form is a plain textarea).
STATIC = Path(__file__).parent.parent / "static"
LTI_STEP_S = 1.0  # how often scores are queued and sent to the LMS (LTI): two cheap queries when idle


async def _watch(workers: Workers) -> None:
    """Every second: a worker that died is replaced and its submission queued again."""
    while True:
        await asyncio.sleep(1.0)
        for pid in workers.revive():
            log.warning("judge worker %d died; replaced, its submission is queued again", pid)


async def _lti_pump(site: Site) -> None:
    last: tuple[int, float] | None = None
    while True:
        await asyncio.sleep(LTI_STEP_S)
        try:
            last = await asyncio.to_thread(passback.step, site, last)
        except Exception:  # the next round tries again: the queue is in the store
            log.exception("the LMS's grade passback failed this round")


def create_app(settings: Settings, start_workers: bool = True, clock: Callable[[], float] = time.time) -> FastAPI:
    site = Site(settings, clock)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        requeued = site.store.requeue_interrupted()
        if requeued:
            log.info("requeued %d submission(s) left unfinished by the last run", requeued)
        workers = (
            Workers(
                WorkerSettings(
                    settings.data_dir,
                    settings.problems_dir,
                    settings.cluster,
                    settings.explain_budget_s,
                    settings.turn_s,
                    max(1, settings.workers - 1),  # one worker at least stays free of runs
                    settings.workers,
                ),
                settings.workers,
            )
            if start_workers
            else None
        )
        watch: asyncio.Task[None] | None = None
        if workers is not None:
            workers.start()
            watch = asyncio.create_task(_watch(workers))
        pump = asyncio.create_task(_lti_pump(site))
        try:
            yield
        finally:
            pump.cancel()
            if watch is not None:
                watch.cancel()
            if workers is not None:
                workers.stop()

    app = FastAPI(
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        form_limits={"max_fields": FORM_FIELDS, "max_files": 1, "max_part_size": site.submit_bytes},
    )
    app.state.site = site
    guard.install(app)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    for router in (
        auth.routes(),
        team_routes.routes(),
        student.routes(site),
        api.routes(),
        teacher.routes(),
        rejudging.routes(),
        insight.routes(),
        review.routes(site),
        board.routes(),
        exams.routes(),
        lti_routes.routes(),
    ):
        app.include_router(router)
    return app
