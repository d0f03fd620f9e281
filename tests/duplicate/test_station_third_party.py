"""The dealing station against what a third-party shoe does (issue 30 section 4): the recovery DEAL_BOARD
names the pockets' pack, so a card of another pack put back is refused, and a board whose pockets hold
cards of two packs is never "every card checked"; a BOARD_FINISHED that is not whole but names nothing
missing (or names other cards than the station saw) leaves the board to be dealt again, never a crash;
the shoe restarting on a port that stays open asks finish/again at once."""

from __future__ import annotations

import time
from dataclasses import replace

from firmware_host.duplicate.station.dealing import DealingStation, StationState
from firmware_host.duplicate.station.station_log import fold, fold_journal, report_text
from firmware_host.records.journal import Journal
from firmware_host.shoe import messages as m
from firmware_host.shoe.codec import PACK
from firmware_host.shoe.simhw import PhysCard
from firmware_host.shoe.virtual import VirtualShoe
from tests.duplicate.stationkit import REJECT, Rig, boards, hold_at, in_pockets


class _Link:
    """A link that takes commands and acknowledgements; the test plays the third-party shoe."""

    online = True
    caught_up = True
    can_deal_boards = True
    boot_id = 7

    def __init__(self) -> None:
        self.sent: list[m.DealBoard] = []

    def send(self, cmd: m.DealBoard) -> m.DealBoard:
        cmd = replace(cmd, cmd=len(self.sent) + 1)
        self.sent.append(cmd)
        return cmd

    def acknowledge(self, seq: int, boot: int | None = None) -> None:
        pass

    def resume(self, boot: int, seq: int) -> None:
        pass


def test_finish_names_the_pack_and_a_card_of_another_pack_put_back_is_refused(tmp_path) -> None:
    recs = boards(1, seed=21)
    shoe = VirtualShoe("contract-bridge", 33, ["missing@20"], directory=str(tmp_path), reload=False)
    shoe.open()
    rig = Rig(tmp_path, recs, shoe=shoe).start()
    try:
        rig.pump(rig.state_is(StationState.INSERT))
        rig.say("")
        rig.pump(rig.state_is(StationState.INCOMPLETE))
        first = rig.station.log.board(1).last
        assert first is not None and len(first.missing) == 1 and len(first.pack) == 2
        other = "Z9" if first.pack != "Z9" else "Y8"
        shoe.put([PhysCard(first.missing[0], other)])            # the right card, of another pack
        rig.pump(lambda: any(isinstance(e, m.PackLoaded) for e in rig.events[-3:]))
        rig.say("finish")
        rig.pump(lambda: len(rig.station.log.board(1).attempts) == 2 and bool(rig.station.log.board(1).last.end))  # type: ignore[union-attr]
    finally:
        rig.close()
    b = rig.station.log.board(1)
    assert "every card checked" not in report_text(rig.station.log)
    assert not b.done and b.attempts[1].end == "incomplete"
    assert any(f"of pack {other}, not of the board's pack {first.pack}" in s for s in rig.said)
    assert first.missing[0] not in in_pockets(rig.shoe.pockets) and len(rig.shoe.pockets[REJECT]) == 1
    assert b.attempts[1].named == first.pack                   # the recovery DEAL_BOARD named the pockets' pack


def _third_party(tmp_path, rec, cards: list[tuple[int, str]], finish: m.BoardFinished | None = None):  # type: ignore[no-untyped-def]
    """A station whose shoe begins board 1 and places ``cards`` (index into PACK, pack id)."""
    link = _Link()
    j = Journal.open(tmp_path / "s.sqlite3")
    st = DealingStation([rec], j, link, time.time)
    st.command("")
    cmd = link.sent[-1]
    seq = iter(range(1, 200))
    st.feed(m.BoardBegan(next(seq), 1, cmd.board_id, cmd.seats, cmd.placed, cmd.pack, answers=cmd.cmd))
    for i, (k, pack) in enumerate(cards):
        card = PACK[k]
        st.feed(m.CardOut(next(seq), len(cmd.placed) + i + 1, rec.deal.holder(card), False, card,
                          m.Orientation.DOWN, 100, pack, board=1))
    return st, link, j, seq, cmd


