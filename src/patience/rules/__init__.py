"""The rules vocabulary (:mod:`.spec`), positions and moves (:mod:`.state`) and the engine."""

from patience.rules.engine import Rules
from patience.rules.spec import Build, GameSpec, Opening, Runs, Space, StockKind
from patience.rules.state import DEAL, Move, State

__all__ = ["DEAL", "Build", "GameSpec", "Move", "Opening", "Rules", "Runs", "Space", "State",
           "StockKind"]
