"""``cardtable boards deal`` and ``boards report`` as an operator runs them: a real process against the
virtual shoe on a pty; killed with SIGKILL mid-board and started again, it finishes the board with no
card lost or counted twice. Also the station sans-I/O: a board the shoe never started after a restart,
a board the shoe reported wrongly (never whole, dealt again), and the CLI's refusals (exit 2)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from firmware_host.cli import main
from firmware_host.duplicate.handrecords.handfiles import write_hand_records
from firmware_host.duplicate.station.dealing import DealingStation, StationState
from firmware_host.duplicate.station.station_log import fold_journal
from firmware_host.records.journal import Journal
from firmware_host.shoe import messages as m
from firmware_host.shoe.codec import PACK
from firmware_host.shoe.virtual import VirtualShoe
from laws.cards import SEATS
from tests.duplicate.stationkit import ALL, Rig, boards, in_pockets, pockets_follow

ROOT = Path(__file__).resolve().parents[2]


def _cli(*argv: str, stdin: int | None = subprocess.PIPE) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "boards", "deal", *argv], cwd=ROOT,
                            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _card_rows(journal: Path) -> list[tuple[int, str]]:
    with Journal.open_readonly(journal) as j:
        return [(r.body["board"], r.body["card"]) for r in j.rows() if r.body.get("station") == "card"]


def test_a_station_killed_mid_board_and_started_again_finishes_it_with_nothing_lost(tmp_path) -> None:
    recs = boards(2, seed=11)
    pbn = tmp_path / "monday.pbn"
    write_hand_records(pbn, recs)
    journal = tmp_path / "monday.pbn.dealing.sqlite3"
    shoe = VirtualShoe("contract-bridge", 41, directory=str(tmp_path), gap_ms=25)
    path = shoe.open()
    try:
        first = _cli("--records", str(pbn), "--shoe", path)
        assert first.stdin is not None and first.stdout is not None
        while "put board 1 in the station" not in first.stdout.readline():    # asked once the shoe is there
            assert first.poll() is None
        first.stdin.write("\n")
        first.stdin.flush()
        deadline = time.monotonic() + 30
        while not journal.exists() or len(_card_rows(journal)) < 12:     # the journal says how far it is
            assert time.monotonic() < deadline and first.poll() is None
            time.sleep(0.05)
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        before = len(_card_rows(journal))
        assert 12 <= before < 52
        again = _cli("--records", str(pbn), "--shoe", path, "--auto", "--report", str(tmp_path / "r.csv"),
                     stdin=subprocess.DEVNULL)
        out, err = again.communicate(timeout=60)
        assert again.returncode == 0, err
    finally:
        shoe.close()
    rows = _card_rows(journal)
    for b in recs:
        cards = [c for n, c in rows if n == b.number]
        assert len(cards) == 52 and {c for c in cards} == {c.code for c in PACK}    # once each, none lost
    assert "every board is dealt and verified card by card" in out
    # started again, it waited for the shoe, which was never unplugged: nobody is told to plug it back in
    assert "board 1: waiting for the shoe to go on with it (" in out and "offline mid-board" not in out, out
    # --auto puts each board in itself: nobody is asked to press Enter (it said so at every board)
    assert "press Enter" not in out and "board 2 goes in the station next (--auto)" in out, out
    report = (tmp_path / "r.csv").read_text().splitlines()
    assert [ln.split(",")[7] for ln in report[1:]] == ["yes", "yes"]
    with Journal.open_readonly(journal) as j:
        assert j.verify().ok


def test_boards_report_and_the_refusals(tmp_path, capsys) -> None:
    recs = boards(1, seed=12)
    pbn = tmp_path / "a.pbn"
    write_hand_records(pbn, recs)
    with Journal.open(tmp_path / "j.sqlite3") as j:
        DealingStation(recs, j, object(), lambda: 1_000_000.0, file="a.pbn")
    assert main(["boards", "report", "--journal", str(tmp_path / "j.sqlite3")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Duplication report: a.pbn, commitment ") and "not dealt" in out
    assert main(["boards", "report", "--journal", str(tmp_path / "none.sqlite3")]) == 2
    assert capsys.readouterr().err.startswith("cardtable boards: ")
    other = tmp_path / "b.pbn"
    write_hand_records(other, boards(1, seed=13))
    code = main(["boards", "deal", "--records", str(other), "--journal", str(tmp_path / "j.sqlite3"),
                 "--shoe", str(tmp_path / "no-shoe")])
    err = capsys.readouterr().err
    assert code == 2 and "this journal is for other hand records (a.pbn" in err and "Traceback" not in err
    bad = tmp_path / "bad.pbn"
    bad.write_text('[Board "1"]\n[Deal "N:AKQ.2.3.4 - - -"]\n', encoding="utf-8")
    assert main(["boards", "deal", "--records", str(bad)]) == 2
    assert capsys.readouterr().err.startswith(f"cardtable boards: {bad}: board 1 [Deal]")
    folder = tmp_path / "station"      # a folder is not the journal's file (it was taken as FOLDER/journal.sqlite3)
    folder.mkdir()
    for verb in (["deal", "--records", str(pbn)], ["report"]):
        assert main(["boards", *verb, "--journal", str(folder)]) == 2
        assert "is a folder; give the station journal's file" in capsys.readouterr().err
    assert not list(folder.iterdir())


class _Link:
    """A link that takes commands and acknowledgements and delivers nothing by itself."""

    online = True
    caught_up = True
    can_deal_boards = True
    boot_id = 7

    def __init__(self) -> None:
        self.sent: list[m.Command] = []
        self.acked: list[int] = []
        self.resumed: tuple[int, int] | None = None

    def send(self, cmd: m.Command) -> m.Command:
        cmd = replace(cmd, cmd=len(self.sent) + 1)
        self.sent.append(cmd)
        return cmd

    def acknowledge(self, seq: int, boot: int | None = None) -> None:
        self.acked.append(seq)

    def resume(self, boot: int, seq: int) -> None:
        self.resumed = (boot, seq)


def test_a_board_sent_but_never_started_before_a_restart_is_sent_again(tmp_path) -> None:
    recs = boards(1, seed=14)
    with Journal.open(tmp_path / "station.sqlite3") as j:
        st = DealingStation(recs, j, _Link(), time.time)
        st.command("")                              # journaled as sent; the process dies before the shoe has it
        assert st.state is StationState.DEALING
    rig = Rig(tmp_path, recs).start()
    try:
        rig.pump(lambda: rig.station.log.board(1).done)
    finally:
        rig.close()
    assert any("the shoe never started it; sending it again" in s for s in rig.said)
    assert len(rig.station.log.board(1).attempts) == 2
    assert pockets_follow(rig.shoe.pockets, recs[0]) and in_pockets(rig.shoe.pockets) == ALL


def test_a_board_the_shoe_reported_wrongly_is_never_whole_and_is_dealt_again(tmp_path) -> None:
    rec = boards(1, seed=15)[0]
    link = _Link()
    with Journal.open(tmp_path / "s.sqlite3") as j:
        st = DealingStation([rec], j, link, time.time)
        st.command("")
        cmd = link.sent[-1]
        seq = iter(range(1, 100))
        st.feed(m.BoardBegan(next(seq), 1, cmd.board_id, cmd.seats, frozenset(), cmd.pack, answers=cmd.cmd))
        for i, card in enumerate(PACK):
            seat = rec.deal.holder(card)
            if i == 5:
                seat = SEATS[(SEATS.index(seat) + 1) % 4]          # the shoe says it went elsewhere
            st.feed(m.CardOut(next(seq), i + 1, seat, False, card, m.Orientation.DOWN, 100, "A1", board=1))
        lines = st.feed(m.BoardFinished(next(seq), 1, cmd.board_id, m.FinishReason.COMPLETE, 0, False,
                                        frozenset(), "A1", answers=cmd.cmd))
        assert st.state is StationState.UNVERIFIED and not st.log.board(1).done
        assert any("NOT verified card by card" in x for x in lines)
        assert link.acked == list(range(1, 55))                   # each message once its rows were committed
        assert st.command("finish")[0].startswith("not now")
        assert st.command("again") == ["board 1: sent to the shoe"]
        assert link.sent[-1].placed == frozenset()
        log = fold_journal(j)
    assert log.board(1).last is not None and log.board(1).last.fresh
    assert [a.end for a in log.board(1).attempts] == ["dealt", ""]
    assert len(log.board(1).attempts[0].mismatches) == 1


def test_a_burst_of_shoe_messages_is_one_commit_and_acknowledged_after_it(tmp_path) -> None:
    rec = boards(1, seed=16)[0]
    link = _Link()
    with Journal.open(tmp_path / "s.sqlite3") as j:
        st = DealingStation([rec], j, link, time.time)
        st.command("")
        cmd = link.sent[-1]
        commits: list[int] = []
        real = j.append_many

        def counting(rows):  # type: ignore[no-untyped-def]
            commits.append(len(link.acked))                  # how many acknowledged when it commits
            return real(rows)

        j.append_many = counting                             # type: ignore[method-assign]
        burst = [m.BoardBegan(1, 1, cmd.board_id, cmd.seats, frozenset(), cmd.pack, answers=cmd.cmd)]
        burst += [m.CardOut(2 + i, i + 1, rec.deal.holder(c), False, c, m.Orientation.DOWN, 100, "A1", board=1)
                  for i, c in enumerate(PACK[:20])]
        st.feed_many(burst)
        assert commits == [0] and link.acked == list(range(1, 22))
        assert len(fold_journal(j).board(1).last.cards) == 20          # type: ignore[union-attr]
