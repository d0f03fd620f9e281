"""The one checked reader (``wire.reader.read_json``): every refusal is data with its kind and words,
never an exception, whatever the payload; nesting is counted on the text, brackets in strings aside."""

from __future__ import annotations

import pytest

from firmware_host.wire.reader import LongNumber, read_json, too_deep


@pytest.mark.parametrize(("text", "deep"), [
    ("[" * 33 + "]" * 33, True), ("[" * 32 + "]" * 32, False), ("[[]" * 40, True), ("[[]]" * 100, False),
    ("[" * 60000, True), ('{"a": [1, 2', False), ("[" * 20 + "[[]" * 13 + "]" * 33, True),
    ('{"a": "' + "[" * 100 + '"}', False), ('{"a": "\\"' + "[" * 100 + '"}', False),
])
def test_nesting_is_counted_outside_strings(text: str, deep: bool) -> None:
    assert too_deep(text, 32) is deep


@pytest.mark.parametrize(("payload", "kind", "words"), [
    (b"[" * 2000 + b"]" * 2000, "nesting", "nested too deeply (more than 32 levels)"),
    (b"[" * 60000, "nesting", "nested too deeply"),
    (b"x" * 70000, "size", "over the 65536-byte limit"),
    (b'{"a": "\xff"}', "utf8", "not UTF-8 text (invalid start byte at byte 8)"),
    (b'{"a": ', "json", "bad JSON (Expecting value at column 7)"),
    (b'{"a": "\\ud800"}', "surrogate", "field 'a' holds a lone surrogate escape"),
    # a board message's field inside its body is named by its own key, as docs/mqtt.md's example has it
    # ('body' was named: the outermost key)
    (b'{"kind": "board", "body": {"ns": "\\ud800"}}', "surrogate", "field 'ns' holds a lone surrogate escape"),
    (b'{"body": {"play": ["AS", "\\udfff"]}}', "surrogate", "field 'play' holds a lone surrogate escape"),
])
def test_each_refusal_is_data_with_its_kind_and_words(payload: bytes, kind: str, words: str) -> None:
    read = read_json(payload)
    assert not read.ok and read.refusal is not None
    assert read.refusal.kind == kind and words in read.refusal.why, read.refusal


def test_what_the_club_sends_is_read_and_a_long_number_is_kept_as_its_length() -> None:
    read = read_json(b'{"table": "t1", "seq": 7, "body": {"calls": [["N", "1S"]], "x": "[[[[\\\\ud800"}}')
    assert read.ok and read.value["body"]["calls"] == [["N", "1S"]]
    long = read_json(b'{"seq": ' + b"9" * 5000 + b"}")
    assert long.ok and isinstance(long.value["seq"], LongNumber) and long.value["seq"].digits == 5000
