"""One module per game, its clauses registered in the order they are tried, and the helpers they share
(``base``). Adding a game means adding a module here and naming it in ``GAMES``. Pure: no I/O."""

from __future__ import annotations

import importlib

from laws.games.base import GameRules

# game name -> module defining ``RULES``
GAMES: dict[str, str] = {
    "contract-bridge": "laws.games.contract_bridge",
    "euchre": "laws.games.euchre",
    "duplicate-bridge": "laws.games.duplicate_bridge",
}


def get_game(name: str) -> GameRules:
    """The rules of the named game.

    Raises:
        ValueError: for a game we do not know, naming the ones we do.
    """
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    rules: GameRules = importlib.import_module(GAMES[name]).RULES
    return rules
