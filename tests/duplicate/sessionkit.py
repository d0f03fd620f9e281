"""Sessions for the tests: a setup from a movement and seeded deals (a test's deals, not a tournament's),
and the results simulated tables would confirm for every board, in round order."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from firmware_host.duplicate.handrecords.newdeals import new_boards
from firmware_host.duplicate.simplay import check_against_record, misboard, play_board
from laws.duplicate.deal import Deal
from laws.scoring import Method
from laws.session.duplicate.spec import SessionSetup, build_movement, default_tables


def make_setup(spec: Mapping[str, Any], *, seed: int = 1, method: Method = Method.MATCHPOINTS,
               names: bool = True) -> SessionSetup:
    movement = build_movement(spec)
    rng = random.Random(seed)
    boards = new_boards(len(movement.boards()), movement.boards()[0], shuffle=rng.shuffle)
    who = {str(p): (f"A{p}", f"B{p}") for p in movement.pairs()} if names else {}
    return SessionSetup("Test pairs", "2025-11-30", "Test club", dict(spec), movement.contestants, tuple(boards),
                        method, "A", default_tables(movement.tables), who, "test-secret")


def result(setup: SessionSetup, rnd: int, table: int, board: int, rng: random.Random, *,
           held: Deal | None = None, seq: int | None = None) -> dict[str, Any]:
    """The ``result`` record table ``table`` would confirm for ``board`` in round ``rnd``."""
    movement = build_movement(setup.movement)
    s = movement.at(rnd, table)
    assert s is not None and s.played
    record = next(b for b in setup.boards if b.number == board)
    pb = play_board(record, held or record.deal, rng)
    verified, foul = check_against_record(record, pb.play)
    tid = next(t for t, n in setup.tables.items() if n == table)
    return {"type": "result", "table": tid, "source": f"{tid}:{seq if seq is not None else rnd * 1000 + board}",
            "t": 1000.0 + rnd, "section": "A", "table_number": table, "round": rnd, "board": board,
            "ns": str(s.ns), "ew": str(s.ew), "contract": pb.contract.code if pb.contract else "Pass",
            "declarer": pb.declarer.value if pb.declarer else None, "tricks": pb.tricks,
            "lead": pb.lead.code if pb.lead else None, "record": record.fingerprint, "verified": verified,
            "foul": foul, "play": [c.code for _s, c in pb.play], "auction": list(pb.auction)}


def all_results(setup: SessionSetup, seed: int = 2, fouled: Mapping[int, int] | None = None) -> list[dict[str, Any]]:
    """Every result of the session in round order; ``fouled``: board -> the round from which its
    (one, travelling) copy is misboarded."""
    movement = build_movement(setup.movement)
    rng = random.Random(seed)
    copies = {}
    for board, _from in (fouled or {}).items():
        record = next(b for b in setup.boards if b.number == board)
        copies[board] = misboard(record.deal, rng)[0]
    out = []
    for s in sorted((s for s in movement.seatings if s.played), key=lambda s: (s.round, s.table)):
        for b in movement.boards_of(s.group):
            held = copies[b] if fouled and b in fouled and s.round >= fouled[b] else None
            out.append(result(setup, s.round, s.table, b, rng, held=held))
    return out


def rounds_called(setup: SessionSetup) -> list[dict[str, Any]]:
    movement = build_movement(setup.movement)
    return [{"type": "round", "round": r, "by": "test"} for r in range(2, movement.rounds + 1)]
