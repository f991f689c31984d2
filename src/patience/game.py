"""The public game object: a deal being played, with undo, redo and a JSON form."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

from patience.cards import card_text
from patience.deals import check_deal_number
from patience.games import get_spec
from patience.rules.engine import Rules
from patience.rules.spec import GameSpec
from patience.rules.state import Move, State

_RULES_CACHE: dict[GameSpec, Rules] = {}


def rules_for(spec: GameSpec) -> Rules:
    """The compiled rules of a declaration (built once per declaration)."""
    rules = _RULES_CACHE.get(spec)
    if rules is None:
        rules = _RULES_CACHE[spec] = Rules(spec)
    return rules


class IllegalMove(ValueError):
    """A move that the rules do not allow here; the message says why."""

    def __init__(self, move: str, why: str) -> None:
        super().__init__(f"illegal move {move}: {why}")
        self.move = move
        self.why = why


@dataclass(frozen=True)
class GameInfo:
    """A registered game's metadata, as listed by :func:`patience.games`."""

    id: str
    name: str
    aliases: tuple[str, ...]
    decks: int
    odds: str
    odds_source: str
    odds_value: float | None
    play_minutes: int
    difficulty: str
    related: tuple[str, ...]
    summary: str
    section: str

    @classmethod
    def of(cls, spec: GameSpec) -> GameInfo:
        return cls(spec.id, spec.name, spec.aliases, spec.decks, spec.odds, spec.odds_source,
                   spec.odds_value, spec.play_minutes, spec.difficulty, spec.related,
                   spec.summary, spec.section)


def random_deal() -> int:
    """A fresh deal number for "new deal"."""
    return secrets.randbelow(1_000_000_000) + 1


class Game:
    """One deal of one game, being played.

    >>> g = Game("four-seasons", deal=1)
    >>> len(g.piles["stock"])
    46
    """

    def __init__(self, game: str | GameSpec, deal: int | None = None) -> None:
        self.spec = get_spec(game)
        self.rules = rules_for(self.spec)
        self.deal = random_deal() if deal is None else check_deal_number(deal)
        self.state: State = self.rules.initial_state(self.deal)
        self._past: list[tuple[Move, State]] = []
        self._future: list[Move] = []

    # --------------------------------------------------------------- reading
    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def piles(self) -> dict[str, list[str]]:
        """Pile id → card texts, bottom to top; every pile, empty ones too."""
        return {pid: [card_text(c) for c in pile]
                for pid, pile in zip(self.rules.ids, self.state.piles, strict=True)}

    @property
    def base_rank(self) -> int:
        """The deal's base rank (1 = Ace … 13 = King)."""
        return self.state.base

    @property
    def passes(self) -> int:
        """Passes through the stock made so far, counting the current one."""
        return self.state.passes

    @property
    def passes_left(self) -> int:
        """Redeals still allowed."""
        return self.spec.passes - self.state.passes

    @property
    def moves(self) -> list[str]:
        """The moves played so far, as texts."""
        return [str(m) for m, _ in self._past]

    def legal_moves(self) -> list[Move]:
        return self.rules.legal_moves(self.state)

    @property
    def is_won(self) -> bool:
        return self.rules.is_won(self.state)

    @property
    def is_lost(self) -> bool:
        """Not won and no legal move left."""
        return not self.is_won and not self.legal_moves()

    @property
    def can_undo(self) -> bool:
        return bool(self._past)

    @property
    def can_redo(self) -> bool:
        return bool(self._future)

    # --------------------------------------------------------------- playing
    def parse_move(self, move: str | Move) -> Move:
        """A move object from a text; IllegalMove when the text is malformed."""
        if isinstance(move, Move):
            return move
        if not isinstance(move, str):
            raise IllegalMove(repr(move), "a move is a text such as 't3>f1' or a Move")
        try:
            return Move.parse(move)
        except ValueError as e:
            raise IllegalMove(repr(move), str(e)) from None

    def play(self, move: str | Move) -> Move:
        """Play a move; raises :class:`IllegalMove` (and changes nothing) when it is not legal."""
        m = self.parse_move(move)
        why = self.rules.why_illegal(self.state, m)
        if why is not None:
            raise IllegalMove(str(m), why)
        self._push(m)
        self._future.clear()
        return m

    def _push(self, m: Move) -> None:
        self._past.append((m, self.state))
        self.state = self.rules.apply(self.state, m)

    def undo(self) -> Move:
        """Take back the last move (with the automatic moves it forced)."""
        if not self._past:
            raise IllegalMove("undo", "there is no move to undo")
        m, self.state = self._past.pop()
        self._future.append(m)
        return m

    def redo(self) -> Move:
        """Play again the last move taken back."""
        if not self._future:
            raise IllegalMove("redo", "there is no move to redo")
        m = self._future.pop()
        self._push(m)
        return m

    def restart(self) -> None:
        """Back to the deal's first position (undoable move by move no more)."""
        self.state = self.rules.initial_state(self.deal)
        self._past.clear()
        self._future.clear()

    def copy(self) -> Game:
        g = Game.__new__(Game)
        g.spec, g.rules, g.deal, g.state = self.spec, self.rules, self.deal, self.state
        g._past = list(self._past)
        g._future = list(self._future)
        return g

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        return {"game": self.spec.id, "deal": self.deal, "moves": self.moves}

    def to_json(self) -> str:
        """``{"game": …, "deal": …, "moves": [...]}``; :meth:`from_json` replays it."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        if not isinstance(data, dict) or not {"game", "deal", "moves"} <= data.keys():
            raise ValueError("a saved game needs 'game', 'deal' and 'moves'")
        if not isinstance(data["moves"], list):
            raise ValueError("'moves' must be a list of move texts")
        g = cls(data["game"], deal=data["deal"])
        for i, text in enumerate(data["moves"]):
            try:
                g.play(text)
            except IllegalMove as e:
                raise ValueError(f"saved move {i + 1} ({text}) does not replay: {e.why}") from None
        return g

    @classmethod
    def from_json(cls, text: str) -> Game:
        return cls.from_dict(json.loads(text))

    def __repr__(self) -> str:
        return f"<Game {self.spec.id} deal {self.deal}, {len(self._past)} moves>"


def new_game(game: str | GameSpec, deal: int | None = None) -> Game:
    """Start deal number ``deal`` (a random one when omitted) of ``game``."""
    return Game(game, deal=deal)


def games() -> list[GameInfo]:
    """The registered games with their metadata."""
    from patience.games import all_specs

    return [GameInfo.of(s) for s in all_specs()]
