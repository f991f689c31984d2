"""The routes under ``/api``: games, solver services, statistics, catalogue, feedback, players.

The game handlers (state, move, undo, redo, restart, resign) are ``async`` and
run on the event loop: each is a cached position, one rules step and one short
SQLite write (well under a millisecond), and running them there spares a thread
switch and contention for the GIL, which is what shapes the latency tail.  The
others (history, statistics, players, feedback) are plain functions that FastAPI
runs in its thread pool; the solver ones await the solver pool and never hold a
thread or the event loop while solving.
"""

from __future__ import annotations

import json
import secrets
import threading
from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request, Response, status
from starlette.concurrency import run_in_threadpool

from patience.game import Game
from patience.games import UnknownGame, all_specs, get_spec
from patience.rules.spec import GameSpec
from patience.web import schemas
from patience.web.db import PLAYING, GameRecord, now
from patience.web.solver_service import LineCache, SolverPool
from patience.web.store import (
    Conflict,
    GameRow,
    GameStore,
    Live,
    NotFound,
    Unavailable,
    stats,
)

router = APIRouter(prefix="/api", responses={
    422: {"model": schemas.ValidationErrorOut, "description": "malformed request"}})


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": schemas.ErrorOut} for code in codes}


# ------------------------------------------------------------------ plumbing
class Services:
    """What the handlers use; made by the app's lifespan (or on first use without one)."""

    def __init__(self, store: GameStore, pool: SolverPool, lines: LineCache) -> None:
        self.store = store
        self.pool = pool
        self.lines = lines


_open_lock = threading.Lock()


async def services(request: Request) -> Services:
    s: Services | None = getattr(request.app.state, "services", None)
    if s is None:
        with _open_lock:
            s = getattr(request.app.state, "services", None)
            if s is None:
                s = request.app.state.services = request.app.state.open_services()
    return s


async def player(request: Request) -> str:
    player_id: str = request.state.player_id
    return player_id


Svc = Annotated[Services, Depends(services)]
PlayerId = Annotated[str, Depends(player)]
GameId = Annotated[str, Path(min_length=1, max_length=64, description="a game's id")]


def state_of(live: Live) -> schemas.GameState:
    row, g = live.row, live.game
    piles = g.piles
    stock = piles.pop("stock", [])
    finished = row.status != PLAYING
    legal = [] if finished else [str(m) for m in g.legal_moves()]
    if finished:
        status_: Any = row.status
    elif g.is_won:
        status_ = "won"
    else:
        status_ = "playing" if legal else "lost"
    return schemas.GameState(
        id=row.id, game=row.game, name=g.spec.name, deal=row.deal, piles=piles,
        stock_count=len(stock), legal_moves=legal, status=status_, finished=finished,
        moves=len(live.moves),
        elapsed_seconds=round((row.finished_at or now()) - row.started_at, 3),
        version=row.version, base_rank=g.base_rank, passes_left=g.passes_left,
        can_undo=not finished and g.can_undo, can_redo=not finished and g.can_redo,
        winnable_only=row.winnable_only, started_at=row.started_at,
        finished_at=row.finished_at)


def summary_of(row: GameRecord) -> schemas.GameSummary:
    return schemas.GameSummary(
        id=row.id, game=row.game, deal=row.deal, status=row.status,  # type: ignore[arg-type]
        finished=row.status != PLAYING, moves=row.move_count,
        elapsed_seconds=round((row.finished_at or now()) - row.started_at, 3),
        winnable_only=row.winnable_only, started_at=row.started_at,
        finished_at=row.finished_at)


# ----------------------------------------------------------------- catalogue
def _entry(spec: GameSpec) -> dict[str, Any]:
    related = []
    for name in spec.related:
        try:
            rid: str | None = get_spec(name).id
        except UnknownGame:
            rid = None
        related.append(schemas.RelatedGame(
            id=rid, name=get_spec(rid).name if rid else name.replace("-", " ").title()))
    return {"id": spec.id, "name": spec.name, "aliases": list(spec.aliases),
            "decks": spec.decks, "odds": spec.odds, "odds_source": spec.odds_source,
            "odds_value": spec.odds_value, "play_minutes": spec.play_minutes,
            "difficulty": spec.difficulty, "related": related, "summary": spec.summary,
            "layout": spec.layout, "section": spec.section, **_measured(spec.id)}


def _measured(game_id: str) -> dict[str, schemas.MeasuredOdds]:
    from patience.odds_report import measured

    out = {}
    for kind, row in measured(game_id).items():
        out[kind] = schemas.MeasuredOdds(**{k: row[k] for k in ("rate", "low", "high", "deals",
                                                                  "unknown", "budget")})
    return out


