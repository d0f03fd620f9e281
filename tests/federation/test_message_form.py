"""A club's message outside the documented format is answered ``conflict`` with the reason and never
journaled (docs/federation.md, "Nothing lost, nothing twice"). Found by an audit's live run: a whole number
of more than 30 digits got no answer and a traceback in serve's log (its digest could not be written);
keys outside the format (at the top, in ``line``, 50 KB of junk in ``played``) were taken and journaled;
a message's ``"club"`` was never checked against its topic (c4's entry saying c3 was taken as c4's); and
``"number": "14"`` was answered "got -1". Sent as the clubs' messages to a service whose client is never
connected (no broker: its publishes only queue)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_host.federation.service import EventSetup, FederationService, create_event, open_event

ENTRY = {"op": "entry", "club": "c1", "number": 1, "pairs": [[1, "NS"], [1, "EW"]],
         "fields": {"1NS": "NS", "1EW": "EW"}, "due": 1, "boards": [1, 2]}
LINE = {"op": "line", "club": "c1", "number": 2,
        "line": {"board": 1, "ns": [1, "NS"], "ew": [1, "EW"], "group": "A",
                 "result": {"played": {"contract": "3NT", "declarer": "N", "tricks": 9, "lead": None}}}}
BIG = "1" + "0" * 33


@pytest.fixture
def service(tmp_path: Path) -> Iterator[FederationService]:
    create_event(tmp_path / "e", EventSetup("form", (1, 2), ("c1", "c2")))
    s = FederationService(tmp_path / "e", "127.0.0.1", 1, "unused")
    try:
        yield s
    finally:
        s.stop()


def _answer(service: FederationService, payload: str, club: str = "c1") -> dict[str, Any]:
    answer = service.receive(service.topics.result(club), payload.encode())
    assert answer is not None
    return {"verdict": answer.verdict.value, "number": answer.number, "expect": answer.expect, "why": answer.why}


def _json(value: dict[str, Any]) -> str:
    import json

    return json.dumps(value)


def _journaled(service: FederationService) -> int:
    return sum(1 for r in service.journal.rows() if r.kind == "event" and r.body.get("type") == "message")


@pytest.mark.parametrize("payload, number, why", [
    ('{"op": "entry", "club": "c1", "number": ' + BIG + '}', 0,
     "a message number is a whole number from 1, got a number of 34 digits"),
    (_json(ENTRY).replace('"due": 1', '"due": ' + BIG), 1,
     "an entry's due (results due per board) is a whole number from 1 to 999, got a number of 34 digits"),
    (_json(ENTRY).replace('"boards": [1, 2]', '"boards": [1, ' + BIG + ']'), 1,
     "an entry's boards are a list of board numbers 1-9999, got [1, a number of 34 digits]"),
    (_json(ENTRY).replace('[[1, "NS"]', '[[' + BIG + ', "NS"]'), 1,
     "an entry's pair is [number 1-9999, \"NS\"|\"EW\"|null], got [a number of 34 digits, 'NS']"),
])
def test_a_whole_number_too_long_to_read_is_answered_and_named(service: FederationService, payload: str,
                                                               number: int, why: str) -> None:
    assert _answer(service, payload) == {"verdict": "conflict", "number": number, "expect": 1, "why": why}
    assert _journaled(service) == 0


def test_a_too_long_number_in_a_line_is_answered(service: FederationService) -> None:
    assert _answer(service, _json(ENTRY))["verdict"] == "taken"
    for old, new, why in (('"tricks": 9', '"tricks": ' + BIG, "board 1: tricks is 0-13, got a number of 34 digits"),
                          ('"board": 1', '"board": ' + BIG,
                           "line: board is a whole number 1-9999, got a number of 34 digits")):
        got = _answer(service, _json(LINE).replace(old, new))
        assert got == {"verdict": "conflict", "number": 2, "expect": 2, "why": why}
    assert _journaled(service) == 1


@pytest.mark.parametrize("number, shown", [('"14"', '"14"'), ("14.0", "14.0"), ("true", "true"),
                                           ("null", "null"), ("-1", "-1")])
def test_a_message_number_that_is_not_one_is_quoted(service: FederationService, number: str, shown: str) -> None:
    got = _answer(service, '{"op": "entry", "club": "c1", "number": ' + number + "}")
    assert got == {"verdict": "conflict", "number": 0, "expect": 1,
                   "why": f"a message number is a whole number from 1, got {shown}"}


def test_a_message_without_a_number_says_so(service: FederationService) -> None:
    assert _answer(service, '{"op": "entry", "club": "c1"}')["why"] == \
        "a message number is a whole number from 1, and the message has none"


def test_keys_outside_the_format_and_another_club_s_name_are_refused(service: FederationService) -> None:
    junk = "<script>alert(1)</script>" + "y" * 50000
    for message, why in (
            (ENTRY | {"junk": junk},
             'an entry: unknown key "junk" (the format has op, club, number, pairs, fields, due, boards)'),
            (ENTRY | {"club": "c2"}, "\"club\" is the club of the message's topic, c1, got \"c2\""),
            ({k: v for k, v in ENTRY.items() if k != "club"}, "\"club\" is the club of the message's topic, c1, got null"),
            (ENTRY | {"fields": {"1NS": 3}}, 'an entry\'s fields: "1NS" is to a field\'s name (1 to 64 characters), got 3')):
        assert _answer(service, _json(message)) == {"verdict": "conflict", "number": 1, "expect": 1, "why": why}
    assert _answer(service, _json(ENTRY))["verdict"] == "taken"
    played = LINE["line"]["result"]["played"]
    for message, why in (
            (LINE | {"note": 1}, 'a line: unknown key "note" (the format has op, club, number, line)'),
            (LINE | {"line": LINE["line"] | {"note": "x"}},
             'line: unknown key "note" (the format has board, ns, ew, group, result)'),
            (LINE | {"line": LINE["line"] | {"result": {"played": played | {"extra": junk}}}},
             'line: played: unknown key "extra" (the format has contract, declarer, tricks, lead)'),
            (LINE | {"line": LINE["line"] | {"result": {"played": played | {"contract": 3}}}},
             "line: played: contract is text or null, got 3"),
            (LINE | {"line": LINE["line"] | {"result": {"assigned": {"ns": "420"}}}},
             'line: assigned: ns is a score (a whole number), got "420"'),
            (LINE | {"op": "remove", "line": LINE["line"] | {"result": {}}},
             "board 1: result is one of played, assigned, artificial")):
        assert _answer(service, _json(message)) == {"verdict": "conflict", "number": 2, "expect": 2, "why": why}
    assert _answer(service, _json(LINE))["verdict"] == "taken"
    service.journal.close()
    journal, state = open_event(service.folder)
    try:
        bodies = [r.body for r in journal.rows() if r.body.get("type") == "message"]
    finally:
        journal.close()
    assert [b["message"] for b in bodies] == [ENTRY, LINE]        # nothing refused was kept
    assert state.ledger.expect("c1") == 3


def test_a_pass_out_written_another_way_is_told_how_to_send_it(service: FederationService) -> None:
    """The audit's: a passed-out board is taken as contract null (or "Pass"), declarer null, tricks 0,
    but "PASS" (USEBIO's word) was refused as a contract whose level is not a digit, with no hint."""
    assert _answer(service, _json(ENTRY))["verdict"] == "taken"

    def passed(contract: Any, declarer: Any = None, tricks: int = 0) -> str:
        return _json(LINE | {"line": LINE["line"] | {"result": {"played": {
            "contract": contract, "declarer": declarer, "tricks": tricks, "lead": None}}}})

    for word in ("PASS", "pass", "P", "passed out", "All Pass"):
        assert _answer(service, passed(word))["why"] == (
            f"board 1: played: contract {word!r}: a passed-out board is \"contract\": null (or \"Pass\"), "
            "\"declarer\": null, \"tricks\": 0")
    assert _answer(service, passed("Pass", "N"))["why"] == "board 1, line 1: a passed-out board has no declarer, got N"
    assert _answer(service, passed("Pass"))["verdict"] == "taken"
    assert _answer(service, passed(None).replace('"number": 2', '"number": 3').replace('"board": 1', '"board": 2')
                   )["verdict"] == "taken"


def test_a_pass_out_with_a_lead_is_refused_as_the_session_refuses_it(service: FederationService) -> None:
    """docs/federation.md: a passed-out board has no lead. A club's session refuses a pass-out with a
    lead (``a passed-out board has no lead, got AS``) but the federation took such a line, lead and all,
    into its field and its published travellers. It is refused with the session's words, by the same
    rule; a ``remove`` naming a line as a club sent it before is still taken."""
    assert _answer(service, _json(ENTRY))["verdict"] == "taken"

    def passed(lead: Any, op: str = "line", number: int = 2, board: int = 1) -> str:
        return _json(LINE | {"op": op, "number": number, "line": LINE["line"] | {"board": board, "result": {
            "played": {"contract": None, "declarer": None, "tricks": 0, "lead": lead}}}})

    said = _answer(service, passed("AS"))
    assert (said["verdict"], said["why"]) == ("conflict", "board 1: played: a passed-out board has no lead, got AS")
    assert _answer(service, passed(None))["verdict"] == "taken"
    assert _answer(service, passed("AS", "remove", 3, board=2))["verdict"] == "taken"   # not finished: taken off


def test_a_lead_longer_than_a_card_is_refused_not_cut(service: FederationService) -> None:
    """docs/federation.md: a lead is a card, rank then suit (``"KC"``). The federation read only a lead's
    first two characters, so an outside club's ``"lead": "KCX"`` was taken as the king of clubs and the
    field's PBN showed a lead the club never sent (audit m17). It is refused, naming what came; a
    ``remove`` naming a line as a club sent it before is still taken."""
    assert _answer(service, _json(ENTRY))["verdict"] == "taken"

    def led(lead: Any, op: str = "line", number: int = 2, board: int = 1) -> str:
        return _json(LINE | {"op": op, "number": number, "line": LINE["line"] | {"board": board, "result": {
            "played": {"contract": "3NT", "declarer": "N", "tricks": 9, "lead": lead}}}})

    for lead in ("KCX", "KCLUBS", "K"):
        said = _answer(service, led(lead))
        assert (said["verdict"], said["why"]) == (
            "conflict", f'board 1: played: a lead is a card, its rank then its suit ("KC", "TD"), got "{lead}"')
    assert _answer(service, led("KC"))["verdict"] == "taken"
    assert _answer(service, led("KCX", "remove", 3, board=2))["verdict"] == "taken"   # not finished
