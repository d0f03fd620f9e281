"""One hostile message never stops the dashboard (issue 28, item 1): through a real Mosquitto, a table's
login sends payloads nested 2,000 deep on ``status`` and 1,100 deep on ``board``; the dashboard refuses
them and still shows the table's next honest status. A fault inside the hub's task is logged, shown and
the task started again."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

from firmware_host.club.hub import Hub
from firmware_host.club.state import ClubState
from firmware_host.wire.subscribed import stop_loop

from .conftest import PASSWORDS, mqtt_client


def _status(table: str, seq: int, phase: str) -> str:
    return json.dumps({"table": table, "kind": "status", "seq": seq, "deal": 1, "secret": False, "t": time.time(),
                       "done": [], "body": {"phase": phase, "deal": 1, "dealer": "N", "lamps": {}, "counts": {}}})


def _phase(client: Any, table: str) -> str | None:
    state = client.get("/api/state").json()
    return next((t["phase"] for t in state.get("tables", []) if t["table"] == table), None)


def test_deeply_nested_payloads_from_a_table_do_not_stop_the_dashboard(dash: Any, broker: Any) -> None:
    d, client, _clock = dash
    from .conftest import login

    assert login(client).status_code == 303
    t1, _rc = mqtt_client(broker.port, "t1", PASSWORDS["t1"])
    t1.publish("cardtable/t1/status", _status("t1", 1, "shuffle"), qos=1, retain=True).wait_for_publish(5)
    deadline = time.monotonic() + 10
    while _phase(client, "t1") != "shuffle" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _phase(client, "t1") == "shuffle"
    t1.publish("cardtable/t1/status", b"[" * 2000 + b"]" * 2000, qos=1).wait_for_publish(5)
    t1.publish("cardtable/t1/board", b'{"table":"t1","kind":"board","body":' + b"[" * 1100 + b"]" * 1100 + b"}",
               qos=1).wait_for_publish(5)
    t1.publish("cardtable/t1/status", _status("t1", 2, "deal"), qos=1, retain=True).wait_for_publish(5)
    deadline = time.monotonic() + 10
    while _phase(client, "t1") != "deal" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _phase(client, "t1") == "deal", "the dashboard stopped taking messages after a nested payload"
    assert d.state.refused >= 2 and d.hub.failed == 0
    t1.disconnect()
    stop_loop(t1)


def test_a_message_that_fails_is_logged_and_the_next_one_taken(caplog: pytest.LogCaptureFixture) -> None:
    hub = Hub(ClubState(), clock=lambda: 5.0)

    def tap(topic: str, payload: bytes) -> bool:
        if payload == b"boom":
            raise RuntimeError("a tap's own fault")
        return False

    hub.taps.append(tap)
    hub.put("cardtable/t1/status", b"boom")
    hub.put("cardtable/t1/status", _status("t1", 1, "shuffle").encode())
    ups = hub.drain()
    assert [u["table"]["phase"] for u in ups if u["type"] == "table"] == ["shuffle"]
    assert hub.failed == 1 and "could not be applied" in caplog.text
    assert hub.state.snapshot()["faults"][0]["what"].startswith("a message on cardtable/t1/status")


def test_the_hub_task_that_stops_is_logged_shown_and_started_again(caplog: pytest.LogCaptureFixture,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import firmware_host.club.hub as hub_module

    monkeypatch.setattr(hub_module, "RESTART_AFTER", 0.01)
    hub = Hub(ClubState(), tick=0.001, clock=lambda: 5.0)
    calls = {"n": 0}
    real_drain = hub.drain

    def drain() -> list[dict[str, Any]]:
        calls["n"] += 1
        if calls["n"] == 2:
            raise RecursionError("maximum recursion depth exceeded")
        return real_drain()

    hub.drain = drain  # type: ignore[method-assign]

    async def main() -> None:
        task = asyncio.create_task(hub.supervise())
        while calls["n"] < 5:
            await asyncio.sleep(0.005)
        task.cancel()

    asyncio.run(main())
    assert hub.restarts == 1 and "stopped (RecursionError" in caplog.text
    assert "started again" in hub.state.snapshot()["faults"][-1]["what"]


def test_one_logins_refused_messages_write_a_bounded_log(caplog: pytest.LogCaptureFixture) -> None:
    state = ClubState()
    for _ in range(3000):
        state.ingest("cardtable/t1/status", b"[" * 40 + b"]" * 40, 1.0)
    assert state.refused == 3000
    lines = [r for r in caplog.records if "refused MQTT message" in r.getMessage()]
    assert 20 <= len(lines) <= 60 and "3000 refused from 't1' so far" in lines[-1].getMessage()