@cache
def _catalogue() -> schemas.Catalogue:
    return schemas.Catalogue(games=[schemas.CatalogueEntry(**_entry(s)) for s in all_specs()])


@cache
def _catalogue_game(game_id: str) -> schemas.CatalogueGame:
    from patience.rules_text import rules_text  # written alongside; imported when used

    spec = get_spec(game_id)
    return schemas.CatalogueGame(**_entry(spec), rules=rules_text(spec.id))


@router.get("/catalogue", response_model=schemas.Catalogue, tags=["catalogue"],
            summary="Every game: names, decks, published odds, play time, related games")
async def catalogue() -> schemas.Catalogue:
    return _catalogue()


@router.get("/catalogue/{game}", response_model=schemas.CatalogueGame, tags=["catalogue"],
            responses=_errors(404), summary="One game, with its rules (Markdown)")
async def catalogue_game(game: Annotated[str, Path(min_length=1, max_length=64,
                                             description="game id, name or alias")]
                   ) -> schemas.CatalogueGame:
    try:
        game_id = get_spec(game).id
    except UnknownGame as e:
        raise NotFound(str(e)) from None
    return _catalogue_game(game_id)


# --------------------------------------------------------------------- games
@router.post("/games", response_model=schemas.GameState, status_code=status.HTTP_201_CREATED,
             tags=["games"], responses=_errors(429, 503),
             summary="Start a deal (a random one, a given one, or a proven winnable one)")
async def new_game(body: schemas.NewGameIn, svc: Svc, player_id: PlayerId) -> schemas.GameState:
    deal = body.deal
    winnable_only = False
    if deal is None and body.winnable:
        deal = await _winnable_deal(svc, body.game, player_id)
        winnable_only = True
    elif deal is None:
        deal = secrets.randbelow(1_000_000_000) + 1
    live = await run_in_threadpool(svc.store.create, player_id, body.game, deal,
                                   winnable_only=winnable_only)
    return state_of(live)


async def _winnable_deal(svc: Svc, game: str, player_id: str) -> int:
    """A deal proven winnable: one the published win-rate runs won (at once), else one the
    solver proves winnable within the pool's time, else one known from earlier games, else
    (in a game where winnable deals are rare) a published one that the player has played
    already, to play again."""
    from patience.odds_archive import won_deals
    from patience.odds_report import no_winnable_deals

    published = won_deals(game)
    if published:
        fresh = await run_in_threadpool(svc.store.unplayed, game, player_id, published)
        if fresh is not None:
            return fresh
    none_known = no_winnable_deals(game)
    if none_known is not None:
        known = await run_in_threadpool(svc.store.known_winnable, game, player_id)
        if known is None:
            raise NotFound(f"no winnable deal of {get_spec(game).name} to offer: {none_known}. "
                           f"Play any deal instead.")
        return known
    pool = svc.pool
    total = pool.seconds * 2
    with pool.player_slot(player_id):
        found: int | None = await pool.run(
            "winnable_deal", game, secrets.randbelow(1_000_000_000) + 1,
            max(0.2, pool.seconds / 4), total, schemas.MAX_WEB_DEAL, budget=total)
    if found is not None:
        await run_in_threadpool(svc.store.add_winnable, game, found, "solver")
        return found
    known = await run_in_threadpool(svc.store.known_winnable, game, player_id)
    if known is None and published:
        known = secrets.choice(published)  # all played: one of them again beats no game
    if known is None:
        raise Unavailable(f"no winnable deal of {game} was found within the time limit: "
                          f"try again, or play any deal", {"Retry-After": "1"})
    return known


@router.get("/games", response_model=schemas.GameList, tags=["games"],
            summary="Your games, newest first, with their deal numbers")
def list_games(svc: Svc, player_id: PlayerId,
               finished: Annotated[bool | None, Query(
                   description="only finished (true) or unfinished (false) games")] = None,
               game: Annotated[str | None, Query(max_length=64,
                                                 description="only this game")] = None,
               limit: Annotated[int, Query(ge=1, le=200)] = 50,
               offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0) -> schemas.GameList:
    game_id = None
    if game is not None:
        try:
            game_id = get_spec(game).id
        except UnknownGame as e:
            raise NotFound(str(e)) from None
    rows = svc.store.history(player_id, finished=finished, game=game_id, limit=limit,
                             offset=offset)
    return schemas.GameList(games=[summary_of(r) for r in rows])


@router.get("/games/{game_id}", response_model=schemas.GameState, tags=["games"],
            responses=_errors(404, 410), summary="A game's state")
async def get_game(game_id: GameId, svc: Svc, player_id: PlayerId) -> schemas.GameState:
    return state_of(svc.store.get(player_id, game_id))


@router.get("/games/{game_id}/record", response_model=schemas.GameRecordOut, tags=["games"],
            responses=_errors(404), summary="A game as stored: game, deal and moves (replayable)")
