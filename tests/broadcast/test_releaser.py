"""The live broadcast's core, sans-I/O: messages in, publications out, on a clock the test moves."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from firmware_host.broadcast.live import Releaser
from laws.broadcast.feed import TableFeed
from laws.broadcast.release import Release, Rule

DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


def _msg(tid: str, seq: int, t: float, row: str, body: dict[str, object]) -> bytes:
    return json.dumps({"table": tid, "kind": "play", "seq": seq, "deal": 1, "t": t,
                       "body": {"row": row, "body": body}}).encode()


def _board(table: int, board: int = 1) -> dict[str, object]:
    return {"type": "board", "board": board, "deal": DEAL, "table": table, "ns": f"{table} NS", "ew": f"{table} EW"}


def _result(board: int = 1) -> dict[str, object]:
    return {"clause": "DB-77", "remedy": "score", "contract": "3NT", "declarer": "S", "tricks": 9, "score": 400}


def _releaser(rule: Release, tmp: Path | None = None) -> Releaser:
    return Releaser(rule, {"table-01": 1, "table-02": 2}, {1: frozenset({1, 2})}, lin_dir=tmp,
                    names={"1 NS": ("Ann", "Bob")})


def test_after_field_holds_a_board_until_the_last_table_finished_it(tmp_path: Path) -> None:
    r = _releaser(Release(Rule.AFTER_FIELD), tmp_path)
    out = r.offer("cardtable/table-01/play", _msg("table-01", 1, 10.0, "event", _board(1)), 11.0)
    out += r.offer("cardtable/table-01/play", _msg("table-01", 2, 12.0, "event",
                                                  {"type": "call", "seat": "N", "call": "1C"}), 13.0)
    out += r.offer("cardtable/table-01/play", _msg("table-01", 3, 14.0, "ruling", _result()), 15.0)
    assert out == [] and not list(tmp_path.iterdir())
    out = r.offer("cardtable/table-02/play", _msg("table-02", 1, 16.0, "event", _board(2)), 17.0)
    out += r.offer("cardtable/table-02/play", _msg("table-02", 2, 18.0, "ruling", _result()), 19.0)
    topics = [t for t, _p in out]
    assert "cardtable/spectate/table/1/board/1" in topics and "cardtable/spectate/table/2/board/1" in topics
    body = json.loads(dict(out)["cardtable/spectate/table/1/board/1"])
    assert [i["kind"] for i in body["items"]] == ["board", "call", "result"]
    assert body["items"][0]["names"] == {"N": "Ann", "S": "Bob"} and body["finished"]
    assert (tmp_path / "board-01-table-01.lin").read_text().startswith("pn|Bob,1 EW,Ann,1 EW|qx|o1|")


def test_a_release_time_still_ahead_of_our_clock_is_released_by_a_later_tick() -> None:
    # the table's clock runs ahead: the fact that releases the board arrives "before" its own time
    r = _releaser(Release(Rule.AFTER_FIELD))
    r.offer("cardtable/table-01/play", _msg("table-01", 1, 10.0, "event", _board(1)), 5.0)
    r.offer("cardtable/table-01/play", _msg("table-01", 2, 11.0, "ruling", _result()), 5.0)
    r.offer("cardtable/table-02/play", _msg("table-02", 1, 12.0, "event", _board(2)), 5.0)
    assert r.offer("cardtable/table-02/play", _msg("table-02", 2, 13.0, "ruling", _result()), 5.0) == []
    assert r.tick(12.9) == []
    assert len(r.tick(13.0)) == 2


def test_delay_releases_in_order_as_time_passes() -> None:
    r = _releaser(Release(Rule.DELAY, 5))
    r.offer("cardtable/table-01/play", _msg("table-01", 1, 10.0, "event", _board(1)), 10.0)
    r.offer("cardtable/table-01/play", _msg("table-01", 2, 11.0, "event", {"type": "call", "seat": "N", "call": "1C"}),
            11.0)
    assert r.tick(14.9) == [] and r.next_due() == 15.0
    out = r.tick(15.0)
    assert [i["kind"] for i in json.loads(out[0][1])["items"]] == ["board"]
    assert [i["kind"] for i in json.loads(r.tick(16.0)[0][1])["items"]] == ["board", "call"]


def test_what_is_not_a_known_tables_play_is_refused_and_repeats_dropped() -> None:
    r = _releaser(Release(Rule.DELAY, 0))
    good = _msg("table-01", 1, 10.0, "event", _board(1))
    assert r.offer("cardtable/table-09/play", _msg("table-09", 1, 10.0, "event", _board(9)), 20.0) == []
    assert r.offer("cardtable/spectator/play", _msg("spectator", 1, 10.0, "event", _board(1)), 20.0) == []
    assert r.offer("cardtable/table-01/play", _msg("table-02", 1, 10.0, "event", _board(1)), 20.0) == []
    assert r.offer("cardtable/table-01/play", b"[" * 5000, 20.0) == []
    assert r.offer("cardtable/table-01/play", _msg("table-01", 1, 10.0, "event", {"type": "board"}), 20.0) == []
    assert r.refused == 5
    r2 = _releaser(Release(Rule.DELAY, 0))
    assert r2.offer("cardtable/table-01/play", good, 20.0)
    assert r2.offer("cardtable/table-01/play", good, 20.0) == [] and r2.taken == 1
    # a table cannot send another table's board
    assert r2.offer("cardtable/table-01/play", _msg("table-01", 2, 10.0, "event", _board(2)), 20.0) == []
    assert r2.refused == 1


def test_two_sections_alike_labels_are_named_each_from_its_own_section() -> None:
    """An event of two sections: both have a ``1 NS``; each board's names come from its own section's
    pair (``side_names`` keys them ``A 1 NS`` and ``B 1 NS``)."""
    r = Releaser(Release(Rule.DELAY, 0), {"table-01": 1, "table-02": 2}, {1: frozenset({1, 2})},
                 names={"A 1 NS": ("Ann", "Bob"), "B 1 NS": ("Cy", "Di")})
    shown = {}
    for tid, table, section in (("table-01", 1, "A"), ("table-02", 2, "B")):
        board = {**_board(table), "section": section, "ns": "1 NS", "ew": "1 EW"}
        out = r.offer(f"cardtable/{tid}/play", _msg(tid, 1, 10.0, "event", board), 11.0)
        shown[section] = json.loads(out[0][1])["items"][0]["names"]
    assert shown == {"A": {"N": "Ann", "S": "Bob"}, "B": {"N": "Cy", "S": "Di"}}


def test_what_an_earlier_run_left_is_stale_unless_this_session_released_it_by_this_rule() -> None:
    """A run under delay 2 released board 1; restarted under after-field (or next week's session) the
    retained board stayed on every spectator's page, hands and all. A board message now says under what it
    was released (``release``), and a run keeps only its own session's boards released by its own rule."""
    def left(session: str, rule: Release) -> tuple[str, bytes]:
        r = Releaser(rule, {"table-01": 1}, {1: frozenset({1})}, session=session)
        out = r.offer("cardtable/table-01/play", _msg("table-01", 1, 10.0, "event", _board(1)), 10.0)
        out += r.offer("cardtable/table-01/play", _msg("table-01", 2, 11.0, "ruling", _result()), 11.0)
        out += r.tick(20.0)
        topic, payload = out[-1]
        assert json.loads(payload)["release"] == {"session": session, "rule": rule.rule.value,
                                                  "delay": rule.delay}
        return topic, payload.encode()

    delay = Release(Rule.DELAY, 2.0)
    now = Releaser(Release(Rule.AFTER_FIELD), {"table-01": 1}, {1: frozenset({1})}, session="week-2")
    assert now.stale(*left("week-2", delay))                       # this session, another rule
    assert now.stale(*left("week-1", Release(Rule.AFTER_FIELD)))   # last week's session, the same rule
    assert not now.stale(*left("week-2", Release(Rule.AFTER_FIELD)))   # this service, restarted
    topic, payload = left("week-2", Release(Rule.AFTER_FIELD))
    assert now.stale("cardtable/spectate/table/9/board/9", payload)    # a message on another board's topic
    assert now.stale(topic, b"{not json") and now.stale(topic, json.dumps({"items": []}).encode())
    assert now.stale("cardtable/spectate/whatever", b"{}")
    assert not now.stale("cardtable/spectate/event", b"{}")            # replaced by this run's own
    nameless = Releaser(Release(Rule.AFTER_FIELD), {"table-01": 1}, {1: frozenset({1})})
    assert nameless.stale(*left("", Release(Rule.AFTER_FIELD)))        # no session named: nothing kept


def test_the_documented_vulnerable_values_are_the_ones_sent() -> None:
    # docs/broadcast.md's feed-items table names the board item's `vulnerable` values: every board of the
    # sixteen-board cycle sends one of them, and each of them is sent
    from laws.broadcast.feed import TableFeed

    doc = (Path(__file__).resolve().parents[2] / "docs" / "broadcast.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| `board` | the `board` event"))
    sent = set()
    for number in range(1, 17):
        (item,) = TableFeed(1).add(1, "event", _board(1, number), 1.0)
        sent.add(item.data["vulnerable"])
    assert sent == {"None", "NS", "EW", "All"}
    assert "`vulnerable` (PBN's spellings: `None`, `NS`, `EW`, `All`)" in row


