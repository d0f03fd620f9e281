"""The card code's payload: every card round-trips, and every malformed text is rejected with its reason."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from laws.cards import full_pack
from vision.codes import (
    ALPHABET,
    CardCode,
    CodeRejected,
    RejectReason,
    Variant,
    check_char,
    encode_payload,
    parse_payload,
    symbol_modules,
)


def test_every_card_round_trips() -> None:
    for c in full_pack():
        text = encode_payload("B7", c)
        assert len(text) == 6 and text[3:5] == c.code
        assert parse_payload(text) == CardCode("B7", c)


def test_back_mark_names_the_pack_only() -> None:
    code = parse_payload(encode_payload("R2", None))
    assert code.is_back and code.pack == "R2" and code.card is None


@pytest.mark.parametrize(("text", "reason"), [
    ("HELLO", RejectReason.LENGTH),
    ("1B7AS", RejectReason.LENGTH),
    ("1b7as0", RejectReason.CHARSET),
    ("1B7A$0", RejectReason.CHARSET),
    ("2B7AS" + check_char("2B7AS"), RejectReason.VERSION),
    ("1B7XX" + check_char("1B7XX"), RejectReason.CARD),
    ("1B71S" + check_char("1B71S"), RejectReason.CARD),
])
def test_malformed_payloads_are_rejected(text: str, reason: RejectReason) -> None:
    with pytest.raises(CodeRejected) as err:
        parse_payload(text)
    assert err.value.reason is reason
    assert text in str(err.value)


def test_wrong_check_is_rejected() -> None:
    good = encode_payload("B7", full_pack()[0])
    bad = good[:5] + ALPHABET[(ALPHABET.index(good[5]) + 1) % 36]
    with pytest.raises(CodeRejected) as err:
        parse_payload(bad)
    assert err.value.reason is RejectReason.CHECK


@given(st.sampled_from(full_pack()), st.integers(1, 4), st.sampled_from(ALPHABET))
def test_any_single_wrong_character_is_caught(c, pos, ch) -> None:  # type: ignore[no-untyped-def]
    text = encode_payload("B7", c)
    if text[pos] == ch:
        return
    changed = text[:pos] + ch + text[pos + 1:]
    with pytest.raises(CodeRejected):
        parse_payload(changed)


@given(st.sampled_from(full_pack()), st.integers(1, 3))
def test_swapped_neighbours_are_caught(c, pos) -> None:  # type: ignore[no-untyped-def]
    text = encode_payload("AB", c)
    if text[pos] == text[pos + 1]:
        return
    swapped = text[:pos] + text[pos + 1] + text[pos] + text[pos + 2:]
    with pytest.raises(CodeRejected):
        parse_payload(swapped)


def test_bad_pack_ids_are_refused() -> None:
    for bad in ("", "B", "B77", "b7", "B-"):
        with pytest.raises(ValueError, match="pack id"):
            encode_payload(bad, full_pack()[0])


def test_symbol_sizes() -> None:
    assert symbol_modules(encode_payload("B7", full_pack()[5])).shape == (13, 13)
    assert symbol_modules(encode_payload("B7", full_pack()[5]), Variant.QR).shape == (21, 21)