def game_record(game_id: GameId, svc: Svc, player_id: PlayerId) -> schemas.GameRecordOut:
    row = svc.store.record(player_id, game_id)
    return schemas.GameRecordOut(id=row.id, game=row.game, deal=row.deal,
                                 moves=json.loads(row.moves), redo=json.loads(row.redo),
                                 status=row.status,  # type: ignore[arg-type]
                                 version=row.version)


_CHANGE_ERRORS = _errors(400, 404, 409, 410)


@router.post("/games/{game_id}/moves", response_model=schemas.GameState, tags=["games"],
             responses=_CHANGE_ERRORS,
             summary="Play a move (t3>f1, t2>t5x3, stock>t2, or deal)")
async def play(game_id: GameId, body: schemas.MoveIn, svc: Svc, player_id: PlayerId
        ) -> schemas.GameState:
    return state_of(svc.store.play(player_id, game_id, body.version, body.move))


@router.post("/games/{game_id}/undo", response_model=schemas.GameState, tags=["games"],
             responses=_CHANGE_ERRORS, summary="Take back the last move")
async def undo(game_id: GameId, body: schemas.VersionIn, svc: Svc, player_id: PlayerId
        ) -> schemas.GameState:
    return state_of(svc.store.undo(player_id, game_id, body.version))


@router.post("/games/{game_id}/redo", response_model=schemas.GameState, tags=["games"],
             responses=_CHANGE_ERRORS, summary="Play again the last move taken back")
async def redo(game_id: GameId, body: schemas.VersionIn, svc: Svc, player_id: PlayerId
        ) -> schemas.GameState:
    return state_of(svc.store.redo(player_id, game_id, body.version))


@router.post("/games/{game_id}/restart", response_model=schemas.GameState, tags=["games"],
             responses=_CHANGE_ERRORS, summary="Back to the deal's first position")
async def restart(game_id: GameId, body: schemas.VersionIn, svc: Svc, player_id: PlayerId
        ) -> schemas.GameState:
    return state_of(svc.store.restart(player_id, game_id, body.version))


@router.post("/games/{game_id}/resign", response_model=schemas.GameState, tags=["games"],
             responses=_CHANGE_ERRORS, summary="Give the game up (it counts as played)")
async def resign(game_id: GameId, body: schemas.VersionIn, svc: Svc, player_id: PlayerId
        ) -> schemas.GameState:
    return state_of(svc.store.resign(player_id, game_id, body.version))


# -------------------------------------------------------------------- solver
async def _open_game(svc: Services, player_id: str, game_id: str,
                     version: int | None = None) -> tuple[GameRow, Game]:
    row, game = await run_in_threadpool(svc.store.snapshot, player_id, game_id)
    if row.status != PLAYING:
        raise Conflict(f"this game is over ({row.status})")
    if version is not None and version != row.version:
        raise Conflict(f"this request was made from version {version} of the game, which is "
                       f"now at version {row.version}: reload it and try again")
    return row, game


async def _solve(svc: Services, player_id: str, row: GameRow, game: Game
                 ) -> tuple[str, list[str]]:
    """``(verdict, winning line)`` from the game's position (a remembered line if any)."""
    moves = game.moves
    line = svc.lines.rest(row.id, moves)
    if line is not None:
        return "won", line
    with svc.pool.player_slot(player_id):
        result = await svc.pool.run("solve", game.to_dict(), svc.pool.seconds)
    verdict: str = result["status"]
    if verdict == "won":
        svc.lines.put(row.id, moves, result["moves"])
        if not moves:
            await run_in_threadpool(svc.store.add_winnable, row.game, row.deal, "solver")
    return verdict, list(result["moves"])


@router.get("/games/{game_id}/hint", response_model=schemas.HintOut, tags=["solver"],
            responses=_errors(404, 409, 410, 429, 503),
            summary="A move on a winning line, or word that the position is lost")
async def hint(game_id: GameId, svc: Svc, player_id: PlayerId) -> schemas.HintOut:
    row, game = await _open_game(svc, player_id, game_id)
    line = svc.lines.rest(row.id, game.moves)
    if line is not None:
        return schemas.HintOut(status="won", move=line[0], version=row.version,
                               message=f"{line[0]}: it is on a winning line")
    with svc.pool.player_slot(player_id):
        result = await svc.pool.run("hint", game.to_dict(), svc.pool.seconds)
    h_status, move = result["status"], result["move"]
    if h_status == "won":
        svc.lines.put(row.id, game.moves, result["line"])
        message = f"{move}: it is on a winning line"
    elif h_status == "lost":
        message = "this position is lost: no line of play wins from here"
    elif move:
        message = f"{move}: a best guess (the solver could not decide in time)"
    else:
        message = "no move to suggest"
    return schemas.HintOut(status=h_status, move=move, message=message, version=row.version)