def test_a_shoe_that_places_a_card_of_another_pack_anyway_leaves_the_board_not_verified(tmp_path) -> None:
    rec = boards(1, seed=22)[0]
    st, link, j, seq, cmd = _third_party(tmp_path, rec, [(k, "A1") for k in range(51)] + [(51, "B2")])
    try:
        lines = st.feed(m.BoardFinished(next(seq), 1, cmd.board_id, m.FinishReason.COMPLETE, 0, False, frozenset(),
                                        "A1", answers=cmd.cmd))
        assert st.state is StationState.UNVERIFIED and not st.log.board(1).done
        assert any("NOT verified card by card" in x for x in lines)
        assert "every card checked" not in report_text(st.log)
    finally:
        j.close()


def test_a_journal_with_cards_of_two_packs_in_the_pockets_is_not_every_card_checked() -> None:
    """The report reads the journal alone: cards of two packs over the attempts of one filling (as a
    station before this check wrote them) are never a board dealt and verified."""
    rows = [{"station": "open", "file": "x.pbn", "commitment": "c" * 64, "boards": [1], "records": [[1, "f" * 64]]},
            {"station": "insert", "board": 1},
            {"station": "send", "board": 1, "record": "f" * 64, "placed": [], "fresh": True},
            {"station": "started", "board": 1, "pack": ""}]
    rows += [{"station": "card", "board": 1, "card": c.code, "seat": "N", "index": i + 1, "pack": "A1"}
             for i, c in enumerate(PACK[:51])]
    rows += [{"station": "incomplete", "board": 1, "missing": [PACK[51].code], "reason": 2, "why": "ran out"},
             {"station": "send", "board": 1, "record": "f" * 64, "placed": [c.code for c in PACK[:51]], "fresh": False},
             {"station": "started", "board": 1, "pack": ""},
             {"station": "card", "board": 1, "card": PACK[51].code, "seat": "N", "index": 52, "pack": "B2"},
             {"station": "dealt", "board": 1, "verified": True, "rejected": 0, "pack": "B2"}]
    log = fold((i, 1.0, r) for i, r in enumerate(rows))
    assert not log.board(1).done and log.next_board() == 1
    assert "dealt but NOT verified: cards of 2 packs (A1, B2)" in report_text(log)


def test_a_board_not_whole_that_names_nothing_missing_is_dealt_again_never_a_crash(tmp_path) -> None:
    rec = boards(1, seed=23)[0]
    st, link, j, seq, cmd = _third_party(tmp_path, rec, [(k, "A1") for k in range(30)])
    try:
        lines = st.feed(m.BoardFinished(next(seq), 1, cmd.board_id, 9, 0, False, frozenset(), "A1",
                                        answers=cmd.cmd))           # a reason of its own, nothing missing
        assert st.state is StationState.UNVERIFIED and not st.log.board(1).done
        assert any("which cards are in the pockets is not known" in x for x in lines)
        assert "type 'again'" in st.status() and "'finish'" not in st.status()
        assert st.command("finish") == [f"not now: {st.status()}"]
        assert "not whole, its pockets unknown: deal it again" in report_text(st.log)
        assert st.command("again") == ["board 1: sent to the shoe"]
        assert link.sent[-1].placed == frozenset() and link.sent[-1].pack == ""
    finally:
        j.close()