def test_the_judge_takes_the_session_s_word_only_when_given_it() -> None:
    """The judge is written from docs/broadcast.md: a board released at every table once the session held
    the line of a table whose own score never came is not early by the session's word, and is without it."""
    from firmware_host.broadcast.audit import Arrival, Committed, judge

    feeds = {1: TableFeed(1), 2: TableFeed(2)}
    facts = Committed()
    for table, rows in ((1, [(1, "event", _board(1), 10.0)]),
                        (2, [(1, "event", _board(2), 10.0), (2, "ruling", _result(), 12.0)])):
        for row in rows:
            for item in feeds[table].add(*row):
                facts.items[(item.table, item.board, item.index)] = item
                if item.kind == "result":
                    facts.done[(item.table, item.board)] = item.t
    plays = {1: frozenset({1, 2})}
    board = facts.items[(1, 1, 0)]
    shown = [Arrival(20.0, "cardtable/spectate/table/1/board/1",
                     json.dumps({"table": 1, "board": 1, "items": [board.view()]}).encode())]
    assert judge(shown, facts, Release(Rule.AFTER_FIELD), plays).early
    word = facts.with_session({(1, 1): 15.0})
    assert not judge(shown, word, Release(Rule.AFTER_FIELD), plays).early
    assert judge([Arrival(14.0, shown[0].topic, shown[0].payload)], word, Release(Rule.AFTER_FIELD), plays).early


