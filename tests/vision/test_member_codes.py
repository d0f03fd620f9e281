"""Issue 29, item 1: the member code (vision/CARD_CODES.md, "Member cards"): its payload and check
character as the document's worked example works them out, every card and bidding reader rejecting it,
and the printed sheet (``cardtable labels --members``) read back from its PNG by the house's decoder:
each member's number, never a card or a call."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from firmware_host.cli import main
from vision.codes import (
    CodeRejected,
    RejectReason,
    encode_member_payload,
    member_symbol,
    parse_code,
    parse_member_payload,
)
from vision.decode import make_decoder

DOC = (Path(__file__).resolve().parents[2] / "vision" / "CARD_CODES.md").read_text(encoding="utf-8")


def test_the_worked_example_and_the_symbol_of_the_document() -> None:
    assert encode_member_payload("1021") == "M11021E"
    assert parse_member_payload("M11021E").number == "1021"
    part = DOC[DOC.index("## Member cards"):]
    rows = "\n".join("".join("#" if v == 0 else "." for v in row) for row in member_symbol("M11021E"))
    assert rows in part and "`M11021E`" in part


def _version_and_level(symbol: np.ndarray) -> str:
    """``M3-M``: a Micro QR symbol's version (from its side) and the level zxing-cpp reads in it."""
    import zxingcpp

    page = np.kron(np.pad(symbol, 4, constant_values=255), np.ones((8, 8), np.uint8))
    (read,) = zxingcpp.read_barcodes(page, formats=zxingcpp.BarcodeFormat.MicroQRCode)
    return f"M{(symbol.shape[0] - 9) // 2}-{read.ec_level}"


def test_the_document_names_the_level_the_member_symbol_is_printed_at() -> None:
    """Audit 61: the document called the member symbol "Micro QR, level L", but ``member_symbol`` (zxing-cpp's
    writer asked for L) raises the level to M where the payload fits the version at M: the worked example's
    symbol, and the document's matrix of it, read as M3-M."""
    part = DOC[DOC.index("## Member cards"):DOC.index("### Why a member card is never")]
    assert _version_and_level(member_symbol("M11021E")) == "M3-M"
    assert "`M11021E` (7 characters) is an M3-M symbol" in part
    rows = part[part.index("```\n") + 4:part.index("\n```", part.index("```\n"))].split("\n")
    doc_symbol = np.array([[0 if c == "#" else 255 for c in row] for row in rows], np.uint8)
    assert _version_and_level(doc_symbol) == "M3-M" and (doc_symbol == member_symbol("M11021E")).all()
    # the rule the document gives, at the edges of each version's capacity (letters only: one mode throughout)
    for letters, want in ((2, "M2-M"), (3, "M2-L"), (4, "M3-M"), (8, "M3-M"), (9, "M3-L"), (12, "M4-M"),
                          (15, "M4-M"), (16, "M4-L")):
        payload = encode_member_payload("ABCDEFGHIJKLMNOP"[:letters])
        assert _version_and_level(member_symbol(payload)) == want, payload
    assert all(f"{want}" in part for want in ("M2-M", "M2-L", "M3-M", "M3-L", "M4-M", "M4-L"))


@pytest.mark.parametrize("text, reason", [
    ("M11021F", RejectReason.CHECK), ("M21021E", RejectReason.VERSION), ("1B7TDY", RejectReason.VERSION),
    ("BN1H1Z", RejectReason.VERSION), ("M1E", RejectReason.LENGTH), ("M1102a1", RejectReason.CHARSET),
    ("M1" + "1" * 17 + "X", RejectReason.LENGTH),
])
def test_a_member_reader_rejects_what_is_not_a_member_code(text: str, reason: RejectReason) -> None:
    with pytest.raises(CodeRejected) as info:
        parse_member_payload(text)
    assert info.value.reason is reason


@pytest.mark.parametrize("number", ["1021", "102", "1", "ABCDEF1234567890"])
def test_a_member_code_is_never_a_card_nor_a_call(number: str) -> None:
    with pytest.raises(CodeRejected) as info:
        parse_code(encode_member_payload(number))
    assert info.value.reason in (RejectReason.LENGTH, RejectReason.VERSION)


