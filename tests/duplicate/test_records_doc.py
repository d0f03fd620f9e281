"""docs/mqtt.md's worked example of the hand records sent to a table, recomputed from the deals it
prints (its commitment, every index entry, and the check it describes), so the page cannot drift."""

from __future__ import annotations

import re
from pathlib import Path

from firmware_host.table.session_records import check_records
from firmware_host.wire.duplicate import hand_records_part, next_part
from laws.duplicate.deal import Board, Deal, board_index, commitment
from laws.duplicate.movement import mitchell, next_moves

DOC = (Path(__file__).resolve().parents[2] / "docs" / "mqtt.md").read_text(encoding="utf-8")
BIG_DEAL = {3: "N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84",
            4: "N:AKQ984.KQT7..Q83 7.J63.AJT82.A754 532.854.Q43.KT62 JT6.A92.K9765.J9"}


def test_the_worked_example_recomputes() -> None:
    part = DOC[DOC.index("### Hand records sent to the tables"):DOC.index("### Players")]
    deals = dict(re.findall(r"^([1256]) (N:\S+ \S+ \S+ \S+)$", part, re.M))
    boards = [Board.numbered(int(n), Deal.from_pbn(d)) for n, d in {**deals, **{str(k): v for k, v in BIG_DEAL.items()}}.items()]
    root = commitment(boards)
    assert f'"commitment":"{root}"' in part
    for n, h in board_index(boards):
        assert f'[{n},"{h}"]' in part
    sent = hand_records_part([b for b in boards if b.number in (3, 4)], board_index(boards), root)
    assert sorted(check_records(sent, root).taken) == [3, 4]
    sent["deals"][1]["deal"] = BIG_DEAL[3]                            # the same deal sent as board 4
    assert [b for b, _ in check_records(sent, root).refused] == [4]
    said = next_part(next_moves(mitchell(3, 2), 1, 2))["said"]
    assert all(f'"{line}"' in part for line in said)
