"""``vision/CARD_CODES.md`` is a contract: its worked example and symbol are what the code produces."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
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
