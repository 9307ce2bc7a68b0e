"""The web side of `rulekit serve`: a Starlette app over one Session, uvicorn to run it, watchfiles to see saves.

Routes: the page (`/`, `/static/…`), its state (`GET /api/state?after=VERSION&since=LINES`, which waits up to
15 s for something new), and its actions, each a JSON POST: answer, restart, pause, save, scenario, step.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from rulekit.serve.session import Session

STATIC = Path(__file__).parent / "static"
WAIT = 15.0


def _number(request: Request, name: str) -> int:
    try:
        return int(request.query_params.get(name, "0"))
    except ValueError:
        return 0


async def _body(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _refused(message: str, status: int = 409) -> JSONResponse:
    return JSONResponse({"ok": False, "error": message}, status_code=status)


def make_app(session: Session, watch: bool = True) -> Starlette:
    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def state(request: Request) -> JSONResponse:
        after, since = _number(request, "after"), _number(request, "since")
        data = await anyio.to_thread.run_sync(session.wait_state, after, since, WAIT)
        return JSONResponse(data)

    async def answer(request: Request) -> JSONResponse:
        body = await _body(request)
        ok, why = session.answer(body.get("qid"), body.get("k"))
        return JSONResponse({"ok": True}) if ok else _refused(why)

    async def restart(request: Request) -> JSONResponse:
        body = await _body(request)
        ok, why = await anyio.to_thread.run_sync(session.restart, str(body.get("mode", "new")))
        return JSONResponse({"ok": True}) if ok else _refused(why, 400)

    async def pause(request: Request) -> JSONResponse:
        body = await _body(request)
        seconds = body.get("seconds")
        if not isinstance(seconds, int | float) or isinstance(seconds, bool):
            return _refused("停顿须为秒数 · the pause is a number of seconds", 400)
        session.set_pause(float(seconds))
        return JSONResponse({"ok": True, "pause": session.pause})

    async def save(request: Request) -> JSONResponse:
        try:
            path = await anyio.to_thread.run_sync(session.save_log)
        except (OSError, ValueError) as err:
            return _refused(f"记录无法写入 · the log could not be written: {err}", 500)
        return JSONResponse({"ok": True, "path": path})

    async def scenario(request: Request) -> JSONResponse:
        try:
            path, text = await anyio.to_thread.run_sync(session.save_scenario)
        except ValueError as err:
            return _refused(str(err))
        except OSError as err:
            return _refused(f"场景无法写入 · the scenario could not be written: {err}", 500)
        return JSONResponse({"ok": True, "path": path, "text": text})

    async def step(request: Request) -> JSONResponse:
        if session.replay is None:
            return _refused("只有回放可以逐步 · only a replay steps (rulekit serve --replay game.jsonl)", 400)
        body = await _body(request)
        count = body.get("count", 1)
        playing = body.get("playing")
        session.replay.step(count if type(count) is int else 1, playing if isinstance(playing, bool) else None)
        return JSONResponse({"ok": True})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        stop = asyncio.Event()
        task = asyncio.create_task(_watch(session, stop)) if watch else None
        try:
            yield
        finally:
            stop.set()
            session.close()
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    routes = [Route("/", index), Route("/api/state", state), Route("/api/answer", answer, methods=["POST"]),
              Route("/api/restart", restart, methods=["POST"]), Route("/api/pause", pause, methods=["POST"]),
              Route("/api/save", save, methods=["POST"]), Route("/api/scenario", scenario, methods=["POST"]),
              Route("/api/step", step, methods=["POST"]), Mount("/static", StaticFiles(directory=STATIC))]
    return Starlette(routes=routes, lifespan=lifespan)


def _is_content_file(change: Any, path: str) -> bool:
    return path.endswith((".yaml", ".yml"))


async def _watch(session: Session, stop: asyncio.Event) -> None:
    """Check the content again whenever one of its files is saved (changes 50 ms apart count as one save)."""
    from watchfiles import awatch

    async for _changes in awatch(session.options.content_dir, watch_filter=_is_content_file, debounce=50, step=20,
                                 stop_event=stop):
        await anyio.to_thread.run_sync(session.content_changed)


class Running:
    """A server started in a thread (tests, benchmarks): its address, and stop()."""

    def __init__(self, app: Starlette, session: Session, host: str = "127.0.0.1", port: int = 0):
        self.session = session
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://{host}:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=2))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.session.close()
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()
