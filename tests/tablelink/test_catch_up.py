"""A table killed between a commit and its outbox (docs/mqtt.md: every ordered message goes through the outbox
and is sent after a restart; nothing is lost). At restart only the ``play`` messages of the rows committed
after the last one queued were queued again: their ``event`` and ``ruling`` never reached the club, and the
dashboard said MESSAGES MISSED. Now they are queued first, in order, their cards held back as the live ones."""

from __future__ import annotations

import json
from pathlib import Path

from firmware_host.config.schema import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.tablelink.publisher import MqttPublisher


def _pending(pub: MqttPublisher) -> list[tuple[str, dict]]:
    return [(t.rsplit("/", 1)[-1], json.loads(p)) for _o, _s, t, p in pub.outbox.pending(0, 100)]


def test_the_rows_committed_after_the_last_message_queued_are_sent_at_restart(tmp_path: Path) -> None:
    j = Journal.open(tmp_path)
    pub = MqttPublisher(MqttConfig(), "table-07", j, password="x", heartbeat=999, play_feed=False)
    s1 = j.append("event", {"type": "deal_start", "dealer": "N", "pack": "red", "src": "shoe"}, 1.0)
    pub.event({"type": "deal_start", "dealer": "N", "pack": "red", "src": "shoe"}, 1, s1)
    pub.outbox.delivered([o for o, *_ in pub.outbox.pending(0, 100)])
    # committed, then the process was killed before the publisher heard of them
    s2 = j.append("event", {"type": "card_played", "seat": "E", "card": "QS", "src": "camera"}, 2.0)
    s3 = j.append("ruling", {"remedy": "attention", "clause": "BP-57", "law": "x", "deal": 1,
                             "reason": "East led the queen of spades out of turn", "card": "QS"}, 2.0)
    ignored = {"type": "bid", "seat": "N", "call": "pass", "src": "director"}     # not published live either
    j.append("event", ignored, 2.5)
    j.append("note", {"ignored": ignored}, 2.5)
    pub.stop(0.1)
    j.close()

    j = Journal.open(tmp_path)                                  # the restart
    pub = MqttPublisher(MqttConfig(), "table-07", j, password="x", heartbeat=999, play_feed=False)
    got = _pending(pub)
    assert [(kind, m["seq"], m["prev"], m["deal"]) for kind, m in got] == [("event", s2, s1, 1), ("ruling", s3, s2, 1)]
    text = json.dumps([m for _k, m in got])
    assert "QS" not in text and "queen of spades" not in text    # the open deal's card stays at the table
    j.close()