def test_one_table_s_flood_of_rows_on_its_board_is_bounded_and_every_publication_fits_the_broker() -> None:
    """A live attack: a table login sent its board's start and 1,200 calls on its ``play`` topic under
    ``delay``; the board's snapshot grew past the broker's 64 KiB packet, Mosquitto disconnected the
    ``broadcast`` login for it ("oversize packet"), and on every reconnect the service sent it again: no
    spectator saw any table from then on. A board holds at most ROWS_A_BOARD rows; the rest are refused."""
    from firmware_host.broadcast.live import ROWS_A_BOARD

    r = _releaser(Release(Rule.DELAY, 0))
    r.offer("cardtable/table-01/play", _msg("table-01", 1, 10.0, "event", _board(1)), 11.0)
    largest = 0
    for k in range(1000):
        out = r.offer("cardtable/table-01/play",
                      _msg("table-01", 2 + k, 10.0, "event", {"type": "call", "seat": "N", "call": "pass"}), 11.0)
        largest = max([largest] + [len(topic) + len(payload) for topic, payload in out])
    assert largest < 65536 - 100 and r.refused == 1000 - (ROWS_A_BOARD - 1) and r.taken == ROWS_A_BOARD
    # the table's next board is taken as usual, and so is another table's
    assert r.offer("cardtable/table-01/play", _msg("table-01", 5000, 10.0, "event", _board(1, 2)), 11.0)
    assert r.offer("cardtable/table-02/play", _msg("table-02", 1, 10.0, "event", _board(2)), 11.0)