def test_a_board_whose_missing_cards_disagree_with_the_cards_seen_is_dealt_again(tmp_path) -> None:
    rec = boards(1, seed=24)[0]
    st, link, j, seq, cmd = _third_party(tmp_path, rec, [(k, "A1") for k in range(50)])
    try:
        st.feed(m.BoardFinished(next(seq), 1, cmd.board_id, m.FinishReason.EMPTY, 0, False,
                                frozenset(PACK[49:]), "A1", answers=cmd.cmd))     # names a card it placed
        assert st.state is StationState.UNVERIFIED
        assert st.command("finish")[0].startswith("not now")
        with Journal.open_readonly(tmp_path / "s.sqlite3") as r:
            assert fold_journal(r).board(1).last.pockets_known is False    # type: ignore[union-attr]
    finally:
        j.close()


def test_messages_lost_on_the_link_mid_board_leave_it_to_be_dealt_again(tmp_path) -> None:
    """The shoe's ring overwrote messages 32-41 (ERROR 4) before the station got them: the station
    journaled nothing of it and blamed the shoe for the next card's index, and had the BOARD_FINISHED
    been among them it waited on a board the shoe had ended. The lost numbers are journaled (with the
    last one's mark, so a restart resumes after them) and the board ends at once not whole, its pockets
    unknown: never dealt and checked, dealt again from empty pockets."""
    rec = boards(1, seed=26)[0]
    st, link, j, seq, cmd = _third_party(tmp_path, rec, [(k, "A1") for k in range(30)])
    try:
        lines = st.feed(m.MessagesLost(7, 32, 41))
        assert lines[0] == ("board 1 is not whole: messages 32-41 from the shoe were lost on the link after 30 "
                            "cards were seen placed")
        assert st.state is StationState.UNVERIFIED and lines[-1] == st.status()
        assert "which cards are in its pockets is not known" in st.status() and "type 'again'" in st.status()
        for k in range(40, 52):                       # the shoe went on: the rest of the board, then its end
            st.feed(m.CardOut(k + 10, k + 1, rec.deal.holder(PACK[k]), False, PACK[k], m.Orientation.DOWN, 100,
                              "A1", board=1))
        st.feed(m.BoardFinished(62, 1, cmd.board_id, m.FinishReason.COMPLETE, 0, False, frozenset(), "A1",
                                answers=cmd.cmd))
        assert st.state is StationState.UNVERIFIED and not st.log.board(1).done
        assert st.command("finish") == [f"not now: {st.status()}"]
        assert "not whole, its pockets unknown: deal it again" in report_text(st.log)
        with Journal.open_readonly(tmp_path / "s.sqlite3") as r:
            bodies = [row.body for row in r.rows() if row.kind == "note"]
            assert fold_journal(r).mark == (7, 62)
        at = bodies.index({"station": "lost", "first": 32, "last": 41, "shoe": [7, 41]})
        assert bodies[at + 1]["station"] == "incomplete" and bodies[at + 1]["known"] is False
        assert fold((i, 0.0, b) for i, b in enumerate(bodies[:at + 1])).mark == (7, 41)
        assert st.command("again") == ["board 1: sent to the shoe"]
        assert link.sent[-1].placed == frozenset() and link.sent[-1].pack == ""
    finally:
        j.close()


def test_the_shoe_restarting_on_an_open_port_asks_finish_or_again_at_once(tmp_path) -> None:
    recs = boards(1, seed=25)
    rig = Rig(tmp_path, recs, gap_ms=15, reload=False).start()
    try:
        rig.pump(rig.state_is(StationState.INSERT))
        rig.say("")
        hold_at(rig.shoe, 8)                        # mid-board, however late this thread runs
        rig.pump(lambda: sum(isinstance(e, m.CardOut) for e in rig.events) >= 8)
        rig.shoe.reflash((1, 2))
        rig.pump(rig.state_is(StationState.INCOMPLETE))
        said = list(rig.said)                         # nothing typed since the board was put in
    finally:
        rig.close()
    at = next(i for i, s in enumerate(said) if s.startswith("board 1 is not whole: the shoe restarted mid-board"))
    assert any("type 'finish'" in s and "'again'" in s for s in said[at + 1:at + 3]), said[at:]