def test_labels_members_prints_cards_the_decoder_reads_as_members_only(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    roster = tmp_path / "roster.csv"
    roster.write_text("Member,Name\n1021,Ann Smith\n1045,Bob Jones\n20077,Émile Zola\n", encoding="utf-8")
    assert main(["labels", "--members", str(roster), "--out", str(tmp_path / "cards")]) == 0
    assert "wrote 3 member cards" in capsys.readouterr().out
    page = np.array(Image.open(tmp_path / "cards-1.png").convert("RGB"))
    reading = make_decoder("zxing").read(page)
    assert reading.sightings == () and reading.calls == ()             # never a card nor a call
    assert sorted(parse_member_payload(r.text).number for r in reading.rejections) == ["1021", "1045", "20077"]
    roster.write_text("1021,Ann\nab-1,Bob\n", encoding="utf-8")
    assert main(["labels", "--members", str(roster)]) == 2
    assert capsys.readouterr().err == (f"cardtable labels: {roster}: line 2: member number 'ab-1' cannot go on a member "
                                       "card: want 1 to 16 characters of 0-9 and A-Z\n")
    roster.write_text("1021,Ann\n1021,Bob\n", encoding="utf-8")
    assert main(["labels", "--members", str(roster)]) == 2
    assert "line 2: member number 1021 is on line 1 too" in capsys.readouterr().err


def test_labels_members_refuses_the_qr_variant_it_would_not_print(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """p1: ``labels --members ROSTER --variant qr`` printed Micro QR member cards and said nothing: a member
    code is a Micro QR (CARD_CODES.md, "Member cards"), and a club whose tables read with pyzbar (QR only)
    would find out at the table. ``--variant micro`` is what it prints, so that is still taken."""
    roster = tmp_path / "roster.csv"
    roster.write_text("1021,Ann\n", encoding="utf-8")
    assert main(["labels", "--members", str(roster), "--variant", "qr", "--out", str(tmp_path / "c")]) == 2
    assert capsys.readouterr().err == ("cardtable labels: --members prints member cards, always Micro QR: leave out "
                                       "--variant qr\n")
    assert not (tmp_path / "c.pdf").exists()
    assert main(["labels", "--members", str(roster), "--variant", "micro", "--out", str(tmp_path / "c")]) == 0


def test_readme_offers_the_member_cards_only_the_sheets_they_print_on(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """p1: README's line for ``labels --members`` offered ``--sheet a4|letter|avery-22806``; the command refuses
    the die-cut sheet (CARD_CODES.md gives ``a4|letter``)."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `cardtable labels --members"))
    command, words = row.split("` |", 1)
    roster = tmp_path / "roster.csv"
    roster.write_text("1021,Ann\n", encoding="utf-8")
    assert main(["labels", "--members", str(roster), "--sheet", "avery-22806", "--out", str(tmp_path / "c")]) == 2
    assert "not 'avery-22806'" in capsys.readouterr().err
    assert "avery" not in command and "`a4` (the default) or `letter`" in words, row


def _frame(cards: dict[tuple[int, int], str]) -> np.ndarray:
    """A 1600 x 900 frame of the default 800 x 450 mm table (2 px a mm), member cards' codes at the points."""
    frame = np.full((900, 1600, 3), 255, np.uint8)
    for (x, y), number in cards.items():
        sym = np.kron(np.pad(member_symbol(encode_member_payload(number)), 2, constant_values=255),
                      np.ones((7, 7), np.uint8))
        h, w = sym.shape
        frame[y - h // 2:y - h // 2 + h, x - w // 2:x - w // 2 + w] = sym[:, :, None]
    return frame


def test_the_watcher_tells_each_member_card_once_at_its_seat() -> None:
    from laws.cards import Seat
    from vision.watcher import TableWatcher

    w = TableWatcher(make_decoder("zxing"))
    both = _frame({(800, 110): "1021", (800, 790): "1045", (800, 450): "2222"})   # N, S, and one in the centre
    assert w.feed(both) == [] and w.take_members() == []                  # one frame is not enough
    assert w.feed(both) == []
    assert sorted(w.take_members()) == [(Seat.N, "1021"), (Seat.S, "1045")]   # the centre's is at no seat
    for _ in range(3):
        w.feed(both)
    assert w.take_members() == []                                         # told once
    assert w.stats.rejected["length"] >= 3 and not w.visible()            # never a card
