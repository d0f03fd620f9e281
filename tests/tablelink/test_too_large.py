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