def test_the_service_never_publishes_what_the_broker_would_disconnect_it_for(caplog: Any) -> None:
    """Whatever the releaser makes, a message over the broker's packet limit is not sent (it would cost the
    ``broadcast`` login its connection, and be sent again at every reconnect): it is counted and logged."""
    from firmware_host.broadcast.service import BroadcastService

    class Big(Releaser):
        def tick(self, now: float) -> list[tuple[str, str]]:
            return [("cardtable/spectate/table/1/board/1", "x" * 70000), ("cardtable/spectate/table/2/board/1", "{}")]

    service = BroadcastService(Big(Release(Rule.DELAY, 1.0), {"table-01": 1}, {1: frozenset({1})}), "127.0.0.1", 1,
                               "pw")
    sent: list[str] = []
    service.client.publish = lambda topic, payload, **kw: sent.append(topic)  # type: ignore[method-assign,assignment,misc]
    with caplog.at_level("WARNING"):
        service.step()
    assert sent == ["cardtable/spectate/table/2/board/1"] and service.oversize == 1
    assert "cardtable/spectate/table/1/board/1" in caplog.text and "65536" in caplog.text


def _items(out: list[tuple[str, str]], topic: str) -> list[str]:
    return [i["kind"] for i in json.loads(dict(out)[topic])["items"]]


def test_a_table_restarted_with_a_fresh_journal_is_shown_again_not_taken_for_repeats() -> None:
    """docs/broadcast.md: a message at or below the newest ``seq`` taken was dropped as a repeat. A table
    whose journal was replaced mid-evening (a spare Pi, a journal moved aside) numbers its rows from 1
    again: every row it sent was dropped, and the spectators saw that table no more that evening. A
    message sent again carries the ``t`` it was queued with; one queued after every one taken starts a new
    numbering."""
    r = _releaser(Release(Rule.DELAY, 0))
    play = "cardtable/table-01/play"
    r.offer(play, _msg("table-01", 1, 10.0, "event", _board(1)), 11.0)
    r.offer(play, _msg("table-01", 300, 12.0, "event", {"type": "call", "seat": "N", "call": "1C"}), 13.0)
    assert r.offer(play, _msg("table-01", 1, 10.0, "event", _board(1)), 14.0) == []      # a repeat (QoS 1)
    assert r.offer(play, _msg("table-01", 300, 12.0, "event", {"type": "call", "seat": "N", "call": "1C"}),
                   14.0) == []
    # the fresh journal: board 2 from row 1 again, queued after everything taken
    out = r.offer(play, _msg("table-01", 1, 20.0, "event", _board(1, 2)), 21.0)
    out += r.offer(play, _msg("table-01", 2, 22.0, "event", {"type": "call", "seat": "N", "call": "2C"}), 23.0)
    out += r.tick(30.0)
    assert _items(out, "cardtable/spectate/table/1/board/2") == ["board", "call"]
    assert r.renumbered == 1 and r.refused == 0
    assert r.offer(play, _msg("table-01", 2, 22.0, "event", {"type": "call", "seat": "N", "call": "2C"}),
                   31.0) == []                                                             # its repeats dropped


def test_a_retained_play_message_is_refused() -> None:
    """A table login that left a ``play`` message retained, numbered far ahead, had it taken at every
    reconnection of the broadcast, and every honest row of its table after it dropped as a repeat. A table
    sends ``play`` unretained: a retained one is refused and changes nothing."""
    r = _releaser(Release(Rule.DELAY, 0))
    play = "cardtable/table-01/play"
    r.offer(play, _msg("table-01", 1, 10.0, "event", _board(1)), 11.0)
    huge = _msg("table-01", 2**60, 11.0, "event", {"type": "call", "seat": "N", "call": "1C"})
    assert r.offer(play, huge, 12.0, retained=True) == [] and r.refused == 1
    out = r.offer(play, _msg("table-01", 2, 12.0, "event", {"type": "call", "seat": "N", "call": "2C"}), 13.0)
    out += r.tick(20.0)
    assert _items(out, "cardtable/spectate/table/1/board/1") == ["board", "call"]


def test_the_service_tells_the_releaser_which_play_messages_the_broker_kept_retained() -> None:
    from types import SimpleNamespace

    from firmware_host.broadcast.service import BroadcastService

    service = BroadcastService(_releaser(Release(Rule.DELAY, 0)), "127.0.0.1", 1, "pw")
    service.client.publish = lambda topic, payload, **kw: None  # type: ignore[method-assign,assignment,misc]
    service.client.ack = lambda mid, qos: None  # type: ignore[method-assign,assignment,misc]
    play = "cardtable/table-01/play"
    service._on_message(service.client, None, SimpleNamespace(topic=play, payload=_msg("table-01", 1, 10.0, "event",
                                                              _board(1)), mid=1, qos=1, retain=False))
    service._on_message(service.client, None, SimpleNamespace(topic=play, payload=_msg("table-01", 2**60, 11.0, "event",
                                                              {"type": "call", "seat": "N", "call": "1C"}), mid=2,
                                                              qos=1, retain=True))
    service.step()
    assert service.releaser.taken == 1 and service.releaser.refused == 1


