"""Hand-record files: PBN, BRI and DUP read and written, golden layouts from published examples, every
refusal naming the file, the board and the tag or bytes; new deals and the store of past deals."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_host.duplicate.handrecords.duplimate import DupControl, _control, dge_part
from firmware_host.duplicate.handrecords.handfiles import (
    FingerprintStore,
    HandRecordError,
    dup_control,
    new_boards,
    parse_hand_records,
    read_bri,
    read_dup,
    read_hand_records,
    read_pbn,
    write_bri,
    write_dup,
    write_hand_records,
    write_pbn,
)
from laws.cards import SEATS, Card, Seat, full_pack
from laws.duplicate.boards import Vulnerability, dealer, vulnerability
from laws.duplicate.deal import Board, Deal

# Duplimate's conversion note ("Convert": the DUP, BRI and DGE layouts, with one board worked out):
# the BRI part of its example board and the four hands it prints for it.
NOTE_BRI = b"18043727240822422106250717" b"51503215164929412640314645" b"43351128302039140152133403"
NOTE_HANDS = {Seat.N: "J987.JT7643.A4.Q", Seat.E: ".KQ2.QT9.AK98543",
              Seat.S: "AQ42.A8.KJ762.J2", Seat.W: "KT653.95.853.T76"}
NOTE_DGE = (b"\x06J987\x03JT7643\x04A4\x05Q" b"\x06\x03KQ2\x04QT9\x05AK98543"
            b"\x06AQ42\x03A8\x04KJ762\x05J2" b"\x06KT653\x0395\x04853\x05T76")

# Big Deal 1.2's output of the same two boards as PBN, BRI and DUP (richardschneider/pbn,
# test/sample/big-deal.pbn, .bri, .dup), byte for byte: BRI pads each board to 128 bytes with 32
# spaces and 18 NUL bytes; DUP writes the duplication control on the first board only.
BIG_PBN = """% PBN 1.0
[Generator "Big Deal version 1.2"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84"]

[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Deal "N:AKQ984.KQT7..Q83 7.J63.AJT82.A754 532.854.Q43.KT62 JT6.A92.K9765.J9"]

"""
BIG_NUMBERS = (b"010406151923242629404145510216172122283233343538474903050910111214183031444852",
               b"010203060711151618214246510817222527303133394047495010121320232429373841444852")
PAD = b" " * 32 + b"\x00" * 18
BIG_BRI = BIG_NUMBERS[0] + PAD + BIG_NUMBERS[1] + PAD
BIG_DGE = (b"\x06AJ9\x03K9542\x04Q\x05AK93\x06K\x03QJ76\x04K98763\x0575"
           b"\x06QT6543\x03AT\x04JT\x05T62\x06872\x0383\x04A542\x05QJ84",
           b"\x06AKQ984\x03KQT7\x04\x05Q83\x067\x03J63\x04AJT82\x05A754"
           b"\x06532\x03854\x04Q43\x05KT62\x06JT6\x03A92\x04K9765\x05J9")
BIG_DUP = BIG_NUMBERS[0] + BIG_DGE[0] + b"YN1  0 02 " + BIG_NUMBERS[1] + BIG_DGE[1] + b"\x00" * 10

deals = st.permutations(list(SEATS) * 13).map(Deal.from_assignment)


def _board(number: int, pbn: str) -> Board:
    return Board.numbered(number, Deal.from_pbn(pbn))


# -- golden layouts ------------------------------------------------------------------------------------

def test_duplimate_note_example() -> None:
    (board,) = read_bri(NOTE_BRI, "note.bri")
    assert {s: board.deal.pbn_hand(s) for s in SEATS} == NOTE_HANDS
    assert dge_part(board.deal) == NOTE_DGE
    record = NOTE_BRI + NOTE_DGE + b"YN1  1 1  "
    assert read_dup(record, "note.dup") == [board]
    # The note's control for sets of 32: random Y, backwards N, lowest 1, 1 copy, highest 32.
    assert _control(b"YN1  1 32 ", "x.dup", 1, 146) == DupControl(True, False, 1, 1, 32)
    assert DupControl(True, False, 1, 1, 32).encode() == b"YN1  1 32 "


def test_big_deal_files_agree_and_we_write_the_same_bytes() -> None:
    boards = read_pbn(BIG_PBN, "big-deal.pbn")
    assert read_bri(BIG_BRI, "big-deal.bri") == boards
    assert read_dup(BIG_DUP, "big-deal.dup") == boards
    assert [b.number for b in boards] == [1, 2]
    assert write_bri(boards) == BIG_BRI
    ours = write_dup(boards)
    assert len(ours) == 312
    assert ours[:146] == BIG_DUP[:146] and ours[156:302] == BIG_DUP[156:302]
    assert ours[146:156] == b"YN1  1 2  " and ours[302:] == b"YN1  1 2  "
    assert dup_control(BIG_DUP) == DupControl(True, False, 1, 0, 2)


@pytest.mark.parametrize("data", [
    BIG_NUMBERS[0] + BIG_NUMBERS[1],                              # 78 bytes a board, nothing between
    BIG_NUMBERS[0] + b"\r\n" + BIG_NUMBERS[1] + b"\r\n\x1a",      # a board a line, DOS end of file
    BIG_NUMBERS[0] + b"\n" + BIG_NUMBERS[1],
    BIG_BRI + b"\x00" * 7,
])
def test_bri_layouts_real_files_use(data: bytes) -> None:
    assert read_bri(data, "x.bri") == read_pbn(BIG_PBN)


def test_bri_numbers_from_first() -> None:
    boards = read_bri(BIG_BRI, "x.bri", first=17)
    assert [b.number for b in boards] == [17, 18]
    assert boards[1].dealer is Seat.E and boards[1].vulnerability is Vulnerability.NS  # board 18 = board 2
    assert write_bri(boards, padded=False) == BIG_NUMBERS[0] + BIG_NUMBERS[1]


# -- PBN as other programs write it -------------------------------------------------------------------

REAL_PBN = (
    "\ufeff% PBN 2.1\r\n% EXPORT\r\n%Creator: some scorer\r\n"
    '[Event "Club night"]\r\n[Site "Caf\u00e9"]\r\n[Date "2026.06.22"]\r\n\r\n'   # a header game: skipped
    '[Event "#"]\r\n[Board "1"]\r\n[West "?"]\r\n[Dealer "N"]\r\n[Vulnerable "Love"]\r\n'
    '[Deal "W:872.83.A542.QJ84 AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62"]\r\n'
    '[Declarer "S"]\r\n[Contract "4S"]\r\n[Result "10"]\r\n'
    '[Auction "N"]\r\n1H Pass 1S Pass\r\n2S Pass 4S AP\r\n'
    '[Play "W"]\r\nD2 HA DJ DQ\r\n*\r\n'
    "{A commentary\r\nover [three] lines;\r\nstill commentary}\r\n"
    '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\r\nN S 9\r\nN H 9\r\n'
    '[Note "1:one"]\r\n[Note "2:two"]\r\n'
    '; a comment line\r\n'
    '[Score "NS 420"] ; a comment after a tag\r\n'
    ' \r\n'
    '[Board "2"]\r\n[Vulnerable "N-S"]\r\n'   # no [Dealer]: taken from the number
    '[Deal "E:7.J63.AJT82.A754 532.854.Q43.KT62 JT6.A92.K9765.J9 AKQ984.KQT7..Q83"]\r\n'
    '[Deal "E:7.J63.AJT82.A754 532.854.Q43.KT62 JT6.A92.K9765.J9 AKQ984.KQT7..Q83"]\r\n'  # repeated, same
)


def test_pbn_as_scorers_write_it() -> None:
    assert read_pbn(REAL_PBN.encode("utf-8"), "club.pbn") == read_pbn(BIG_PBN)
    assert read_pbn(REAL_PBN.encode("latin-1", errors="ignore"), "club.pbn") == read_pbn(BIG_PBN)
    assert read_pbn(REAL_PBN.replace("\r\n", "\r"), "club.pbn") == read_pbn(BIG_PBN)


@pytest.mark.parametrize("said, means", [("None", "None"), ("Love", "None"), ("-", "None"), ("NS", "NS"),
                                         ("EW", "EW"), ("All", "All"), ("Both", "All"), ("both", "All"),
                                         ("E-W", "EW"), ("N/S ", "NS")])
def test_vulnerable_spellings(said: str, means: str) -> None:
    number = {"None": 1, "NS": 2, "EW": 3, "All": 4}[means]
    text = f'[Board "{number}"]\n[Vulnerable "{said}"]\n[Deal "{read_pbn(BIG_PBN)[0].deal.pbn()}"]\n'
    assert read_pbn(text)[0].vulnerability.value == means


# -- refusals -----------------------------------------------------------------------------------------

GOOD_1 = "N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84"
GOOD_2 = "N:AKQ984.KQT7..Q83 7.J63.AJT82.A754 532.854.Q43.KT62 JT6.A92.K9765.J9"


def _pbn(*games: str) -> str:
    return "\n\n".join(games) + "\n"


def _game(board: object, deal: str = GOOD_1, extra: str = "") -> str:
    return f'[Board "{board}"]\n{extra}[Deal "{deal}"]'


PBN_REFUSALS = [
    (_pbn(_game(7, GOOD_1.replace("AK93", "AK9"))), "boards.pbn: board 7 [Deal]: North holds 12 cards"),
    (_pbn(_game(1, GOOD_1.replace(" K.QJ76", " A.QJ76"))),
     "boards.pbn: board 1 [Deal]: the ace of spades is in North's and East's hands"),
    (_pbn(_game(3), _game(3, GOOD_2)), "boards.pbn: board 3 appears twice: [Board] on lines 1 and 4; the two give different deals"),
    (_pbn(_game(3, extra='[Dealer "S"]\n'), _game(3, GOOD_2, extra='[Dealer "W"]\n')),
     "boards.pbn: board 3 appears twice: [Board] on lines 1 and 5; the second game's [Dealer] says W but board 3 is dealt by S"),
    (_pbn(_game(2, "N:- K.QJ76.K98763.75 - 872.83.A542.QJ84")),
     "boards.pbn: board 2 [Deal]: North's and South's hands are '-' (unknown): a hand record gives at least three hands"),
    (_pbn(_game(2, GOOD_1.replace("AK93", "AK9").rsplit(" ", 1)[0] + " -")),
     "boards.pbn: board 2 [Deal]: West's hand is '-' (the rest of the pack), but the other three are not 39 different cards: North holds 12 cards"),
    (_pbn(_game(5, extra='[Dealer "S"]\n')),
     "boards.pbn: board 5 [Dealer] says S but board 5 is dealt by N (Duplicate Bridge, law 2)"),
    (_pbn(_game(5, extra='[Vulnerable "EW"]\n')),
     "boards.pbn: board 5 [Vulnerable] says EW but board 5 has North-South vulnerable (Duplicate Bridge, law 2)"),
    (_pbn(_game(5, extra='[Vulnerable "Sometimes"]\n')), "boards.pbn: board 5: unknown [Vulnerable] value 'Sometimes'"),
    (_pbn(_game(5, extra='[Dealer "X"]\n')), "boards.pbn: board 5: unknown [Dealer] value 'X'"),
    (_pbn('[Board "4"]\n[Dealer "W"]'), "boards.pbn: board 4 [Deal]: is missing"),
    (_pbn(f'[Deal "{GOOD_1}"]'), "boards.pbn game at line 1: [Board] is missing"),
    (_pbn(_game("seven")), "boards.pbn game at line 1: [Board] 'seven' is not a board number"),
    (_pbn(_game(0)), "boards.pbn game at line 1: [Board] '0' is not a board number (a board number is 1 to "
                     "999999999, in ASCII digits)"),     # audit 18: it said '(at most 9 digits)' of a 0
    (_pbn(_game(1000000001)), "boards.pbn game at line 1: [Board] '1000000001' is not a board number (a board "
                              "number is 1 to 999999999, in ASCII digits)"),
    (_pbn(_game(1), _game(2)), "boards.pbn: board 2 [Deal]: the same deal as board 1 (a repeated deal; Duplicate Bridge, law 6)"),
    (_pbn(_game(1) + f'\n[Deal "{GOOD_2}"]'), "boards.pbn line 3 [Deal]: given twice with different values (lines 2 and 3)"),
    ('[Board "1"\n', "boards.pbn line 1: the [Board] tag does not end with"),
    ('[Board 1]\n', "boards.pbn line 1: a tag is not [Name \"value\"]"),
    # audit 70 (F4): it said only "boards.pbn: a '{' commentary is never closed with '}'": no board, no line
    (_pbn(_game(1)) + "{ never closed\n", "boards.pbn: board 1 line 3: a '{' commentary opened here is never "
                                          "closed with '}' (everything after it is commentary)"),
    (_pbn(_game(1), _game(2, GOOD_2)) + "\n{ between games\n", "boards.pbn line 7: a '{' commentary opened here"),
    # audit 18: a UTF-16 file was read as ISO 8859-1 ('a tag is not [Name "value"]: '[\x00B\x00o...')
    (_pbn(_game(1)).encode("utf-16"), "boards.pbn: the file is UTF-16, not UTF-8 or ISO 8859-1 (save it as UTF-8)"),
    (_pbn(_game(1)).encode("utf-16-be"), "boards.pbn: the file is UTF-16, not UTF-8 or ISO 8859-1 (save it as UTF-8)"),
    (_pbn(_game(1)).encode("utf-32"), "boards.pbn: the file is UTF-32, not UTF-8 or ISO 8859-1 (save it as UTF-8)"),
    (_pbn(_game(1)).encode("utf-32-be"), "boards.pbn: the file is UTF-32, not UTF-8 or ISO 8859-1 (save it as UTF-8)"),
]


@pytest.mark.parametrize("text, message", PBN_REFUSALS)
def test_pbn_refusals_name_file_board_and_tag(text: str | bytes, message: str) -> None:
    with pytest.raises(HandRecordError) as caught:
        read_pbn(text, "boards.pbn")
    assert str(caught.value).startswith(message), str(caught.value)


BRI_REFUSALS = [
    (BIG_NUMBERS[0][:40] + b"5x" + BIG_NUMBERS[0][42:], "b.bri: board 1 (byte 41): '5x' is not a card number 01-52"),
    (BIG_NUMBERS[0][:2] + b"53" + BIG_NUMBERS[0][4:], "b.bri: board 1 (byte 3): '53' is not a card number"),
    (BIG_NUMBERS[0] + BIG_NUMBERS[1][:26] + b"01" + BIG_NUMBERS[1][28:],
     "b.bri: board 2 (byte 105): card 01 (the ace of spades) is in North's and East's hands"),
    (BIG_NUMBERS[0][:2] * 2 + BIG_NUMBERS[0][4:], "b.bri: board 1 (byte 3): card 01 (the ace of spades) is in North's hand twice"),
    (BIG_NUMBERS[0] + b" " + BIG_NUMBERS[1][:70],
     "b.bri: board 2 (bytes 80-149): the board is cut short: 70 bytes where a board needs 78 (39 card numbers, "
     "13 each for North, East and South)"),
    (BIG_NUMBERS[0] + BIG_NUMBERS[1] + b"3",         # audit 18: a lone digit was '(bytes 157-157): 0 card numbers'
     "b.bri: board 3 (byte 157): the board is cut short: 1 byte where a board needs 78 (39 card numbers, 13 each "
     "for North, East and South)"),
    (b"  \r\n", "b.bri: no boards in the file"),
    (BIG_NUMBERS[0] * 2, "b.bri: board 2: the same deal as board 1 (a repeated deal; Duplicate Bridge, law 6)"),
]


@pytest.mark.parametrize("data, message", BRI_REFUSALS)
def test_bri_refusals_name_the_bytes(data: bytes, message: str) -> None:
    with pytest.raises(HandRecordError, match=re.escape(message)):
        read_bri(data, "b.bri")


DUP_REFUSALS = [
    (BIG_DUP[:80] + b"Q" + BIG_DUP[81:], "d.dup: board 1 (bytes 79-146): the sorted hands do not match the card numbers: "
                                         "North's hand there is S:AQ9 H:K9542 D:Q C:AK93, the card numbers give S:AJ9"),
    (BIG_DUP[:146] + b"XN1  0 02 " + BIG_DUP[156:], "d.dup: board 1 (bytes 147-156): 'XN1  0 02 ' is not duplication control"),
    (BIG_DUP[:146] + b"YN1  1 32 " + BIG_DUP[156:], "d.dup: board 1 (bytes 147-156): the duplication control says boards 1-32 but the file holds 2"),
    (BIG_DUP[:200], "d.dup: board 2 (bytes 157-200): 44 bytes where a board needs 156"),
    (BIG_DUP[:2] + b"xx" + BIG_DUP[4:], "d.dup: board 1 (byte 3): 'xx' is not a card number"),
]


@pytest.mark.parametrize("data, message", DUP_REFUSALS)
def test_dup_refusals_name_the_bytes(data: bytes, message: str) -> None:
    with pytest.raises(HandRecordError, match=re.escape(message)):
        read_dup(data, "d.dup")


def test_dup_with_blank_sorted_hands_and_control_is_read() -> None:
    blank = BIG_NUMBERS[0] + b" " * 68 + b"\x00" * 10
    assert read_dup(blank, "d.dup", first=5)[0].number == 5


def test_writers_refuse_what_the_format_cannot_carry() -> None:
    b = read_pbn(BIG_PBN)
    gap = [b[0], Board.numbered(3, b[1].deal)]
    with pytest.raises(HandRecordError, match="boards must be consecutive, but board 3 follows board 1"):
        write_bri(gap)
    with pytest.raises(HandRecordError, match="boards must be consecutive"):
        write_dup(gap)
    with pytest.raises(HandRecordError, match="no boards"):
        write_bri([])


# -- round trips --------------------------------------------------------------------------------------

@settings(max_examples=30)
@given(st.lists(deals, min_size=1, max_size=5, unique_by=lambda d: d.fingerprint), st.integers(1, 40))
def test_every_format_reads_back_what_it_wrote(ds: list[Deal], first: int) -> None:
    boards = [Board.numbered(first + i, d) for i, d in enumerate(ds)]
    assert read_pbn(write_pbn(boards, event='A "quoted" \\ event')) == boards
    assert read_bri(write_bri(boards), first=first) == boards
    assert read_bri(write_bri(boards, padded=False), first=first) == boards
    assert read_dup(write_dup(boards)) == boards  # numbered from the control's lowest board


def test_endplay_reads_our_pbn() -> None:
    from endplay.parsers import pbn as endplay_pbn
    from endplay.types import Deal as EndplayDeal
    from endplay.types import Player, Vul

    boards = [Board.numbered(n, d) for n, d in zip(range(1, 6), [b.deal for b in new_boards(5)])]
    theirs = endplay_pbn.loads(write_pbn(boards, event="Club night", date="2026.06.22"))
    assert len(theirs) == 5
    vul = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}
    for ours, their in zip(boards, theirs):
        assert their.board_num == ours.number
        assert their.vul == vul[ours.vulnerability.value]
        assert their.deal.to_pbn() == EndplayDeal(ours.deal.pbn(Seat.N)).to_pbn()
        assert their.deal[Player.north].to_pbn() == ours.deal.pbn_hand(Seat.N)
        assert their.info["Event"] == "Club night"


def test_files_by_extension(tmp_path) -> None:  # type: ignore[no-untyped-def]
    boards = read_pbn(BIG_PBN)
    for ext in ("pbn", "BRI", "dup"):
        path = tmp_path / f"set.{ext}"
        assert write_hand_records(path, boards) == 2
        assert read_hand_records(path) == boards
        with pytest.raises(HandRecordError, match=f"set.{ext}: already exists"):
            write_hand_records(path, boards)
        write_hand_records(path, boards, overwrite=True)
    assert parse_hand_records(BIG_BRI, "bri", "x") == boards
    with pytest.raises(HandRecordError, match="unknown extension '.txt'"):
        read_hand_records(tmp_path / "set.txt")
    with pytest.raises(HandRecordError, match="missing.pbn: cannot be read"):
        read_hand_records(tmp_path / "missing.pbn")
    with pytest.raises(HandRecordError, match="is a directory"):
        (tmp_path / "d.pbn").mkdir()
        write_hand_records(tmp_path / "d.pbn", boards)


# -- new deals and the store --------------------------------------------------------------------------

def test_new_boards_follow_db2_and_differ() -> None:
    boards = new_boards(20, 5)
    assert [b.number for b in boards] == list(range(5, 25))
    assert all(b.dealer is dealer(b.number) and b.vulnerability is vulnerability(b.number) for b in boards)
    assert len({b.fingerprint for b in boards}) == 20
    assert boards.notes == []


def test_new_boards_use_the_operating_systems_randomness(monkeypatch: pytest.MonkeyPatch) -> None:
    import secrets

    used = []

    class Recording(secrets.SystemRandom):
        def shuffle(self, x) -> None:  # type: ignore[no-untyped-def, override]
            used.append(len(x))
            super().shuffle(x)

    monkeypatch.setattr(secrets, "SystemRandom", Recording)
    new_boards(3)
    assert used == [52, 52, 52]


def _scripted(*orders: list[Card]):  # type: ignore[no-untyped-def]
    """A shuffle that lays the pack out in the given orders, one a call."""
    calls = iter(orders)

    def shuffle(pack: list[Card]) -> None:
        pack[:] = next(calls)
    return shuffle


def test_a_repeated_deal_is_drawn_again_and_said() -> None:
    from firmware_host.duplicate.handrecords.newdeals import deal_of

    a, b, c = list(full_pack()), list(reversed(full_pack())), list(full_pack())[13:] + list(full_pack())[:13]

    boards = new_boards(2, shuffle=_scripted(a, a, b, c), seen={deal_of(b).fingerprint})
    assert [x.deal for x in boards] == [deal_of(a), deal_of(c)]
    assert boards.notes == [
        "board 2: drew the deal of board 1 again; drew again (Duplicate Bridge, law 6)",
        f"board 2: drew a deal the club has used before ({deal_of(b).fingerprint[:12]}...); drew again "
        "(Duplicate Bridge, law 6)",
    ]
    with pytest.raises(RuntimeError, match="the shuffle is not random"):
        new_boards(2, shuffle=_scripted(*[a] * 5), attempts=4)
    with pytest.raises(ValueError, match="whole number from 1"):
        new_boards(0)


def test_the_store_appends_and_reads_back(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = FingerprintStore(tmp_path / "data")
    assert store.fingerprints() == frozenset()
    first = read_pbn(BIG_PBN)
    assert store.record(first, "Monday  pairs\n2026-06-22") == 2
    again = new_boards(1)
    store.record(again, "Tuesday")
    lines = store.path.read_text().splitlines()
    assert lines[0].startswith("# cardtable deal fingerprints 1")
    assert lines[1] == f"{first[0].fingerprint} 1 Monday pairs 2026-06-22"
    assert len(lines) == 4
    assert store.fingerprints() == {b.fingerprint for b in first + list(again)}
    assert store.entries()[first[1].fingerprint] == "board 2 of session 'Monday pairs 2026-06-22'"
    assert new_boards(3, seen=store.fingerprints()).notes == []
    store.path.write_text(store.path.read_text() + "not a fingerprint line\n")
    with pytest.raises(HandRecordError, match=r"deal-fingerprints.txt line 5: not '<fingerprint> <board> <session>'"):
        store.entries()
    with pytest.raises(ValueError, match="a session needs a name"):
        store.record(first, "  ")


def test_the_documented_messages_are_the_ones_given() -> None:
    """docs/handrecords.md's table of messages: each one is what a refusal above says, word for word."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "handrecords.md").read_text(encoding="utf-8")
    documented = [m for row in re.findall(r"^\| [^|]+ \| `(.+)` \|$", doc, re.M) for m in row.split("`; `")]
    given = []
    for read, cases, name in ((read_pbn, PBN_REFUSALS, "boards.pbn"), (read_bri, BRI_REFUSALS, "b.bri"),
                              (read_dup, DUP_REFUSALS, "d.dup")):
        for data, _ in cases:
            with pytest.raises(HandRecordError) as caught:
                read(data, name)  # type: ignore[operator]
            given.append(str(caught.value))
    assert len(documented) > 10
    for message in documented:
        if not message.startswith(("bought.pbn", "hi.dup")):  # the CLI's (tests/host/test_boards_cli.py,
            # tests/duplicate/test_cli_attacks.py)
            assert message in given, message


_D1 = "N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84"


@pytest.mark.parametrize("text", [
    b'[Event "Caf\x85 night"]\n[Board "1"]\n[Deal "' + _D1.encode() + b'"]\n',         # ISO 8859-1's "..." byte
    ('[Event "a\u2028b"]\n[Board "1"]\n[West "Ann\u0085"]\n[Deal "' + _D1 + '"]\n').encode(),   # in UTF-8
    b'[Board "1"]\f[Deal "' + _D1.encode() + b'"]\n',                                     # a form feed between tags
])
def test_a_pbn_line_ends_only_at_cr_lf_lf_or_cr(text: bytes) -> None:
    """docs/handrecords.md: lines end in CR LF, LF or CR. The reader split at every line end Python knows (a
    form feed, U+0085 (ISO 8859-1's byte 85), U+2028), so such a character in an ignored tag's value cut the
    tag in two and the file was refused."""
    [board] = read_pbn(text, "x.pbn")
    assert board.number == 1 and board.deal == Deal.from_pbn(_D1)


def test_a_line_number_after_a_comment_holding_byte_85_is_the_files() -> None:
    text = b'{ a comment \x85 of one line }\n[Board "1"]\n[Deal "' + _D1.encode() + b'"]\n\n[Board "2"\n'
    with pytest.raises(HandRecordError, match=r"x\.pbn line 5: the \[Board\] tag"):
        read_pbn(text, "x.pbn")


def test_a_hash_value_repeats_the_previous_games_value_along_a_chain() -> None:
    """'#' repeats the previous game's value; the third game's '#' took the second's raw '#'."""
    text = f'[Board "1"]\n[Deal "{_D1}"]\n\n[Board "1"]\n[Deal "#"]\n\n[Board "1"]\n[Deal "#"]\n'
    assert [b.deal for b in read_pbn(text, "x.pbn")] == [Deal.from_pbn(_D1)]
