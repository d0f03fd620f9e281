"""Result entry on the director's screen (issue 21): a second result for the same deal says whether the
first was taken; a result is corrected by the director and journaled at the table as a correction."""

from __future__ import annotations

import json
from typing import Any

from firmware_host.club.results import no_such_deal
from firmware_host.live import ClubCommands
from firmware_host.records.journal import Journal
from firmware_host.table.controller import TableController
from firmware_host.table.inputs import DirectorCommand

from .conftest import csrf, login


def _status(d: Any, seq: int, phase: str, deal: int, done: list[str] | None = None,
            answers: list[dict[str, Any]] | None = None) -> None:
    env = {"table": "t1", "kind": "status", "seq": seq, "deal": deal, "t": 1.0, "done": done or [],
           "body": {"phase": phase, "game": "contract-bridge", "deal": deal, "name": "Table 1",
                    "answers": answers or []}}
    d.state.ingest("cardtable/t1/status", json.dumps(env).encode(), 0.0)


def test_a_second_result_says_whether_the_first_was_taken_and_a_correction_goes_out(dash: Any,
                                                                                    watcher: Any) -> None:
    d, client, clock = dash
    _status(d, 1, "scoring", 2)
    login(client)
    headers = {"X-CSRF-Token": csrf(client), "Origin": "http://club.test"}
    four = {"declarer": "S", "contract": "4H", "tricks": 10}
    r = client.post("/api/result", json={"table": "t1", "result": four}, headers=headers)
    assert r.status_code == 200
    cid = r.json()["command"]["id"]
    again = client.post("/api/result", json={"table": "t1", "result": four}, headers=headers)
    assert again.status_code == 409
    assert again.json()["error"] == ("a result of deal 2 at Table 1 was already entered by director (4H by South, "
                                     "10 tricks), and it is on its way: the table has not taken it yet; to change "
                                     "it, correct it")
    _status(d, 2, "shuffle", 2, done=[cid])  # taken: the table moved on
    taken = client.post("/api/result", json={"table": "t1", "result": four}, headers=headers)
    assert "the table has taken it" in taken.json()["error"]
    shown = d.state.tables["t1"].to_dict()["results"]
    assert shown == [{"deal": 2, "by": "director", "words": "4H by South, 10 tricks", "taken": True,
                      "kind": "result", "why": ""}]
    bad = client.post("/api/correct", json={"table": "t1", "deal": 2, "result": {**four, "contract": "8H"}},
                      headers=headers)
    assert bad.status_code == 400 and "there is no eight-level contract" in bad.json()["error"]
    none = client.post("/api/correct", json={"table": "t1", "deal": 7, "result": four}, headers=headers)
    assert none.status_code == 409 and "no deal 7" in none.json()["error"]
    ok = client.post("/api/correct", json={"table": "t1", "deal": 2, "result": {**four, "tricks": 9}},
                     headers=headers)
    assert ok.status_code == 200
    assert watcher.wait_for(lambda ms: any(t == "cardtable/t1/command/correct" for t, _ in ms))
    cmd = json.loads(next(p for t, p in watcher.messages if t == "cardtable/t1/command/correct"))
    assert cmd["deal"] == 2 and cmd["result"] == {"tricks": 9, "declarer": "S", "contract": "4H"}
    _status(d, 3, "shuffle", 2, answers=[{"id": cmd["id"], "kind": "correct", "ok": True, "why": ""}])
    last = d.state.tables["t1"].to_dict()["results"][-1]
    assert last["kind"] == "correct" and last["taken"] and last["words"] == "4H by South, 9 tricks"


def test_the_table_journals_a_correction_and_refuses_one_for_a_deal_not_dealt(tmp_path: Any) -> None:
    with Journal.open(tmp_path) as journal:
        ctl = TableController(game="contract-bridge", journal=journal, panel=None, clock=lambda: 5.0)
        got: list[Any] = []
        ClubCommands("contract-bridge", got.append)("correct", {"id": "c9", "by": "alice", "deal": 1,
                                                                "result": {"declarer": "S", "contract": "4H",
                                                                           "tricks": 9}})
        assert got == [DirectorCommand("correct", "c9", "alice", {"deal": 1, "result": {
            "tricks": 9, "declarer": "S", "contract": "4H"}})]
        ctl.engine.state.deals_started = 1  # one deal dealt (the rest of the table does not matter here)
        ctl._handle(got[0])
        ctl._handle(DirectorCommand("correct", "c10", "alice", {"deal": 3, "result": {}}))
        notes = [r.body for r in journal.rows() if r.kind == "note"]
        assert {"correction": {"deal": 1, "result": {"tricks": 9, "declarer": "S", "contract": "4H"}},
                "command": {"id": "c9", "kind": "correct", "by": "alice"}} in notes
        assert any("no deal 3" in str(n.get("refused")) for n in notes)
        answers = {a["id"]: a for a in ctl.snapshot()["answers"]}
        assert answers["c9"]["ok"] and not answers["c10"]["ok"]
        assert journal.verify().ok


def test_a_correction_for_a_deal_not_played_names_the_deals_played_in_plain_words(dash: Any) -> None:
    """docs/mqtt.md, "Corrections": the dashboard refuses a correction of a deal the table has not played.
    After one deal it said "Table 1 has played deals 1 to 1", before the first "deals 1 to 0", which names
    no deal; it now says what the table's own refusal says (outside audit p2, commit cbc310c)."""
    d, client, _ = dash
    _status(d, 1, "scoring", 1)
    login(client)
    headers = {"X-CSRF-Token": csrf(client), "Origin": "http://club.test"}
    r = client.post("/api/correct", json={"table": "t1", "deal": 2, "result": {"declarer": "S", "contract": "4H",
                                                                                "tricks": 10}}, headers=headers)
    assert r.status_code == 409
    assert r.json()["error"] == "Table 1 has played deal 1 only: there is no deal 2 to correct"
    assert no_such_deal("Table 1", 0, 2) == "Table 1 has played no deal yet: there is no deal 2 to correct"
    assert no_such_deal("t2", 3, 7) == "t2 has played deals 1 to 3: there is no deal 7 to correct"
