"""A table's message larger than the club broker's packet (docs/mqtt.md, "The broker": ``max_packet_size
65536``). The publisher queued it like any other: Mosquitto disconnected the table for it, and the outbox
sent it again at every reconnect, for ever, so nothing the table did after it reached the club. Now it is not
queued; the table journals a note and shows it, and a board's result is to be entered by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware_host.config.schema import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.table.inputs import DeviceNote
from firmware_host.tablelink import too_large
from firmware_host.tablelink.publisher import MqttPublisher


class _Ctl:
    def __init__(self) -> None:
        self.submitted: list[Any] = []

    def submit(self, item: Any) -> None:
        self.submitted.append(item)


def test_a_result_too_large_is_not_queued_and_the_table_says_to_enter_it_by_hand(tmp_path: Path) -> None:
    j = Journal.open(tmp_path)
    pub = MqttPublisher(MqttConfig(), "table-07", j, password="x", heartbeat=999, play_feed=False)
    ctl = _Ctl()
    too_large.connect(pub, ctl)
    body = {"board": 7, "round": 2, "auction": ["pass"] * 12000}        # forced over 64 KiB
    assert pub.board_result(body, 41) is False
    assert pub.outbox.pending(0, 10) == [] and pub.delivery.oversize == 1
    assert pub.board_result({"board": 8, "round": 2}, 42) is True
    assert [p[1] for p in pub.outbox.pending(0, 10)] == [42]
    (note,) = ctl.submitted
    assert isinstance(note, DeviceNote) and note.device == "club"
    assert "board 7's result" in note.text and "enter it by hand" in note.text and "pass" not in note.text
    pub.stop(0.1)
    j.close()


def test_any_other_message_too_large_is_named_by_its_kind_and_row() -> None:
    text = too_large.words("deal", 812, 70123, {"revealed": ["AS"]})
    assert text == ("the deal message of row 812 (70,123 bytes) is too large for the club's broker and was not "
                    "sent; the table's journal keeps it")


def _longest_result() -> dict[str, Any]:
    """The largest board message a table of ours sends: a 319-call auction (three passes, then every bid
    from 1C to 7NT each doubled and redoubled, then three passes) and all 52 cards played."""
    from firmware_host.wire.messages import BoardResult, auction_problem

    calls = ["Pass"] * 3
    for bid in (f"{level}{strain}" for level in range(1, 8) for strain in ("C", "D", "H", "S", "NT")):
        calls += [bid, "Pass", "Pass", "X", "Pass", "Pass", "XX", "Pass", "Pass"]
    calls.append("Pass")
    assert len(calls) == 319 and auction_problem(tuple(calls), 4, "7NTXX", "S") == ""
    play = tuple(rank + suit for suit in "SHDC" for rank in "AKQJT98765432")
    return BoardResult("A", 999, 999, 9999, "999 NS", "999 EW", "7NTXX", "S", "AS", 13, "f" * 64, True,
                       None, tuple(calls), play, {"ns": "N", "ew": "E"}).to_dict()


def test_the_longest_result_is_the_size_docs_mqtt_md_gives(tmp_path: Path) -> None:
    """docs/mqtt.md gives the size of a board's result at its longest, the measure of "our messages are far
    smaller" than the broker's packet; it said some 2,200 bytes where the message is some 2,700."""
    import re

    j = Journal.open(tmp_path)
    pub = MqttPublisher(MqttConfig(), "table-07", j, password="x", heartbeat=999, play_feed=False)
    assert pub.board_result(_longest_result(), 2**40, 99) is True
    ((_, _, _, payload),) = pub.outbox.pending(0, 10)
    pub.stop(0.1)
    j.close()
    doc = " ".join((Path(__file__).resolve().parents[2] / "docs/mqtt.md").read_text(encoding="utf-8").split())
    said = re.search(r"a board's result at its longest, 319 calls and 52 cards, is some ([\d,]+) bytes", doc)
    assert said, "docs/mqtt.md no longer gives the size of the longest result"
    size = len(payload.encode())
    assert abs(int(said.group(1).replace(",", "")) - size) <= 100, size