def test_the_documented_result_spellings_are_the_ones_sent() -> None:
    # docs/broadcast.md's result row gave the field names alone: a viewer had to guess `Pass` (not `pass`),
    # a null declarer and lead for a board passed out, `4SX` for a doubled contract, and an `auction` that
    # is null until the confirmed result, then spelled as PBN spells it (`Pass`, `X`), not as the call items
    from laws.broadcast.feed import TableFeed

    doc = (Path(__file__).resolve().parents[2] / "docs" / "broadcast.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| `result` | the table's score"))
    for said in ("`Pass` for a board passed out", "`4SX`", "`declarer` (`N` … `W`; `null` when passed out)",
                 "`lead` (the opening lead, a card as above; `null` when passed out)",
                 "`auction` (`null` in the first; in the confirmed one the calls that stand",
                 "`Pass`, `1C` … `7NT`, `X`, `XX`", "`confirmed` (`false`, then `true`)"):
        assert said in row, said
    passes = ["Pass"] * 4
    doubled = ["1S", "Pass", "4S", "X", "Pass", "Pass", "Pass"]
    for calls, score, want in (
            (passes, {"contract": "Pass", "declarer": None, "tricks": 0, "score": 0, "lead": None},
             {"contract": "Pass", "declarer": None, "tricks": 0, "score": 0, "lead": None}),
            (doubled, {"contract": "4SX", "declarer": "N", "tricks": 10, "score": 590, "lead": "KH"},
             {"contract": "4SX", "declarer": "N", "tricks": 10, "score": 590, "lead": "KH"})):
        feed = TableFeed(1)
        feed.add(1, "event", _board(1), 1.0)
        bp22: dict[str, object] = {"clause": "BP-22", "calls": calls}
        bp22.update({"passed_out": True} if calls is passes else {"contract": "4SX", "declarer": "N"})
        feed.add(2, "ruling", bp22, 2.0)
        (first,) = feed.add(3, "ruling", {"clause": "DB-77", "remedy": "score", **score}, 3.0)
        (again,) = feed.add(4, "ruling", {"clause": "DB-77", "remedy": "score", **score, "auction": calls,
                                          "confirmed": {"ns": "N", "ew": "E"}}, 4.0)
        assert first.view() == {"kind": "result", "table": 1, "board": 1, "index": 2, **want, "auction": None,
                                "confirmed": False}
        assert again.view() == {"kind": "result", "table": 1, "board": 1, "index": 3, **want, "auction": calls,
                                "confirmed": True}


def test_the_documented_event_message_is_the_one_sent() -> None:
    # docs/broadcast.md named the event message's keys alone: the rule's spelling, the delay outside `delay`
    # and the rooms' shape (string keys) were a viewer's guess
    doc = (Path(__file__).resolve().parents[2] / "docs" / "broadcast.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| `cardtable/spectate/event` |"))
    assert ('the rule as `--rule` spells it, the delay in seconds (`0.0` but under `delay`), the table numbers, and '
            'for a teams match each table\'s room (`{"1": "o", "2": "c"}`; `{}` for a pairs session)') in row
    teams = Releaser(Release(Rule.TEAMS), {"table-01": 1, "table-02": 2}, {1: frozenset({1, 2})},
                     rooms={1: "o", 2: "c"}, other_room={1: 2, 2: 1}, title="Teams")
    assert json.loads(teams.event_message()[1]) == {"title": "Teams", "rule": "teams", "delay": 0.0, "tables": [1, 2],
                                                    "rooms": {"1": "o", "2": "c"}}
    pairs = Releaser(Release(Rule.AFTER_FIELD), {"table-01": 1}, {1: frozenset({1})}, title="Pairs")
    assert json.loads(pairs.event_message()[1])["rooms"] == {}
