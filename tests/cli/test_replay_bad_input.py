"""`cardtable replay` meets bad input with one message naming the line (and key), exit 2; never a
traceback, never a silent exit 0."""

from __future__ import annotations

import io
import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.cli import main

GAME = '{"type":"game","game":"contract-bridge"}'


def _replay(capsys: pytest.CaptureFixture[str], tmp_path: Path, *lines: str) -> tuple[int, str, str]:
    f = tmp_path / "log.jsonl"
    f.write_text("".join(line + "\n" for line in lines))
    rc = main(["replay", str(f)])
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.mark.parametrize(("line", "says"), [
    ('{"type":"cut","seat":"N","top":' + "9" * 5000 + "}", "field 'top'"),
    ('{"type":"cut","seat":"N","top":-5,"bottom":60}', "field 'top'"),
    ('{"type":"cut","seat":"N","top":20,"bottom":-1}', "field 'bottom'"),
    ('{"type":"cut","seat":"N","top":20,"bottom":32,"exposed":-2}', "field 'exposed'"),
    ('{"type":"hand_count","seat":"N","count":-3}', "field 'count'"),
    ('{"type":"result","tricks":-3,"declarer":"N","contract":"3NT"}', "field 'tricks'"),
    ('{"type":"result","tricks":53,"declarer":"N","contract":"3NT"}', "field 'tricks'"),
    ('{"type":"draw","cuts":[["ann","AS"]],"exposed":{"ann":-1}}', "field 'exposed'"),
    ('{"type":"deal_start","dealer":"N","pack":"A","t":NaN}', "field 't'"),
    ('{"type":"deal_start","dealer":"N","pack":"A","t":Infinity}', "field 't'"),
    ('{"type":"deal_start","dealer":"N","pack":"A","t":-Infinity}', "field 't'"),
    ('{"type":"deal_start","dealer":"N","pack":"A","t":1e400}', "field 't'"),
    ("[" * 30_000 + "]" * 30_000, "nested"),   # within the longest line (65536 bytes)
    ('{"type":"cut","seat":"N","note":' + "[" * 5000 + "]" * 5000 + "}", "nested"),
])
def test_a_bad_value_is_one_message_naming_line_and_key(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                        line: str, says: str) -> None:
    rc, _, err = _replay(capsys, tmp_path, GAME, line)
    assert rc == 2
    assert "log.jsonl:2: " in err and says in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("lines", [(), ("",), ("", "   ", "")])
def test_an_empty_log_says_no_events(capsys: pytest.CaptureFixture[str], tmp_path: Path, lines: tuple[str, ...]) -> None:
    rc, out, err = _replay(capsys, tmp_path, *lines)
    assert rc == 2 and out == ""
    assert "log.jsonl: no events" in err and len(err.strip().splitlines()) == 1


def test_good_counts_still_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rc, out, _ = _replay(capsys, tmp_path, GAME, '{"type":"cut","seat":"N","top":3,"bottom":49,"t":1.5}')
    assert rc == 0 and "new_cut" in out  # a packet of 3: the law's own ruling, not a format error


