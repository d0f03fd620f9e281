"""The journal's head leaves the Pi with the club heartbeat: what `cardtable journal head` prints, so a
copy kept by the club can later prove the journal was not rewritten."""

from __future__ import annotations

import json
from pathlib import Path

from firmware_host.config import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.tablelink.publisher import MqttPublisher
from tests.club.conftest import PASSWORDS, Watcher


def test_the_heartbeat_carries_the_journal_head(tmp_path: Path, broker, watcher: Watcher) -> None:  # type: ignore[no-untyped-def]
    journal = Journal.open(tmp_path / "t1", synchronous="NORMAL")
    for k in range(5):
        journal.append("note", {"k": k}, float(k))
    pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=broker.port), "t1", journal, password=PASSWORDS["t1"],
                        heartbeat=0.1)
    pub.start()
    try:
        seq, h = journal.head()
        want = f"{seq}:{h}".encode()
        assert watcher.wait_for(lambda ms: any(t.endswith("/heartbeat") and want in p for t, p in ms))
        beat = next(json.loads(p) for t, p in watcher.messages if t.endswith("/heartbeat") and want in p)
        assert beat["head"] == f"5:{h}"
        journal.append("note", {"k": 5}, 5.0)
        seq, h = journal.head()
        new = f"{seq}:{h}"
        assert watcher.wait_for(lambda ms: any(t.endswith("/heartbeat") and new.encode() in p for t, p in ms))
    finally:
        pub.stop()
        journal.close()
