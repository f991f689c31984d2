"""The registry: one place that maps game ids and aliases to declarations."""

from __future__ import annotations

import re

from patience.games import acquaintance, busy_aces, four_seasons
from patience.rules.spec import GameSpec

REGISTRY: dict[str, GameSpec] = {
    spec.id: spec for spec in (*four_seasons.GAMES, *acquaintance.GAMES, *busy_aces.GAMES)
}


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("'", "")).strip("-")


_LOOKUP: dict[str, str] = {}
for _spec in REGISTRY.values():
    for _name in (_spec.id, _spec.name, *_spec.aliases):
        _LOOKUP.setdefault(_norm(_name), _spec.id)


class UnknownGame(KeyError, ValueError):
    """No game of that name or alias."""

    def __str__(self) -> str:
        return str(self.args[0])


def get_spec(name: str | GameSpec) -> GameSpec:
    """The declaration of a game, by id, name or alias ("Vanishing Cross")."""
    if isinstance(name, GameSpec):
        return name
    key = _LOOKUP.get(_norm(name))
    if key is None:
        raise UnknownGame(f"no game {name!r}; the games are: {', '.join(REGISTRY)}")
    return REGISTRY[key]


def all_specs() -> list[GameSpec]:
    return list(REGISTRY.values())