_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=5)
    | st.sampled_from(["N", "E", "S", "W", "NS", "AS", "TD", "A", "3NT", "contract-bridge", "euchre"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6)
# valid events, then one field (or none) replaced by anything JSON can say
_TEMPLATES = [
    {"type": "packs", "owners": {"NS": "red", "EW": "blue"}},
    {"type": "draw", "cuts": [["ann", "AS"], ["bob", "KS"], ["cy", "QS"], ["di", "JS"]]},
    {"type": "shuffle", "seat": "W"}, {"type": "cut", "seat": "N", "top": 20, "bottom": 32},
    {"type": "deal_start", "dealer": "E", "pack": "red"}, {"type": "card_dealt", "seat": "S", "card": "TD"},
    {"type": "deal_end"}, {"type": "hand_count", "seat": "N", "count": 13},
    {"type": "card_played", "seat": "S", "card": "AS"}, {"type": "play_end"},
    {"type": "result", "tricks": 9, "declarer": "N", "contract": "3NT"},
    {"type": "missing_card", "card": "2C", "seat": "E", "found": "loose"},
    {"type": "surplus_card", "seat": "W", "cause": "deal"}, {"type": "leave", "name": "ann"},
]
_FIELDS = ["seat", "card", "pack", "dealer", "top", "bottom", "exposed", "count", "tricks", "declarer",
           "contract", "t", "cuts", "seats", "owners", "name", "found", "cause", "honours", "type"]
_EVENT = st.builds(lambda base, change: {**base, **change}, st.sampled_from(_TEMPLATES),
                   st.dictionaries(st.sampled_from(_FIELDS), _VALUE, max_size=1))


def _line(obj: Any) -> str:
    return json.dumps(obj, allow_nan=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(["contract-bridge", "euchre"]), events=st.lists(_EVENT, max_size=12),
       junk=st.one_of(st.none(), st.text(max_size=20), st.binary(max_size=20).map(lambda b: b.decode("latin-1")),
                      st.sampled_from(['{"type":"cut","seat":"N","top":' + "9" * 5000 + "}", "[" * 3000,
                                       '{"type":"play_end","t":1e999}', '{"type":"deal_end","t":-Infinity}',
                                       '{"type":"cut","seat":"N","top":-' + "1" * 40 + "}"])))
def test_fuzzed_logs_exit_0_or_2_never_a_traceback(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch, game: str,
                                                   events: list[dict[str, Any]], junk: str | None) -> None:
    lines = [_line({"type": "game", "game": game}), *(_line(e) for e in events)]
    if junk is not None:
        lines.append(junk.replace("\n", " "))
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    rc = main(["replay", "-"])
    err = capsys.readouterr().err
    assert rc in (0, 2), err
    if rc == 2:
        assert len(err.strip().splitlines()) == 1 and err.startswith("<stdin>")
    assert not any(isinstance(e.get("t"), float) and not math.isfinite(e["t"]) for e in events) or rc == 2



def test_a_spread_before_the_opening_lead_is_refused_naming_the_line(capsys: pytest.CaptureFixture[str],
                                                                     tmp_path: Path) -> None:
    """docs/events.md: a ``spread`` is refused unless a defender's opening lead out of turn waits for a
    ruling; after the auction closed, before the opening lead, it was dropped silently (exit 0)."""
    from laws.events import event_to_dict
    from tests.laws.bridge_table import DRAW, MIXED, calls, dealt
    from tests.laws.test_law_54_spread import AUCTION, N

    lines = [GAME, *(json.dumps(event_to_dict(e)) for e in [DRAW, *dealt(MIXED), *calls(N, AUCTION)])]
    rc, _, err = _replay(capsys, tmp_path, *lines, '{"type":"spread","seat":"S"}')
    assert rc == 2 and f"log.jsonl:{len(lines) + 1}: " in err and "opening lead out of turn" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


_BOARD = ('{"type": "board", "board": 1, "record": "047862f0d18ed9e1296617f4a2b51099160c59baf98fe41093187134c903b720", '
          '"deal": "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"')


@pytest.mark.parametrize("before", [(), (_BOARD + "}",)])
@pytest.mark.parametrize("stray", ['{"type": "card_dealt", "seat": "N", "card": "AS"}', '{"type": "deal_end"}'])
def test_a_duplicate_card_with_no_deal_under_way_is_out_of_phase_not_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, before: tuple[str, ...], stray: str) -> None:
    """docs/events.md, "Duplicate: what is refused": an outside audit read that a ``card_dealt`` with no board
    (or for a physical board) is refused, exit 2, while the table, as at any table, ignores a card or a
    ``deal_end`` with no deal under way (replay drops it silently). The document now says so; only the
    ``deal_start`` is refused."""
    rc, out, err = _replay(capsys, tmp_path, '{"type": "game", "game": "duplicate-bridge"}', *before, stray)
    assert (rc, out) == (0, "") and "Traceback" not in err
    rc, _, err = _replay(capsys, tmp_path, '{"type": "game", "game": "duplicate-bridge"}', *before,
                         '{"type": "deal_start", "dealer": "N", "pack": "A1"}')
    assert rc == 2 and f"log.jsonl:{len(before) + 2}: " in err


@pytest.mark.parametrize("call", ["pass", "order"])
def test_a_bid_suit_that_changes_nothing_is_still_checked(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                          call: str) -> None:
    """docs/events.md, ``bid``: the ``suit`` of a ``pass`` or an ``order`` changes nothing, but a value given
    must be a suit (Conventions: a value of the wrong kind makes the line malformed). The document said
    "ignored otherwise", which an outside writer read as "not read at all"."""
    game = '{"type": "game", "game": "euchre"}'
    rc, _, err = _replay(capsys, tmp_path, game, f'{{"type": "bid", "seat": "E", "call": "{call}", "suit": 5}}')
    assert rc == 2 and "log.jsonl:2: field 'suit'" in err and len(err.strip().splitlines()) == 1
    rc, _, err = _replay(capsys, tmp_path, game, f'{{"type": "bid", "seat": "E", "call": "{call}", "suit": null}}')
    assert rc == 0, err