@router.get("/games/{game_id}/winnable", response_model=schemas.WinnableOut,
            tags=["solver"], responses=_errors(404, 409, 410, 429, 503),
            summary="Can this position still be won?")
async def winnable(game_id: GameId, svc: Svc, player_id: PlayerId) -> schemas.WinnableOut:
    row, game = await _open_game(svc, player_id, game_id)
    verdict, _ = await _solve(svc, player_id, row, game)
    if verdict == "won":
        return schemas.WinnableOut(status="won", winnable=True, version=row.version,
                                   message="yes: this position can still be won")
    if verdict == "lost":
        return schemas.WinnableOut(status="lost", winnable=False, version=row.version,
                                   message="no: this position can no longer be won")
    return schemas.WinnableOut(status="unknown", winnable=None, version=row.version,
                               message="the solver could not tell within the time limit")


@router.post("/games/{game_id}/autofinish", response_model=schemas.AutoFinishOut,
             tags=["solver"], responses=_errors(400, 404, 409, 410, 429, 503),
             summary="Play out the rest when the solver has a winning line")
async def autofinish(game_id: GameId, body: schemas.VersionIn, svc: Svc,
                     player_id: PlayerId) -> schemas.AutoFinishOut:
    row, game = await _open_game(svc, player_id, game_id, body.version)
    verdict, line = await _solve(svc, player_id, row, game)
    if verdict != "won":
        live = await run_in_threadpool(svc.store.get, player_id, game_id)
        message = ("this position can no longer be won" if verdict == "lost" else
                   "the solver found no winning line within the time limit")
        return schemas.AutoFinishOut(status=verdict,  # type: ignore[arg-type]
                                     played=0, message=message, state=state_of(live))
    live = await run_in_threadpool(svc.store.play_line, player_id, game_id, body.version,
                                   line)
    return schemas.AutoFinishOut(status="won", played=len(line), state=state_of(live),
                                 message=f"played the {len(line)} remaining moves")


# --------------------------------------------------------------- statistics
@router.get("/stats", response_model=schemas.StatsOut, tags=["players"],
            summary="Your statistics per game")
def player_stats(svc: Svc, player_id: PlayerId) -> schemas.StatsOut:
    return stats(svc.store.finished_games(player_id))


# ----------------------------------------------------------------- players
def _player_out(svc: Services, player_id: str) -> schemas.PlayerOut:
    p, count = svc.store.player(player_id)
    return schemas.PlayerOut(created_at=p.created_at if p else None, games=count,
                             restore_code=p.restore_code if p else None)


@router.get("/players/me", response_model=schemas.PlayerOut, tags=["players"],
            summary="You: when you started, how many games, your restore code if exported")
def me(svc: Svc, player_id: PlayerId) -> schemas.PlayerOut:
    return _player_out(svc, player_id)


@router.post("/players/restore-code", response_model=schemas.RestoreCodeOut, tags=["players"],
             responses=_errors(503),
             summary="Your restore code: enter it in another browser to be you there")
def export_code(svc: Svc, player_id: PlayerId) -> schemas.RestoreCodeOut:
    code = svc.store.restore_code(player_id)
    return schemas.RestoreCodeOut(
        code=code, message="keep this code: entering it in any browser restores your games "
                           "and statistics there")


@router.post("/players/restore", response_model=schemas.RestoreOut, tags=["players"],
             responses=_errors(400, 404),
             summary="Become the player of a restore code in this browser")
def restore(body: schemas.RestoreIn, request: Request, svc: Svc) -> schemas.RestoreOut:
    restored = svc.store.restore(body.code)
    request.state.player_id = restored  # the cookie middleware sets the new cookie
    return schemas.RestoreOut(message="restored: this browser now plays as you",
                              player=_player_out(svc, restored))


# ----------------------------------------------------------------- feedback
@router.post("/feedback", response_model=schemas.FeedbackOut,
             status_code=status.HTTP_201_CREATED, tags=["feedback"],
             responses=_errors(404, 429),
             summary="Tell us about anything odd, or an idea (stored with the position)")
def feedback(body: schemas.FeedbackIn, request: Request, response: Response, svc: Svc,
             player_id: PlayerId) -> schemas.FeedbackOut:
    fb = svc.store.add_feedback(player_id, body, request.headers.get("user-agent"))
    return schemas.FeedbackOut(id=fb.id, received_at=fb.created_at,
                               message="thank you: we read every message")


@router.get("/health", response_model=dict[str, str], tags=["server"],
            summary="Whether the server is up")
async def health() -> dict[str, str]:
    return {"status": "ok"}
