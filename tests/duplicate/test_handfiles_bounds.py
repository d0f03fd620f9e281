"""Hand-record files as a club meets them (issues 28 items 7 and 9, 30 section 3): a PBN deal with one
hand ``-`` is completed from the other three; a board given twice is named first; a file is read with a
bound (999 boards, 8 MiB) and the reading stops at the first error; a FIFO, a device or a folder is
refused at once by every command that reads hand records (the five ``boards`` verbs that take a file and
``duplicate open``), never waited on."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.duplicate.handrecords.errors import MAX_BOARDS, MAX_BYTES
from firmware_host.duplicate.handrecords.handfiles import (
    HandRecordError,
    read_hand_records,
    read_pbn,
    render_hand_records,
)
from laws.cards import SEATS, Seat
from laws.duplicate.deal import Board, Deal

ROOT = Path(__file__).resolve().parents[2]
BOARD_1 = "N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84"


def _boards(count: int, seed: int = 3) -> list[Board]:
    rng = random.Random(seed)
    out = []
    for n in range(1, count + 1):
        seats = [SEATS[k % 4] for k in range(52)]
        rng.shuffle(seats)
        out.append(Board.numbered(n, Deal(tuple(seats))))
    return out


@pytest.mark.parametrize("unknown", list(Seat))
@pytest.mark.parametrize("first", [Seat.N, Seat.E])
def test_one_unknown_hand_beside_three_whole_ones_is_the_rest_of_the_pack(unknown: Seat, first: Seat) -> None:
    whole = Deal.from_pbn(BOARD_1)
    order = SEATS[SEATS.index(first):] + SEATS[:SEATS.index(first)]
    hands = [("-" if s is unknown else whole.pbn_hand(s)) for s in order]
    text = f'[Board "1"]\n[Deal "{first.value}:{" ".join(hands)}"]\n'
    (board,) = read_pbn(text, "one-unknown.pbn")
    assert board.deal == whole and board.deal.pbn() == BOARD_1


def test_a_board_copied_without_its_number_changed_is_named_as_a_repeat_first() -> None:
    b3, b4 = _boards(4)[2:4]
    text = (f'[Board "3"]\n[Dealer "S"]\n[Vulnerable "EW"]\n[Deal "{b3.deal.pbn()}"]\n\n'
            f'[Board "3"]\n[Dealer "W"]\n[Vulnerable "All"]\n[Deal "{b4.deal.pbn()}"]\n')
    with pytest.raises(HandRecordError) as caught:
        read_pbn(text, "club.pbn")
    assert str(caught.value).startswith("club.pbn: board 3 appears twice: [Board] on lines 1 and 6; ")


@pytest.mark.parametrize("kind", ["pbn", "bri", "dup"])
def test_a_file_with_one_board_more_than_the_limit_is_refused_at_that_board(tmp_path: Path, kind: str) -> None:
    boards = _boards(MAX_BOARDS + 1)
    if kind == "dup":                   # DUP's own control cannot say 1000 boards: a blank control
        from firmware_host.duplicate.handrecords.duplimate import write_dup  # (render refuses board 1000)

        data = b"".join(write_dup([b])[:146] + b" " * 10 for b in boards)
    else:
        data = render_hand_records(boards, kind)
    path = tmp_path / f"thousand.{kind}"
    path.write_bytes(data)
    with pytest.raises(HandRecordError) as caught:
        read_hand_records(path)
    assert caught.value.board == MAX_BOARDS + 1
    assert f"one board more than {MAX_BOARDS}" in str(caught.value) and "a few hundred boards" in str(caught.value)
    path.write_bytes(render_hand_records(boards[:MAX_BOARDS], kind) if kind != "dup" else data[:156 * MAX_BOARDS])
    assert len(read_hand_records(path)) == MAX_BOARDS        # the limit itself is read


@pytest.mark.parametrize("kind", ["pbn", "bri", "dup"])
def test_a_file_over_the_byte_limit_is_refused_by_its_size_before_it_is_read(tmp_path: Path, kind: str) -> None:
    path = tmp_path / f"huge.{kind}"
    with path.open("wb") as f:
        f.truncate(64 * MAX_BYTES)                         # sparse: 512 MiB that take no room on the disk
    with pytest.raises(HandRecordError) as caught:
        read_hand_records(path)
    assert str(caught.value) == (f"{path}: is {64 * MAX_BYTES:,} bytes: a hand-record file holds at most "
                                 f"{MAX_BOARDS} boards and 8 MiB (a club's set is a few hundred boards at most); not read")


def test_the_reading_stops_at_the_first_broken_board(tmp_path: Path) -> None:
    boards = _boards(2)
    good = render_hand_records(boards[:1], "bri", )
    broken = b"5x" + render_hand_records(boards[1:2], "bri")[2:78]
    path = tmp_path / "b.bri"
    path.write_bytes(good + broken + b"\x00" * (MAX_BYTES - len(good) - len(broken)))
    with pytest.raises(HandRecordError, match=rf"^{re.escape(str(path))}: board 2 \(byte 129\): '5x' is not a card number"):
        read_hand_records(path)


def test_a_device_or_a_folder_is_not_a_hand_record_file(tmp_path: Path) -> None:
    (tmp_path / "null.pbn").symlink_to("/dev/null")
    (tmp_path / "folder.pbn").mkdir()
    with pytest.raises(HandRecordError, match=rf"^{re.escape(str(tmp_path))}/null.pbn: is a character device, not a hand-record file"):
        read_hand_records(tmp_path / "null.pbn")
    with pytest.raises(HandRecordError, match=rf"^{re.escape(str(tmp_path))}/folder.pbn: is a folder, not a hand-record file"):
        read_hand_records(tmp_path / "folder.pbn")


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    """The command as a user runs it; a hang is a failure (the timeout), not a stuck suite."""
    try:
        return subprocess.run([sys.executable, "-m", "firmware_host.cli", *argv], cwd=ROOT, capture_output=True,
                              text=True, timeout=60, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"cardtable {' '.join(argv)} waited on the FIFO for 60 s")


def test_a_fifo_is_refused_at_once_by_every_command_that_reads_hand_records(tmp_path: Path) -> None:
    fifo = tmp_path / "boards.pbn"
    os.mkfifo(fifo)
    want = f"{fifo}: is a FIFO (a named pipe), not a hand-record file: name a regular .pbn, .bri or .dup file"
    for argv in (("boards", "check", str(fifo)), ("boards", "convert", str(fifo), str(tmp_path / "out.bri")),
                 ("boards", "commit", str(fifo)), ("boards", "verify", str(fifo), "--commitment", "0" * 64),
                 ("boards", "deal", "--records", str(fifo), "--journal", str(tmp_path / "j.sqlite3"))):
        done = _run(*argv)
        assert done.returncode == 2, (argv, done.stdout, done.stderr)
        assert done.stderr == f"cardtable boards: {want}\n", (argv, done.stderr)
    assert not (tmp_path / "out.bri").exists() and not (tmp_path / "j.sqlite3").exists()
    done = _run("duplicate", "open", "--dir", str(tmp_path / "session"), "--hand-records", str(fifo), "--pairs", "8",
                "--boards-per-round", "2", "--movement", "mitchell")
    assert (done.returncode, done.stderr) == (2, f"cardtable duplicate open: {want}\n")
    assert not (tmp_path / "session").exists()


def test_a_dup_is_read_board_by_board_a_broken_board_2_named_whatever_follows(tmp_path: Path) -> None:
    """docs/handrecords.md, "How big a file may be": the reading stops at the first error. A DUP with a bad card
    number in board 2 and its last board cut short was refused for board 6, the whole file sliced first."""
    data = bytearray(render_hand_records(_boards(6), "dup"))
    data[156:158] = b"5x"                       # board 2's first card number
    path = tmp_path / "broken.dup"
    path.write_bytes(bytes(data[:-10]))         # and board 6 cut short
    with pytest.raises(HandRecordError) as caught:
        read_hand_records(path)
    assert caught.value.board == 2 and "'5x' is not a card number" in str(caught.value), str(caught.value)
    path.write_bytes(render_hand_records(_boards(6), "dup")[:-10])   # only cut short: that is named
    with pytest.raises(HandRecordError, match="board 6 .*146 bytes where a board needs 156"):
        read_hand_records(path)