def test_a_draw_exposing_for_someone_who_did_not_cut_is_refused(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    """docs/events.md, ``draw``: ``exposed`` names the cutters who showed cards. A name that did not cut
    (``ann`` typed for ``Ann``) was taken and dropped: the table formed, and law 10's cut again for
    Ann's two cards shown was never ruled (outside audit p2). The line is malformed, naming the field."""
    cuts = [["Ann", "JS"], ["Bob", "AH"], ["Cy", "9D"], ["Di", "8C"]]
    game = '{"type": "game", "game": "euchre"}'
    rc, _, err = _replay(capsys, tmp_path, game, json.dumps({"type": "draw", "cuts": cuts, "exposed": {"ann": 2}}))
    assert rc == 2 and err.strip().endswith("log.jsonl:2: field 'exposed': 'ann' did not cut in this draw")
    rc, out, _ = _replay(capsys, tmp_path, game, json.dumps({"type": "draw", "cuts": cuts, "exposed": {"Ann": 2}}))
    assert rc == 0 and json.loads(out.splitlines()[0])["remedy"] == "cut_again"



_EUCHRE_ONLY = ['{"type": "candidate", "name": "Ed"}', '{"type": "leave", "name": "Zed"}',
                '{"type": "deal_interrupted", "seat": "E", "how": "touched"}', '{"type": "trump_turned", "card": "JH"}',
                '{"type": "bid", "seat": "E", "call": "pass"}', '{"type": "trump_made", "seat": "E", "suit": "H"}',
                '{"type": "discard", "seat": "N", "card": "TH"}']


@pytest.mark.parametrize("line", _EUCHRE_ONLY)
def test_a_euchre_event_in_a_bridge_deal_is_ignored_and_the_deal_goes_on(capsys: pytest.CaptureFixture[str],
                                                                          tmp_path: Path, line: str) -> None:
    """docs/events.md: the euchre events (the roster, the deal's interruptions, the making of trump, the
    discard) fit no phase of a bridge table and are ignored, as an event out of its phase is. They were
    taken: a ``trump_turned`` in the middle of a bridge deal moved the table out of its dealing phase, the
    deal's other 32 cards were not taken, and the deal was voided as a wrong count (CB-redeal-incorrect)
    (outside audit p2)."""
    seats, cards = "ESWN", [r + s for s in "SHDC" for r in "AKQJT98765432"]
    dealt = [json.dumps({"type": "card_dealt", "seat": seats[i % 4], "card": c}) for i, c in enumerate(cards)]
    rc, out, err = _replay(capsys, tmp_path, GAME, '{"type": "draw", "cuts": [["Ann", "AS"], ["Bob", "KH"], '
                           '["Cy", "7D"], ["Di", "2C"]]}', '{"type": "shuffle", "seat": "S"}',
                           '{"type": "cut", "seat": "W"}', '{"type": "deal_start", "dealer": "N", "pack": "red"}',
                           *dealt[:20], line, *dealt[20:], '{"type": "deal_end"}',
                           '{"type": "result", "declarer": "S", "contract": "4S", "tricks": 10}')
    assert rc == 0, err
    assert [json.loads(r)["remedy"] for r in out.splitlines()] == ["formation", "score", "game_won"]


def test_a_line_longer_than_the_format_allows_is_refused_unread(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    """docs/events.md, "Conventions": a line is at most 65536 bytes, its newline not counted. ``replay``
    read a line whole, so a file of one multi-GB line (or ``/dev/zero``) took all the memory there was;
    it reads no further than the longest line and names the line, after the rulings before it."""
    f = tmp_path / "log.jsonl"
    at_most = '{"type":"cut","seat":"N","top":3,"bottom":49,"note":"' + "x" * (65536 - 53 - 2) + '"}'
    assert len(at_most) == 65536
    f.write_text(GAME + "\n" + at_most + "\n" + at_most + "x\n" + GAME + "\n")
    assert main(["replay", str(f)]) == 2
    out = capsys.readouterr()
    assert "new_cut" in out.out   # line 2, at the limit, was ruled on
    assert out.err == f"{f}:3: longer than 65536 bytes (the event format's longest line); not read\n"
    f.write_bytes(b"\n" + b" " * (1024 * 1024))   # 1 MiB without a newline: refused after 64 KiB, never read whole
    assert main(["replay", str(f)]) == 2
    assert capsys.readouterr().err == f"{f}:2: longer than 65536 bytes (the event format's longest line); not read\n"


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_character_device_that_never_ends_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """``cardtable replay /dev/zero`` read for ever (and, a line at a time, held all of it): refused at
    once, as ``run --events`` refuses it; ``/dev/null`` is an empty log."""
    for device in ("/dev/zero", "/dev/urandom"):
        assert main(["replay", device]) == 2
        assert capsys.readouterr().err == f"{device}: is a character device, not a terminal or a file of events\n"
    assert main(["replay", "/dev/null"]) == 2
    assert capsys.readouterr().err == "/dev/null: no events (the log is empty)\n"
