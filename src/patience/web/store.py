"""Played games: stored as game, deal and move list, played through live :class:`Game` objects.

Every change is made under the game's lock, checked against the version the
request was made from, and committed before it is acknowledged; the database
row is the truth.  Live games are cached in memory (LRU, ``cache_size`` games)
with their version, and rebuilt by replay whenever the cache misses or is
stale, so the server is correct after a restart.  A change's UPDATE is
conditional on player, version and status, so a second server process on the
same database cannot corrupt a game (it answers 409 where its cache was stale).

A game counts as *played* once it is finished: won, resigned, or abandoned by
starting a new deal of the same game while it was unfinished (stored as
``lost`` when no legal move was left, else ``resigned``).  A position with no
legal move is shown as ``lost`` but stays open, so the player may undo or
restart; it is recorded as lost when resigned or abandoned.  A won game is final.
"""

from __future__ import annotations

import json
import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from typing import Any

from sqlalchemy import Engine, Table, bindparam, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from patience.game import Game, IllegalMove
from patience.games import get_spec
from patience.web import schemas
from patience.web.db import (
    FINISHED_STATUSES,
    LOST,
    PLAYING,
    RESIGNED,
    WON,
    Feedback,
    GameRecord,
    Player,
    WinnableDeal,
    now,
)
from patience.web.players import new_restore_code, normalize_restore_code

FEEDBACK_LIMIT = 5
FEEDBACK_WINDOW = 600.0


