"""The dashboard's HTTP side against a real broker: login, sessions that expire, CSRF-safe acks, escaping."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import pytest

from firmware_host.club.broker import LocalBroker
from firmware_host.club.dashboard import MAX_BODY
from firmware_host.web.auth import add_user, check_password, load_users

from .conftest import Watcher, csrf, login


def test_login_required_and_wrong_password_refused(dash: Any, caplog: pytest.LogCaptureFixture) -> None:
    d, client, clock = dash
    assert client.get("/", follow_redirects=False).status_code == 303
    assert client.get("/api/state").status_code == 401
    with caplog.at_level(logging.WARNING):
        r = login(client, "wrong-horse")
    assert r.status_code == 401 and "Wrong user name or password" in r.text
    assert "wrong password" in caplog.text
    r = login(client)
    assert r.status_code == 303 and "httponly" in r.headers["set-cookie"].lower()
    assert "samesite=strict" in r.headers["set-cookie"].lower()
    assert client.get("/api/state").status_code == 200


def test_sessions_expire(dash: Any) -> None:
    d, client, clock = dash
    login(client)
    assert client.get("/api/state").status_code == 200
    clock.now += 601
    assert client.get("/api/state").status_code == 401
    assert client.get("/", follow_redirects=False).status_code == 303


def test_acks_need_the_csrf_token_and_our_origin(dash: Any, broker: LocalBroker, watcher: Watcher,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    d, client, clock = dash
    d.state.ingest("cardtable/t1/online", json.dumps({"table": "t1", "online": True}).encode(), 0.0)
    login(client)
    token = csrf(client)
    with caplog.at_level(logging.WARNING):
        assert client.post("/api/ack", json={"table": "t1"}).status_code == 403
        assert client.post("/api/ack", json={"table": "t1"}, headers={"X-CSRF-Token": "forged"}).status_code == 403
        assert client.post("/api/ack", json={"table": "t1"}, headers={
            "X-CSRF-Token": token, "Origin": "http://evil.example"}).status_code == 403
        assert client.post("/api/ack", json={"table": "nope"}, headers={"X-CSRF-Token": token}).status_code == 404
    assert "CSRF" in caplog.text and "cross-origin" in caplog.text and "unknown table" in caplog.text
    assert not any("/command/" in t for t, _ in watcher.messages)
    r = client.post("/api/ack", json={"table": "t1"}, headers={"X-CSRF-Token": token, "Origin": "http://club.test"})
    assert r.status_code == 200 and r.json()["pending"] is True
    assert [p["kind"] for p in d.state.tables["t1"].pending] == ["ack"]  # until the table confirms it
    assert watcher.wait_for(lambda ms: any(t == "cardtable/t1/command/ack" for t, _ in ms))
    cmd = json.loads(next(p for t, p in watcher.messages if t == "cardtable/t1/command/ack"))
    assert cmd["table"] == "t1" and cmd["by"] == "director"


@pytest.mark.parametrize("path", ["/api/ack", "/api/result", "/api/take", "/api/claim"])
@pytest.mark.parametrize("body, why", [
    (b"not json", "the request is refused: bad JSON"),
    (b'[{"table": "t1"}]', "the request is not a JSON object"),
    (b"7", "the request is not a JSON object"),
    (b"[" + b" " * MAX_BODY + b"]", "the request is over "),
])
def test_a_command_whose_body_is_no_json_object_is_400_with_the_reason(dash: Any, watcher: Watcher, path: str,
                                                                       body: bytes, why: str) -> None:
    """The director's commands answered such bodies (not JSON, a list, 20 MB) 404 "unknown table": the
    reason was lost. They now answer 400 with the shared body reader's reason, as the duplicate forms do."""
    d, client, clock = dash
    d.state.ingest("cardtable/t1/online", json.dumps({"table": "t1", "online": True}).encode(), 0.0)
    login(client)
    r = client.post(path, content=body, headers={"X-CSRF-Token": csrf(client), "Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["error"].startswith(why), (r.status_code, r.text[:200])
    assert not any("/command/" in t for t, _ in watcher.messages)


def test_a_result_is_checked_for_the_tables_game_then_sent(dash: Any, broker: LocalBroker, watcher: Watcher,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    d, client, clock = dash
    status = {"table": "t1", "kind": "status", "seq": 1, "t": 1.0, "deal": 2,
              "body": {"phase": "auction", "game": "contract-bridge", "deal": 2}}
    d.state.ingest("cardtable/t1/status", json.dumps(status).encode(), 0.0)
    login(client)
    token = csrf(client)
    headers = {"X-CSRF-Token": token, "Origin": "http://club.test"}
    assert client.post("/api/result", json={"table": "t1", "result": {"declarer": "N", "contract": "4S",
                                                                       "tricks": 10}}).status_code == 403
    with caplog.at_level(logging.WARNING):
        r = client.post("/api/result", json={"table": "t1", "result": {"makers": "NS", "tricks": 3}}, headers=headers)
    assert r.status_code == 400 and "has no 'makers'" in r.json()["error"]
    assert "result by director for table t1 refused" in caplog.text
    assert not any("/command/" in t for t, _ in watcher.messages)
    r = client.post("/api/result", json={"table": "t1", "result": {"declarer": "N", "contract": "4s",
                                                                    "tricks": 10}}, headers=headers)
    assert r.status_code == 200
    assert watcher.wait_for(lambda ms: any(t == "cardtable/t1/command/result" for t, _ in ms))
    cmd = json.loads(next(p for t, p in watcher.messages if t == "cardtable/t1/command/result"))
    assert cmd["table"] == "t1" and cmd["by"] == "director" and cmd["id"]
    assert cmd["result"] == {"tricks": 10, "declarer": "N", "contract": "4s"}
    # scored: the table moves on to the next shuffle, and the same result entered again is refused here
    status["seq"], status["body"] = 2, {"phase": "shuffle", "game": "contract-bridge", "deal": 2}
    d.state.ingest("cardtable/t1/status", json.dumps(status).encode(), 0.0)
    r = client.post("/api/result", json={"table": "t1", "result": {"declarer": "N", "contract": "4S",
                                                                    "tricks": 10}}, headers=headers)
    assert r.status_code == 409 and "already entered by director (4s by North, 10 tricks)" in r.json()["error"]


def test_the_page_escapes_and_sets_a_strict_policy(dash: Any) -> None:
    d, client, clock = dash
    page = client.get("/login")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    r = client.post("/login", data={"username": "<script>x</script>", "password": "p"})
    assert r.status_code == 401 and "<script>x" not in r.text
    js = client.get("/static/app.js").text
    assert "innerHTML" not in js.replace("(never innerHTML)", "")
    assert client.get("/static/../dashboard.py").status_code == 404


def test_users_file_round_trip(tmp_path: Any) -> None:
    f = tmp_path / "users"
    add_user(f, "director", "long-enough-1")
    users = load_users(f)
    assert check_password("long-enough-1", users["director"]) and not check_password("nope", users["director"])
    f.write_text("director:plaintext\n")
    with pytest.raises(ValueError, match="line 1"):
        load_users(f)


def test_dashboard_shows_live_updates_through_the_hub(dash: Any, broker: LocalBroker) -> None:
    d, client, clock = dash
    payload = json.dumps({"table": "t1", "kind": "ruling", "seq": 3, "deal": 1, "t": time.time(),
                          "body": {"remedy": "redeal", "law": "Contract Bridge, Redeal", "clause": "CB-x",
                                   "reason": "<b>bold</b>"}}).encode()
    d.hub.put("cardtable/t1/ruling", payload)
    updates = d.hub.drain()
    kinds = [u["type"] for u in updates]
    assert kinds == ["table", "feed"] and updates[0]["ts"]
    assert updates[1]["entry"]["headline"] == "REDEAL" and updates[1]["entry"]["kind"] == "irregularity"
    login(client)
    state = client.get("/api/state").json()
    assert state["feed"][0]["reason"] == "<b>bold</b>"  # data, shown by the page with textContent
