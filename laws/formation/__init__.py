"""Forming the table: the draw for partners (bridge, euchre laws 8-14) and euchre's roster of who
plays, cuts out and enters (laws 15-21)."""

from laws.formation.draw import (
    BRIDGE,
    EUCHRE,
    EuchreDraw,
    bridge_draw,
    cut_rank,
    formation_ruling,
    seating,
)
from laws.formation.roster import Candidate, EuchreRoster

__all__ = [
    "BRIDGE", "EUCHRE", "Candidate", "EuchreDraw", "EuchreRoster", "bridge_draw", "cut_rank",
    "formation_ruling", "seating",
]
