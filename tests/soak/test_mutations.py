"""The soak's checker can fail: a recorded evening (a real ``cardtable run`` under every fault kind, both
games: ``tests/data/soak-evening.json.gz``, written by ``python -m tests.data.make_soak_evening``) passes
as recorded, and every deliberate breakage of it (``tests/soak/mutators.py``) fails, caught by the
finding meant for it. Issue 20's eighteen breakages are among them; the old checker caught six."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from firmware_host.soak.checker import check
from firmware_host.soak.record import Record
from firmware_host.soak.report import table
from tests.soak.mutators import MUTATORS, Mutation, NotHere

DATA = Path(__file__).resolve().parents[1] / "data" / "soak-evening.json.gz"


def _evening() -> list[Record]:
    with gzip.open(DATA, "rt", encoding="utf-8") as f:
        return [Record.from_json(g) for g in json.load(f)["games"]]


EVENING = _evening()


def test_the_recorded_evening_passes_as_recorded() -> None:
    for record in EVENING:
        f = check(record, record.rows)
        assert f.ok, table([f])
        assert f.deals >= 10 and f.rulings_expected > 5 and f.results > 3 and f.commands_sent and f.bad_lines_sent


def test_a_record_round_trips_through_json() -> None:
    for record in EVENING:
        again = Record.from_json(json.loads(json.dumps(record.to_json())))
        assert again == record


@pytest.mark.parametrize("mutation", MUTATORS, ids=[m.name for m in MUTATORS])
def test_every_breakage_fails_the_checker(mutation: Mutation) -> None:
    broken = 0
    for record in EVENING:
        try:
            bad = mutation.fn(record)
        except NotHere:
            continue
        f = check(bad, bad.rows)
        assert not f.ok, f"{mutation.name} passed:\n{table([f])}"
        assert mutation.caught_by(f), f"{mutation.name} failed, but not by its finding:\n{table([f])}"
        broken += 1
    assert broken, f"the recorded evening has nothing to break as {mutation.name!r}"


SWAP = {"N": "S", "S": "N", "E": "W", "W": "E", "NS": "EW", "EW": "NS"}
NAMES = ("seat", "side", "offender", "dealer", "declarer", "scored_by")


def test_every_seat_or_side_a_ruling_names_changed_fails_the_checker() -> None:
    """Issue 28 item 11: not one sampled ruling but every one, each field that names a seat or a side
    changed in turn (the close of an auction's seat and side, an irregularity's offender, a euchre
    imperfect pack's seat were passed)."""
    import copy
    import dataclasses

    passed = []
    tried = 0
    for record in EVENING:
        as_recorded = copy.deepcopy(record)
        for i, (seq, kind, body) in enumerate(record.rows):
            if kind != "ruling":
                continue
            for name in NAMES:
                if body.get(name) not in SWAP:
                    continue
                # a fresh list of rows, the one row changed (the checker changes nothing: checked below)
                bad = dataclasses.replace(record, rows=list(record.rows))
                bad.rows[i] = (seq, kind, {**body, name: SWAP[body[name]]})
                tried += 1
                if check(bad, bad.rows).ok:
                    passed.append(f"{record.game} row {seq} {body.get('clause')}/{body.get('remedy')} {name}")
        assert record == as_recorded
    assert tried > 100 and not passed, passed
