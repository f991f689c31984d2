"""The ASGI app: :func:`create_app` builds it; ``patience serve`` runs it with uvicorn.

    from patience.web.app import create_app
    app = create_app("sqlite:///data/patience.db", solver_seconds=2.0)

The lifespan opens the database (migrating it to the newest schema) and, at
shutdown, stops the solver workers and closes the database.  Errors are
answered as ``{"detail": "what is wrong"}`` with a 4xx status; a malformed
request gets 422 with ``errors`` listing the fields.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from patience import __version__
from patience.game import IllegalMove
from patience.games import UnknownGame
from patience.web import api
from patience.web.db import Checkpointer, default_db_url, make_engine, migrate
from patience.web.players import PlayerCookieMiddleware
from patience.web.solver_service import LineCache, SolverPool
from patience.web.store import GameStore, WebError

DESCRIPTION = """\
The game API of the patience server: start a deal, play moves (the move texts of the
rules: `t3>f1`, `t2>t5x3`, `stock>t2`, `deal`), undo, redo, restart, resign; hints,
"can this still be won?" and auto-finish from the solver; statistics, the game catalogue
and feedback.

Players need no account: the first response sets an HttpOnly cookie `patience_player`
with a random player id; a restore code carries it to another browser.  A player sees only
their own games (anyone else's game id answers 404).  Every change carries the `version`
of the state it was made from; a stale one answers 409 and changes nothing.
"""


def _location(loc: Any) -> str:
    return ".".join(str(p) for p in loc) if isinstance(loc, (list, tuple)) else str(loc)


def _warm_up() -> None:
    """Compile every game's rules now, so that no player's first move waits for it."""
    from patience.game import Game
    from patience.games import all_specs

    for spec in all_specs():
        game = Game(spec, deal=1)
        game.legal_moves()
        _ = game.piles


def create_app(db_url: str | None = None, *, solver_seconds: float = 2.0,
               solver_workers: int = 1, solver_grace: float = 3.0,
               cache_size: int = 1000) -> FastAPI:
    """The app on database ``db_url`` (default: ``PATIENCE_DB`` or ``./data/patience.db``).

    ``solver_seconds`` is the solver's budget per request (the worker is stopped
    ``solver_grace`` seconds later); ``solver_workers`` processes solve at once.
    """
    url = db_url or default_db_url()

    def open_services() -> api.Services:
        engine = make_engine(url)
        migrate(engine)
        _warm_up()
        pool = SolverPool(solver_workers, seconds=solver_seconds, grace=solver_grace)
        return api.Services(GameStore(engine, cache_size), pool, LineCache())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if getattr(app.state, "services", None) is None:
            app.state.services = await run_in_threadpool(open_services)
        checkpointer = Checkpointer(app.state.services.store.engine)
        checkpointer.start()
        try:
            yield
        finally:
            checkpointer.stop()
            services: api.Services | None = getattr(app.state, "services", None)
            app.state.services = None
            if services is not None:
                services.pool.close()
                services.store.engine.dispose()

    app = FastAPI(title="patience", version=__version__, description=DESCRIPTION,
                  openapi_url="/api/openapi.json", docs_url="/api/docs", redoc_url=None,
                  lifespan=lifespan)
    app.state.services = None
    app.state.open_services = open_services
    app.state.db_url = url
    app.add_middleware(PlayerCookieMiddleware)
    app.include_router(api.router)
    from patience.web.pages import install_pages

    install_pages(app)  # the lobby, the tables, rules, statistics and player pages

    @app.exception_handler(WebError)
    async def web_error(request: Request, exc: WebError) -> JSONResponse:
        return JSONResponse({"detail": exc.message}, status_code=exc.status,
                            headers=exc.headers)

    @app.exception_handler(IllegalMove)
    async def illegal_move(request: Request, exc: IllegalMove) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    @app.exception_handler(UnknownGame)
    async def unknown_game(request: Request, exc: UnknownGame) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=404)

    @app.exception_handler(ValueError)
    async def value_error(request: Request, exc: ValueError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = jsonable_encoder(exc.errors(), custom_encoder={Exception: str})
        words = "; ".join(f"{_location(e.get('loc', ()))}: {e.get('msg', 'invalid')}"
                          for e in errors) or "malformed request"
        return JSONResponse({"detail": words, "errors": errors}, status_code=422)

    return app
