"""The request and response bodies of the API (pydantic), as the OpenAPI schema shows them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from patience.games import UnknownGame, get_spec

#: The largest deal number the API takes: JavaScript numbers carry whole numbers exactly
#: only up to 2**53 - 1 (larger deal numbers can be played with ``patience play``).
MAX_WEB_DEAL = 2**53 - 1
MAX_VERSION = 2**31 - 1
MAX_MOVE_TEXT = 32
MAX_FEEDBACK = 2000

Status = Literal["playing", "won", "lost", "resigned"]
Verdict = Literal["won", "lost", "unknown"]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _game_id(value: str) -> str:
    try:
        return get_spec(value).id
    except UnknownGame as e:
        raise ValueError(str(e)) from None


# ---------------------------------------------------------------------- errors
class ErrorOut(BaseModel):
    """Every error but a malformed request: ``detail`` says what is wrong."""

    detail: str


class ValidationErrorOut(BaseModel):
    """A malformed request (422): ``detail`` in words, ``errors`` field by field."""

    detail: str
    errors: list[dict[str, Any]]


# ---------------------------------------------------------------------- games
class NewGameIn(_In):
    game: str = Field(min_length=1, max_length=64, examples=["fours-up"],
                      description="game id, name or alias (see /api/catalogue)")
    deal: int | None = Field(default=None, ge=0, le=MAX_WEB_DEAL,
                             description="deal number; a random one when omitted")
    winnable: bool = Field(default=False,
                           description="deal only a deal the solver proved winnable "
                                       "(ignored when `deal` is given)")

    @field_validator("game")
    @classmethod
    def _known_game(cls, value: str) -> str:
        return _game_id(value)


class VersionIn(_In):
    version: int = Field(ge=0, le=MAX_VERSION,
                         description="the version of the state the request was made from")


class MoveIn(VersionIn):
    move: str = Field(min_length=1, max_length=MAX_MOVE_TEXT, examples=["t3>f1", "deal"],
                      description="a move text of the rules (t3>f1, t2>t5x3, stock>t2, deal)")


class GameState(BaseModel):
    """A game as the table shows it.  The stock is only a count: its order is secret."""

    id: str
    game: str
    name: str
    deal: int
    piles: dict[str, list[str]] = Field(
        description="pile id → card texts, bottom to top; every pile but the stock")
    stock_count: int
    legal_moves: list[str]
    status: Status = Field(description="`lost` while playing means no legal move is left "
                                       "(undo or restart still work)")
    finished: bool = Field(description="won, resigned or given up: no more changes")
    moves: int = Field(description="moves in the current line of play")
    elapsed_seconds: float
    version: int
    base_rank: int
    passes_left: int
    can_undo: bool
    can_redo: bool
    winnable_only: bool
    started_at: float
    finished_at: float | None


class GameSummary(BaseModel):
    """A played game in the history: replay it with its deal number."""

    id: str
    game: str
    deal: int
    status: Status
    finished: bool
    moves: int
    elapsed_seconds: float
    winnable_only: bool
    started_at: float
    finished_at: float | None


class GameList(BaseModel):
    games: list[GameSummary]


class GameRecordOut(BaseModel):
    """A stored game: ``patience.Game.from_dict({game, deal, moves})`` rebuilds it."""

    id: str
    game: str
    deal: int
    moves: list[str]
    redo: list[str] = Field(description="moves taken back (the next one to redo first)")
    status: Status
    version: int


# --------------------------------------------------------------------- solver
class HintOut(BaseModel):
    status: Literal["won", "lost", "heuristic"] = Field(
        description="`won`: the move is on a winning line; `lost`: no line wins from here; "
                    "`heuristic`: undecided within the time limit, the move is a best guess")
    move: str | None
    message: str
    version: int


class WinnableOut(BaseModel):
    status: Verdict
    winnable: bool | None = Field(description="null when the solver could not tell in time")
    message: str
    version: int


class AutoFinishOut(BaseModel):
    status: Verdict = Field(description="`won`: the rest was played out; otherwise nothing "
                                        "was played")
    played: int
    message: str
    state: GameState


# ------------------------------------------------------------------ statistics
class GameStats(BaseModel):
    game: str
    name: str
    played: int
    won: int
    win_rate: float | None = Field(description="won / played; null before the first game")
    current_streak: int = Field(description="games won in a row, up to the last one")
    best_streak: int
    best_time_seconds: float | None = Field(description="fastest win")
    fewest_moves: int | None = Field(description="shortest win")


class StatsOut(BaseModel):
    played: int
    won: int
    games: list[GameStats] = Field(description="one entry per registered game")


# ------------------------------------------------------------------- catalogue
class RelatedGame(BaseModel):
    id: str | None = Field(description="null when the game is not playable here")
    name: str


class MeasuredOdds(BaseModel):
    """A win rate measured by `patience odds` (docs/odds.md)."""

    rate: float
    low: float = Field(description="low end of the 95% Wilson interval (unknowns as losses)")
    high: float = Field(description="high end of the 95% Wilson interval (unknowns as wins)")
    deals: int
    unknown: int
    budget: str


class CatalogueEntry(BaseModel):
    id: str
    name: str
    aliases: list[str]
    decks: int
    odds: str = Field(description="published odds of winning, in words (may be empty)")
    odds_source: str
    odds_value: float | None
    play_minutes: int = Field(description="typical play time")
    difficulty: str
    related: list[RelatedGame]
    summary: str
    layout: str
    section: str
    thoughtful: MeasuredOdds | None = Field(
        default=None, description="our solver's win rate, knowing the stock order")
    fair: MeasuredOdds | None = Field(
        default=None, description="the fair player's win rate, seeing only what a person sees")


class Catalogue(BaseModel):
    games: list[CatalogueEntry]


class CatalogueGame(CatalogueEntry):
    rules: str = Field(description="the rules in Markdown (as `patience rules` prints them)")


# ------------------------------------------------------------------- feedback
class FeedbackIn(_In):
    message: str = Field(min_length=1, max_length=MAX_FEEDBACK)
    game_id: str | None = Field(default=None, max_length=64,
                                description="one of your games: its deal and moves are "
                                            "stored with the message")
    game: str | None = Field(default=None, max_length=64,
                             description="otherwise, the game the message is about")
    deal: int | None = Field(default=None, ge=0, le=MAX_WEB_DEAL)
    moves: list[str] | None = Field(default=None, max_length=5000)

    @field_validator("game")
    @classmethod
    def _known_game(cls, value: str | None) -> str | None:
        return None if value is None else _game_id(value)

    @field_validator("message")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the message is empty")
        return value

    @field_validator("moves")
    @classmethod
    def _short_moves(cls, value: list[str] | None) -> list[str] | None:
        if value is not None and any(len(m) > MAX_MOVE_TEXT for m in value):
            raise ValueError(f"a move text has at most {MAX_MOVE_TEXT} characters")
        return value


class FeedbackOut(BaseModel):
    id: int
    received_at: float
    message: str


# --------------------------------------------------------------------- players
class PlayerOut(BaseModel):
    created_at: float | None = Field(description="null until the first game or message")
    games: int
    restore_code: str | None = Field(description="set once exported")


class RestoreCodeOut(BaseModel):
    code: str
    message: str


class RestoreIn(_In):
    code: str = Field(min_length=1, max_length=64, examples=["7K3M-Q9TX-4RWB-ZP2D"])


class RestoreOut(BaseModel):
    message: str
    player: PlayerOut
