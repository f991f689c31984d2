"""Storage: the SQLAlchemy models, the engine, and the schema migrations.

Any SQLAlchemy URL works; the default is an SQLite file under ``./data/``
(``PATIENCE_DB`` or ``--db`` choose another, e.g. ``postgresql+psycopg://…``).
SQLite runs in WAL mode with foreign keys on and a busy timeout, so that the
threads of one server share it safely.

The schema is created and upgraded by Alembic (``migrations/`` in this package,
upgraded to ``head`` on every start).  After changing the models, write the next
revision with::

    python -m patience.web.db revision "what changed"

A played game is stored as its game, deal number and move list (plus the moves
taken back, for redo); the position is rebuilt by replaying them.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    BigInteger,
    Boolean,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    create_engine,
    event,
)
from sqlalchemy.engine import make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.pool import StaticPool

DEFAULT_DB_FILE = Path("data") / "patience.db"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"

# Game statuses as stored.  "playing" games are unfinished; the others are final.
PLAYING, WON, LOST, RESIGNED = "playing", "won", "lost", "resigned"
FINISHED_STATUSES = (WON, LOST, RESIGNED)


class Base(DeclarativeBase):
    pass


class Player(Base):
    """An anonymous player: a random id kept in a cookie, and an optional restore code."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[float] = mapped_column(Float)
    restore_code: Mapped[str | None] = mapped_column(String(32), unique=True, default=None)


class GameRecord(Base):
    """One played (or being played) deal: rebuilt by replaying ``moves``."""

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_player_status", "player_id", "status"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("players.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(64))
    deal: Mapped[int] = mapped_column(BigInteger)
    moves: Mapped[str] = mapped_column(Text, default="[]")  # JSON list of move texts
    redo: Mapped[str] = mapped_column(Text, default="[]")  # moves taken back, next first
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default=PLAYING)
    version: Mapped[int] = mapped_column(Integer, default=0)
    winnable_only: Mapped[bool] = mapped_column(Boolean, default=False)
    started_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, default=None)


class Feedback(Base):
    """A message from a player, with the position it was sent from."""

    __tablename__ = "feedback"
    __table_args__ = (Index("ix_feedback_player_created", "player_id", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(
        String(64), ForeignKey("players.id", ondelete="CASCADE"))
    created_at: Mapped[float] = mapped_column(Float)
    message: Mapped[str] = mapped_column(Text)
    game_id: Mapped[str | None] = mapped_column(String(32), default=None)
    game: Mapped[str | None] = mapped_column(String(64), default=None)
    deal: Mapped[int | None] = mapped_column(BigInteger, default=None)
    moves: Mapped[str | None] = mapped_column(Text, default=None)  # JSON list
    user_agent: Mapped[str | None] = mapped_column(String(300), default=None)


class WinnableDeal(Base):
    """A deal known to be winnable: proven by the solver, or won by a player."""

    __tablename__ = "winnable_deals"

    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    deal: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    source: Mapped[str] = mapped_column(String(16))
    found_at: Mapped[float] = mapped_column(Float)


class SolveRecord(Base):
    """One deal's verdict in a win-rate run (``patience odds``): runs resume from these,
    and a finished range is not computed again."""

    __tablename__ = "solve_results"

    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    deal: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    rules_version: Mapped[str] = mapped_column(String(32), primary_key=True)
    solver_version: Mapped[str] = mapped_column(String(32), primary_key=True)
    player: Mapped[str] = mapped_column(String(64), primary_key=True)  # "thoughtful" or fair policy
    budget: Mapped[str] = mapped_column(String(32), primary_key=True)  # "10s" or "20000n"
    verdict: Mapped[str] = mapped_column(String(16))  # won / lost / unknown
    nodes: Mapped[int] = mapped_column(BigInteger)
    seconds: Mapped[float] = mapped_column(Float)
    created_at: Mapped[float] = mapped_column(Float)


# --------------------------------------------------------------------- engine
def default_db_url() -> str:
    """``PATIENCE_DB`` when set, else the SQLite file ``./data/patience.db``."""
    url = os.environ.get("PATIENCE_DB")
    if url:
        return url
    return f"sqlite:///{DEFAULT_DB_FILE.resolve()}"


def _sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    # WAL + NORMAL: a committed transaction survives the process being killed
    # (only a power cut may lose the last ones); commits need no fsync each.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    # Checkpoints (copying the WAL back into the database, with an fsync) are made by
    # the server's Checkpointer thread; a commit makes one only if that falls far behind.
    cur.execute(f"PRAGMA wal_autocheckpoint={AUTOCHECKPOINT_PAGES}")
    cur.close()


AUTOCHECKPOINT_PAGES = 20000  # 80 MB of WAL: only when the Checkpointer is not running


class Checkpointer:
    """A thread that checkpoints an SQLite database's WAL every ``interval`` seconds.

    SQLite would otherwise checkpoint inside whichever commit crosses 1000 pages,
    and that commit (a player's move) waits for the copy and its fsync.  PASSIVE
    checkpoints here never block readers or writers.  Other backends: a no-op.
    """

    def __init__(self, engine: Engine, interval: float = 1.0) -> None:
        self.engine = engine
        self.interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self.engine.dialect.name != "sqlite" or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint",
                                        daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.checkpoint()

    def checkpoint(self) -> None:
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception:  # a busy or closing database: the next round tries again
            pass

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None


def make_engine(url: str) -> Engine:
    """An engine for ``url``; for SQLite, the folder of the file is created."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    database = u.database or ""
    memory = database in ("", ":memory:") or database.startswith("file::memory:")
    if not memory:
        Path(database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 30},
        **({"poolclass": StaticPool} if memory else {"pool_size": 8, "max_overflow": 16}),
    )
    event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def alembic_config(url: str | None = None, engine: Engine | None = None) -> Config:
    """The Alembic configuration of this package's migrations."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if engine is not None:
        cfg.attributes["engine"] = engine
    return cfg


def migrate(engine: Engine) -> None:
    """Create or upgrade the schema to the newest revision."""
    with engine.begin() as conn:
        cfg = alembic_config()
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def now() -> float:
    return time.time()


def _main(argv: list[str]) -> int:
    """``python -m patience.web.db revision MESSAGE`` or ``… upgrade [URL]``."""
    if len(argv) >= 2 and argv[0] == "revision":
        url = argv[2] if len(argv) > 2 else default_db_url()
        engine = make_engine(url)
        migrate(engine)
        command.revision(alembic_config(url, engine), message=argv[1], autogenerate=True)
        return 0
    if argv and argv[0] == "upgrade":
        migrate(make_engine(argv[1] if len(argv) > 1 else default_db_url()))
        return 0
    print("usage: python -m patience.web.db revision MESSAGE [URL] | upgrade [URL]",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
