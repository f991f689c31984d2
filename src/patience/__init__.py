"""patience: play, solve and study the Four Seasons, Quadrennial and Fours Up families.

>>> import patience
>>> g = patience.new_game("four-seasons", deal=1)
>>> sorted(g.piles)[:3]
['f1', 'f2', 'f3']
"""

from patience.game import Game, GameInfo, IllegalMove, games, new_game
from patience.games import UnknownGame, get_spec
from patience.rules import DEAL, GameSpec, Move, State
from patience.solver import Hint, SolveResult, hint, solve, winnable_deal

__version__ = "0.1.0"

__all__ = ["DEAL", "Game", "GameInfo", "GameSpec", "Hint", "IllegalMove", "Move", "SolveResult",
           "State", "UnknownGame", "games", "get_spec", "hint", "new_game", "solve",
           "winnable_deal"]