class WebError(Exception):
    """An error the API answers with ``status`` and ``{"detail": message}``."""

    status = 400

    def __init__(self, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.headers = headers


class NotFound(WebError):
    status = 404


class Conflict(WebError):
    status = 409


class Gone(WebError):
    status = 410


class TooMany(WebError):
    status = 429


class Unavailable(WebError):
    status = 503


@dataclass(slots=True)
class GameRow:
    """A ``games`` row as plain values (read with SQLAlchemy Core on the hot path)."""

    id: str
    player_id: str
    game: str
    deal: int
    moves: str
    redo: str
    move_count: int
    status: str
    version: int
    winnable_only: bool
    started_at: float
    updated_at: float
    finished_at: float | None

    @classmethod
    def of(cls, r: Any) -> GameRow:
        """From an ORM object or a Core row mapping."""
        get = r.__getitem__ if hasattr(r, "keys") else r.__getattribute__
        return cls(*(get(name) for name in _COLUMNS))


_COLUMNS = tuple(f.name for f in fields(GameRow))
GAMES: Table = GameRecord.__table__  # type: ignore[assignment]
_SELECT_GAME = select(*(GAMES.c[name] for name in _COLUMNS)).where(
    GAMES.c.id == bindparam("game_id"))
_CHANGED = ("moves", "redo", "move_count", "status", "version", "updated_at", "finished_at")
#: A change is stored only if the game is the player's, unfinished, and at the version
#: the request was made from (built once: SQLAlchemy then reuses its compiled form).
_UPDATE_GAME = (update(GAMES)
                .where(GAMES.c.id == bindparam("w_id"),
                       GAMES.c.player_id == bindparam("w_player"),
                       GAMES.c.version == bindparam("w_version"),
                       GAMES.c.status == PLAYING)
                .values({name: bindparam(name) for name in _CHANGED}))


@dataclass(slots=True)
class Live:
    """A game being played: its row as stored, the Game object, the move texts and the
    moves taken back (next to redo first)."""

    row: GameRow
    game: Game
    moves: list[str] = field(default_factory=list)
    redo: list[str] = field(default_factory=list)


def _new_game_id() -> str:
    return secrets.token_urlsafe(12)


def _loads(text: str | None) -> list[str]:
    data = json.loads(text) if text else []
    if not isinstance(data, list) or not all(isinstance(m, str) for m in data):
        raise ValueError("a stored move list is not a list of texts")
    return data


def rebuild(game: str, deal: int, moves: list[str], redo: list[str]) -> Game:
    """Replay ``moves`` then take back ``redo`` so that redo plays them again in order."""
    g = Game.from_dict({"game": game, "deal": deal, "moves": moves + redo[::-1]})
    for _ in redo:
        g.undo()
    return g


def _not_yours(game_id: str) -> NotFound:
    return NotFound(f"no game {game_id!r} among your games")


def _stale(version: int, current: int) -> Conflict:
    return Conflict(f"this request was made from version {version} of the game, which is "
                    f"now at version {current}: reload it and try again")


class GameStore:
    """The games and players of one database, with the live games cached.

    The cache is exact for a single server process per database (every change
    goes through it); rows are still read for every request but a move, and a
    move's UPDATE is conditional on the player, the version and the status.
    """

    def __init__(self, engine: Engine, cache_size: int = 1000) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self._cache: OrderedDict[str, Live] = OrderedDict()
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()
        self._locks = [threading.Lock() for _ in range(64)]

    # ------------------------------------------------------------ plumbing
    @contextmanager
    def session(self) -> Iterator[Session]:
        with self.sessions() as s:
            yield s

    def _lock(self, game_id: str) -> threading.Lock:
        return self._locks[hash(game_id) % len(self._locks)]

    def _cached(self, game_id: str) -> Live | None:
        with self._cache_lock:
            live = self._cache.get(game_id)
            if live is not None:
                self._cache.move_to_end(game_id)
            return live

    def _remember(self, live: Live) -> None:
        with self._cache_lock:
            self._cache[live.row.id] = live
            self._cache.move_to_end(live.row.id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def _forget(self, game_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(game_id, None)

    def _select(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(_SELECT_GAME, {"game_id": game_id}).mappings().first()
        return None if r is None else GameRow.of(r)

    def _own(self, player_id: str, game_id: str) -> GameRow:
        row = self._select(game_id)
        if row is None or row.player_id != player_id:
            raise _not_yours(game_id)
        return row

    def _live(self, row: GameRow) -> Live:
        """The live game of ``row`` (call under its lock): cached when the version
        matches, else replayed."""
        live = self._cached(row.id)
        if live is not None and live.row.version == row.version:
            live.row = row
            return live
        try:
            moves, redo = _loads(row.moves), _loads(row.redo)
            game = rebuild(row.game, row.deal, moves, redo)
        except (ValueError, KeyError) as e:
            raise Gone(f"game {row.id} can no longer be replayed: {e}") from None
        live = Live(row, game, moves, redo)
        self._remember(live)
        return live

    def ensure_player(self, player_id: str) -> None:
        """Write the player's row unless it exists (in its own transaction: two first
        requests of a new player at once must not fail)."""
        with self.session() as s:
            if s.get(Player, player_id) is not None:
                return
            s.add(Player(id=player_id, created_at=now()))
            try:
                s.commit()
            except IntegrityError:  # written meanwhile by the other request
                s.rollback()

    # --------------------------------------------------------------- reading
    def get(self, player_id: str, game_id: str) -> Live:
        row = self._own(player_id, game_id)
        with self._lock(game_id):
            return self._live(row)

    def snapshot(self, player_id: str, game_id: str) -> tuple[GameRow, Game]:
        """The stored row and a copy of its game, to work on outside the lock."""
        row = self._own(player_id, game_id)
        with self._lock(game_id):
            return row, self._live(row).game.copy()

    def record(self, player_id: str, game_id: str) -> GameRow:
        return self._own(player_id, game_id)

    def history(self, player_id: str, *, finished: bool | None, game: str | None,
                limit: int, offset: int) -> list[GameRecord]:
        q = select(GameRecord).where(GameRecord.player_id == player_id)
        if finished is True:
            q = q.where(GameRecord.status != PLAYING)
        elif finished is False:
            q = q.where(GameRecord.status == PLAYING)
        if game is not None:
            q = q.where(GameRecord.game == game)
        q = q.order_by(GameRecord.started_at.desc(), GameRecord.id).limit(limit).offset(offset)
        with self.session() as s:
            return list(s.scalars(q))

    def finished_games(self, player_id: str) -> list[GameRecord]:
        q = (select(GameRecord)
             .where(GameRecord.player_id == player_id, GameRecord.status != PLAYING)
             .order_by(GameRecord.finished_at, GameRecord.started_at))
        with self.session() as s:
            return list(s.scalars(q))

    # --------------------------------------------------------------- changes
    def create(self, player_id: str, game: str, deal: int, *,
               winnable_only: bool = False) -> Live:
        """Start ``deal`` of ``game``; the player's unfinished deal of that game is ended."""
        spec = get_spec(game)
        g = Game(spec, deal=deal)
        t = now()
        self.ensure_player(player_id)
        with self.session() as s:
            stale = s.scalars(select(GameRecord).where(
                GameRecord.player_id == player_id, GameRecord.game == spec.id,
                GameRecord.status == PLAYING)).all()
            for old in stale:
                with self._lock(old.id):
                    try:
                        lost = self._live(GameRow.of(old)).game.is_lost
                    except Gone:
                        lost = False
                    old.status = LOST if lost else RESIGNED
                    old.finished_at = t
                    old.updated_at = t
                    old.version += 1
                    self._forget(old.id)
            record = GameRecord(id=_new_game_id(), player_id=player_id, game=spec.id,
                                deal=deal, moves="[]", redo="[]", move_count=0, status=PLAYING,
                                version=0, winnable_only=winnable_only, started_at=t,
                                updated_at=t)
            s.add(record)
            s.commit()
            row = GameRow.of(record)
        live = Live(row, g)
        self._remember(live)
        return live

    def change(self, player_id: str, game_id: str, version: int,
               action: Callable[[Live], object], *, resign: bool = False) -> Live:
        """Apply ``action`` to the game made at ``version``, store it, and return it.

        ``action`` raises (IllegalMove, WebError) without changing the game, or
        changes it; the change is committed before this returns.
        """
        with self._lock(game_id):
            live = self._cached(game_id)
            if live is None or live.row.version != version or \
                    live.row.player_id != player_id or live.row.status != PLAYING:
                row = self._own(player_id, game_id)
                if row.version != version:
                    raise _stale(version, row.version)
                if row.status != PLAYING:
                    raise Conflict(f"this game is over ({row.status}): start a new one")
                live = self._live(row)
            try:
                action(live)
            except (IllegalMove, WebError):  # raised before changing anything
                raise
            except Exception:
                self._forget(game_id)  # an action may have been half done
                raise
            t = now()
            g = live.game
            status = WON if g.is_won else PLAYING
            if resign:
                status = LOST if g.is_lost else RESIGNED
            values: dict[str, Any] = {
                "moves": json.dumps(live.moves), "redo": json.dumps(live.redo),
                "move_count": len(live.moves), "status": status, "version": version + 1,
                "updated_at": t, "finished_at": None if status == PLAYING else t}
            try:
                with self.engine.connect() as conn:
                    done = conn.execute(_UPDATE_GAME, {
                        **values, "w_id": game_id, "w_player": player_id,
                        "w_version": version}).rowcount
                    if done != 1:
                        conn.rollback()
                        raise self._why_not(player_id, game_id, version)
                    conn.commit()
            except Exception:
                self._forget(game_id)
                raise
            for key, value in values.items():
                setattr(live.row, key, value)
        if status == WON:
            self.add_winnable(live.row.game, live.row.deal, "player")
        return live

    def _why_not(self, player_id: str, game_id: str, version: int) -> WebError:
        row = self._select(game_id)
        if row is None or row.player_id != player_id:
            return _not_yours(game_id)
        if row.version != version:
            return _stale(version, row.version)
        return Conflict(f"this game is over ({row.status}): start a new one")

    def play(self, player_id: str, game_id: str, version: int, move: str) -> Live:
        def act(live: Live) -> None:
            m = live.game.play(move)
            live.moves.append(str(m))
            live.redo.clear()
        return self.change(player_id, game_id, version, act)

    def play_line(self, player_id: str, game_id: str, version: int, line: list[str]
                  ) -> Live:
        """Play several moves as one change (auto-finish); all or nothing."""
        def act(live: Live) -> None:
            trial = live.game.copy()
            for m in line:
                trial.play(m)
            for m in line:
                live.moves.append(str(live.game.play(m)))
            live.redo.clear()
        return self.change(player_id, game_id, version, act)

    def undo(self, player_id: str, game_id: str, version: int) -> Live:
        def act(live: Live) -> None:
            m = live.game.undo()
            live.moves.pop()
            live.redo.insert(0, str(m))
        return self.change(player_id, game_id, version, act)

    def redo(self, player_id: str, game_id: str, version: int) -> Live:
        def act(live: Live) -> None:
            m = live.game.redo()
            live.moves.append(str(m))
            live.redo.pop(0)
        return self.change(player_id, game_id, version, act)

    def restart(self, player_id: str, game_id: str, version: int) -> Live:
        def act(live: Live) -> None:
            if not live.moves and not live.redo:
                raise IllegalMove("restart", "the deal has not been played yet")
            live.game.restart()
            live.moves.clear()
            live.redo.clear()
        return self.change(player_id, game_id, version, act)

    def resign(self, player_id: str, game_id: str, version: int) -> Live:
        return self.change(player_id, game_id, version, lambda live: None, resign=True)

    # -------------------------------------------------------- winnable deals
    def add_winnable(self, game: str, deal: int, source: str) -> None:
        try:
            with self.session() as s:
                if s.get(WinnableDeal, (game, deal)) is None:
                    s.add(WinnableDeal(game=game, deal=deal, source=source, found_at=now()))
                    s.commit()
        except IntegrityError:  # found by two at once
            pass

    def known_winnable(self, game: str, player_id: str) -> int | None:
        """A known winnable deal of ``game``, preferring one the player has not played."""
        with self.session() as s:
            deals = list(s.scalars(select(WinnableDeal.deal).where(WinnableDeal.game == game)
                                   .limit(1000)))
        if not deals:
            return None
        return self.unplayed(game, player_id, deals) or random.choice(deals)

    def unplayed(self, game: str, player_id: str, deals: Sequence[int]) -> int | None:
        """One of ``deals`` (at random) that the player has not played, or None."""
        with self.session() as s:
            played = set(s.scalars(select(GameRecord.deal).where(
                GameRecord.player_id == player_id, GameRecord.game == game)))
        fresh = [d for d in deals if d not in played]
        return random.choice(fresh) if fresh else None

    # --------------------------------------------------------------- players
    def player(self, player_id: str) -> tuple[Player | None, int]:
        with self.session() as s:
            player = s.get(Player, player_id)
            count = s.scalar(select(func.count()).select_from(GameRecord)
                             .where(GameRecord.player_id == player_id)) or 0
            return player, count

    def restore_code(self, player_id: str) -> str:
        """The player's restore code, made on first request."""
        for _ in range(5):
            try:
                self.ensure_player(player_id)
                with self.session() as s:
                    player = s.get_one(Player, player_id)
                    if player.restore_code is None:
                        player.restore_code = new_restore_code()
                        s.commit()
                    return player.restore_code
            except IntegrityError:  # the same new code twice: 2**-80, or a race
                continue
        raise Unavailable("could not make a restore code; try again")

    def restore(self, code: str) -> str:
        """The player id of a restore code."""
        canon = normalize_restore_code(code)
        if canon is None:
            raise WebError("a restore code has 16 letters and digits, such as "
                           "7K3M-Q9TX-4RWB-ZP2D")
        with self.session() as s:
            player = s.scalar(select(Player).where(Player.restore_code == canon))
        if player is None:
            raise NotFound("no player has this restore code; check it and try again")
        return player.id

    # -------------------------------------------------------------- feedback
    def add_feedback(self, player_id: str, body: schemas.FeedbackIn,
                     user_agent: str | None) -> Feedback:
        t = now()
        with self.session() as s:
            recent = s.scalar(select(func.count()).select_from(Feedback).where(
                Feedback.player_id == player_id,
                Feedback.created_at > t - FEEDBACK_WINDOW)) or 0
            if recent >= FEEDBACK_LIMIT:
                oldest = s.scalar(select(func.min(Feedback.created_at)).where(
                    Feedback.player_id == player_id,
                    Feedback.created_at > t - FEEDBACK_WINDOW)) or t
                wait = max(1, int(oldest + FEEDBACK_WINDOW - t) + 1)
                raise TooMany(f"at most {FEEDBACK_LIMIT} messages in "
                              f"{int(FEEDBACK_WINDOW) // 60} minutes: please try again in "
                              f"{(wait + 59) // 60} minute(s)", {"Retry-After": str(wait)})
            game, deal, moves = body.game, body.deal, body.moves
            if body.game_id is not None:
                row = self._own(player_id, body.game_id)
                game, deal, moves = row.game, row.deal, _loads(row.moves)
            self.ensure_player(player_id)
            fb = Feedback(player_id=player_id, created_at=t, message=body.message,
                          game_id=body.game_id, game=game, deal=deal,
                          moves=None if moves is None else json.dumps(moves),
                          user_agent=(user_agent or None) and user_agent[:300])
            s.add(fb)
            s.commit()
            return fb

    def feedback(self, limit: int = 100) -> list[Feedback]:
        with self.session() as s:
            return list(s.scalars(select(Feedback).order_by(Feedback.id.desc()).limit(limit)))


def stats(rows: list[GameRecord]) -> schemas.StatsOut:
    """Statistics per registered game from the finished games, oldest first."""
    from patience.games import all_specs

    per: dict[str, list[GameRecord]] = {}
    for r in rows:
        if r.status in FINISHED_STATUSES:
            per.setdefault(r.game, []).append(r)
    out = []
    for spec in all_specs():
        games = per.get(spec.id, [])
        wins = [g for g in games if g.status == WON]
        streak = best = 0
        for g in games:
            streak = streak + 1 if g.status == WON else 0
            best = max(best, streak)
        out.append(schemas.GameStats(
            game=spec.id, name=spec.name, played=len(games), won=len(wins),
            win_rate=len(wins) / len(games) if games else None,
            current_streak=streak, best_streak=best,
            best_time_seconds=min(((g.finished_at or g.updated_at) - g.started_at
                                   for g in wins), default=None),
            fewest_moves=min((g.move_count for g in wins), default=None)))
    return schemas.StatsOut(played=sum(s.played for s in out), won=sum(s.won for s in out),
                            games=out)
