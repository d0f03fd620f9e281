"""The dealing station (duplicate.station) against the virtual shoe on a real pty: boards in order, every
card in its record's pocket, a board inserted out of order refused, cards missing from the pack, the shoe
unplugged and restarted mid-board, a 1.1 shoe; nothing dealt lost and a board half dealt never whole."""

from __future__ import annotations

import pytest

from firmware_host.duplicate.station.dealing import DealingStation, StationError, StationState
from firmware_host.duplicate.station.station_log import fold_journal, report_csv, report_text
from firmware_host.records.journal import Journal
from firmware_host.shoe import messages as m
from firmware_host.shoe.simhw import PhysCard
from firmware_host.shoe.virtual import VirtualShoe
from tests.duplicate.stationkit import ALL, REJECT, Rig, boards, hold_at, in_pockets, pockets_follow


def _deal_one(rig: Rig, n: int) -> None:
    rig.pump(rig.state_is(StationState.INSERT))
    rig.say("")
    rig.pump(lambda: rig.station.log.board(n).done or rig.station.state in (
        StationState.INCOMPLETE, StationState.UNVERIFIED))


def test_boards_in_order_every_card_in_its_record_pocket_and_the_report(tmp_path) -> None:
    recs = boards(3)
    rig = Rig(tmp_path, recs).start()
    try:
        for b in recs:
            _deal_one(rig, b.number)
            assert rig.station.log.board(b.number).done
            pockets = rig.shoe.pockets
            assert pockets_follow(pockets, b) and in_pockets(pockets) == ALL and REJECT not in pockets
        assert rig.station.state is StationState.DONE
    finally:
        rig.close()
    with Journal.open_readonly(tmp_path / "station.sqlite3") as j:
        assert j.verify().ok
        log = fold_journal(j)
    assert [len(log.board(b.number).seen()) for b in recs] == [52, 52, 52]
    text = report_text(log)
    assert "3 of 3 boards dealt and verified card by card; 0 cards rejected" in text
    assert text.count("dealt, every card checked") == 3
    lines = report_csv(log).splitlines()
    assert lines[0] == "board,record,pack,started,seconds,attempts,rejected,verified,state,rejects"
    assert [ln.split(",")[7] for ln in lines[1:]] == ["yes"] * 3


def test_a_board_inserted_out_of_order_is_refused_and_journaled(tmp_path) -> None:
    recs = boards(3)
    rig = Rig(tmp_path, recs).start()
    try:
        rig.pump(rig.state_is(StationState.INSERT))
        assert rig.say("2") == ["board 2 is out of order: the next board is 1; put board 1 in"]
        assert rig.say("9") == ["board 9 is not in the hand records (boards 1-3); put board 1 in"]
        assert rig.station.state is StationState.INSERT and rig.station.tracker is None
        rig.say("1")
        rig.pump(lambda: rig.station.log.board(1).done)
        rig.pump(rig.state_is(StationState.INSERT))
        assert rig.say("1") == ["board 1 is dealt already (every card checked); put board 2 in"]
    finally:
        rig.close()
    log = rig.station.log
    assert log.board(2).refused_inserts == 1 and log.board(1).refused_inserts == 1
    assert not log.board(2).attempts


