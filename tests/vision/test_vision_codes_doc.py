"""``vision/CARD_CODES.md`` is a contract: its worked example and symbol are what the code produces."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import segno

from laws.cards import full_pack
from vision.codes import check_char, encode_payload, parse_payload, symbol_modules

DOC = (Path(__file__).resolve().parents[2] / "vision" / "CARD_CODES.md").read_text()


def test_the_worked_example_and_the_examples_hold() -> None:
    assert check_char("1B7TD") == "Y" and "`1B7TDY`" in DOC
    assert encode_payload("B7", None) == "1B7ZZ1" and "`1B7ZZ1`" in DOC
    assert encode_payload("B7", parse_payload("1B7AS6").card) == "1B7AS6"
    rows = re.search(r"```\n((?:[#.]{13}\n){13})```", DOC)
    assert rows is not None
    drawn = np.array([[0 if ch == "#" else 255 for ch in line] for line in rows.group(1).split()], np.uint8)
    assert (drawn == symbol_modules("1B7TDY")).all()


def test_a_second_encoder_writes_the_same_symbols_for_a_whole_pack() -> None:
    """segno (the degradation benchmark's writer) and zxing-cpp (the labels') agree module for module."""
    for card in [*full_pack(), None]:
        text = encode_payload("C4", card)
        ours = symbol_modules(text) == 0
        sym = segno.make_micro(text, version="M2", error="L")
        theirs = np.array([[bool(v) for v in row] for row in sym.matrix])
        assert (ours == theirs).all(), text


# -- bidding cards ----------------------------------------------------------------------------------

def _section(title: str) -> str:
    start = DOC.index(title)
    end = DOC.find("\n## ", start + 1)
    return DOC[start:end if end > 0 else None]


BIDDING = _section("## Bidding cards")


def test_the_bidding_worked_example_examples_and_symbol_hold() -> None:
    from laws.bridge.calls import PASS, REDOUBLE, parse_call
    from vision.codes import encode_call_payload

    assert check_char("BN1H1") == "Z" and "`BN1H1Z`" in BIDDING
    assert encode_call_payload("S", PASS, "3") == "BSPA30" and "`BSPA30`" in BIDDING
    assert encode_call_payload("E", parse_call("3NT")) == "BE3N11" and "`BE3N11`" in BIDDING
    assert encode_call_payload("N", REDOUBLE, "2") == "BNRD2K" and "`BNRD2K`" in BIDDING
    blocks = re.findall(r"```\n((?:[#.]{13}\n){13})```", BIDDING)
    assert len(blocks) == 1
    drawn = np.array([[0 if ch == "#" else 255 for ch in line] for line in blocks[0].split()], np.uint8)
    assert (drawn == symbol_modules("BN1H1Z")).all()


def test_the_worked_example_table_is_the_arithmetic() -> None:
    from vision.codes import ALPHABET

    rows = re.findall(r"^\| `(.)` \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", BIDDING, re.M)
    assert [r[0] for r in rows] == list("BN1H1")
    p = 36
    for ch, value, before, s, after in rows:
        assert int(value) == ALPHABET.index(ch) and int(before) == p
        assert int(s) == ((p + int(value)) % 36 or 36) and int(after) == 2 * int(s) % 37
        p = int(after)
    assert ALPHABET[(37 - p) % 36] == "Z"


def test_every_test_vector_in_the_document_holds() -> None:
    """The document's table of vectors, row by row, against the reference reader."""
    from vision.codes import CallCode, CardCode, CodeRejected, parse_code

    rows = re.findall(r"^\| `([^`]*)` \| (.+?) \|$", BIDDING, re.M)
    rows = [(text, want) for text, want in rows if want.startswith(("rejected", "card", "North", "East", "South",
                                                                    "West"))]
    assert len(rows) >= 15
    kinds = set()
    for text, want in rows:
        if want.startswith("rejected"):
            with pytest.raises(CodeRejected) as info:
                parse_code(text)
            assert want == f"rejected: `{info.value.reason.value}`", text
            kinds.add(info.value.reason.value)
            continue
        code = parse_code(text)
        if want.startswith("card"):
            assert isinstance(code, CardCode)
            assert want == f"card `{code.card.code if code.card else 'ZZ'}` of pack `{code.pack}`", text
        else:
            assert isinstance(code, CallCode)
            seat = {"N": "North", "E": "East", "S": "South", "W": "West"}[code.seat.value]
            assert want == f"{seat}, `{code.call.code}`, copy `{code.copy}`", text
    assert kinds == {"length", "charset", "version", "check", "seat", "call"}  # every rule has a vector


def test_segno_writes_the_same_symbols_for_a_seats_bidding_cards() -> None:
    from vision.bidding_labels import seat_set
    from vision.codes import encode_call_payload

    for code in seat_set("W"):
        text = encode_call_payload(code.seat, code.call, code.copy)
        ours = symbol_modules(text) == 0
        sym = segno.make_micro(text, version="M2", error="L")
        assert (ours == np.array([[bool(v) for v in row] for row in sym.matrix])).all(), text