def test_cards_missing_from_the_pack_leave_the_board_not_whole_until_the_operator_finishes_it(tmp_path) -> None:
    recs = boards(2, seed=4)
    shoe = VirtualShoe("contract-bridge", 32, ["missing@20", "stray@31", "unreadable@40"], directory=str(tmp_path),
                       reload=False)
    shoe.open()
    rig = Rig(tmp_path, recs, shoe=shoe).start()
    try:
        _deal_one(rig, 1)
        st = rig.station
        assert st.state is StationState.INCOMPLETE and not st.log.board(1).done
        attempt = st.log.board(1).last
        assert attempt is not None and len(attempt.missing) == 2      # the missing one and the unreadable one
        assert "is NOT whole" in st.status() and "'finish'" in st.status()
        assert rig.say("") == [f"not now: {st.status()}"]             # nothing else goes in meanwhile
        pockets = rig.shoe.pockets
        assert pockets_follow(pockets, recs[0]) and len(in_pockets(pockets)) == 50
        shoe.put([PhysCard(c, attempt.pack) for c in attempt.missing])   # found, cleaned, in the well
        rig.pump(lambda: any(isinstance(e, m.PackLoaded) for e in rig.events[-3:]))
        assert rig.say("finish") == ["board 1: sent to the shoe (50 already in their pockets)"]
        rig.pump(lambda: st.log.board(1).done)
    finally:
        rig.close()
    pockets = rig.shoe.pockets
    assert pockets_follow(pockets, recs[0]) and in_pockets(pockets) == ALL
    b = rig.station.log.board(1)
    assert len(b.attempts) == 2 and b.rejected == 2 and len(b.seen()) == 52
    assert "1 other pack, 1 unreadable" in report_text(rig.station.log) or \
        "1 unreadable, 1 other pack" in report_text(rig.station.log)


def test_a_shoe_unplugged_mid_board_is_a_state_and_the_board_goes_on(tmp_path) -> None:
    recs = boards(1, seed=5)
    rig = Rig(tmp_path, recs, gap_ms=15).start()
    try:
        rig.pump(rig.state_is(StationState.INSERT))
        rig.say("")
        rig.shoe.unplug(when=lambda: len(rig.shoe.dealt) >= 10)      # mid-board, however late this thread runs
        rig.pump(lambda: not rig.link.online)
        assert rig.station.state is StationState.DEALING
        assert "the shoe is offline mid-board" in rig.station.status() and "nothing is lost" in rig.station.status()
        rig.shoe.replug()
        rig.pump(lambda: rig.station.log.board(1).done)
    finally:
        rig.close()
    assert rig.station.log.offline == 1 and len(rig.station.log.board(1).seen()) == 52
    assert pockets_follow(rig.shoe.pockets, recs[0])


def test_a_shoe_restarted_mid_board_leaves_it_not_whole_with_the_cards_seen(tmp_path) -> None:
    recs = boards(1, seed=6)
    rig = Rig(tmp_path, recs, gap_ms=15, reload=False).start()
    try:
        rig.pump(rig.state_is(StationState.INSERT))
        rig.say("")
        hold_at(rig.shoe, 12)                        # mid-board, however late this thread runs
        rig.pump(lambda: sum(isinstance(e, m.CardOut) for e in rig.events) >= 12)
        rig.shoe.reflash((1, 2))
        rig.pump(rig.state_is(StationState.INCOMPLETE))
        a = rig.station.log.board(1).last
        assert a is not None and a.why.startswith("the shoe restarted mid-board")
        placed = ALL - set(a.missing)
        assert placed == set(a.cards) and 12 <= len(placed) < 52
        assert not rig.station.log.board(1).done
    finally:
        rig.close()


def test_a_11_shoe_cannot_deal_boards(tmp_path) -> None:
    rig = Rig(tmp_path, boards(1), protocol=(1, 1)).start()
    try:
        rig.pump(rig.state_is(StationState.CANNOT))             # known from its HELLO
        assert rig.station.status() == ("[0/1 dealt] this shoe cannot deal boards: connect a shoe with "
                                        "pockets (protocol 1.2)")
        assert rig.say("") == [f"not now: {rig.station.status()}"]
    finally:
        rig.close()
    assert rig.shoe.firmware.unknown_commands == 0          # known from its HELLO: nothing was sent


def test_a_journal_of_other_hand_records_is_refused(tmp_path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as j:
        DealingStation(boards(2, seed=1), j, object(), lambda: 0.0)
    with Journal.open(tmp_path / "j.sqlite3") as j, pytest.raises(StationError, match="other hand records"):
        DealingStation(boards(2, seed=2), j, object(), lambda: 0.0)
