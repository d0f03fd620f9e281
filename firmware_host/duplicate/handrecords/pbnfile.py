"""PBN 2.1 hand records: one game (a block of tags ending at an empty line) per board.

The reader takes files as BridgeComposer, Dealer4, Big Deal and scorers write them: it reads
``[Board]``, ``[Dealer]``, ``[Vulnerable]`` and ``[Deal]`` and steps over everything else (other tags,
``{...}`` commentary over any number of lines, ``;`` comments to the end of a line, ``%`` directive
lines, section data such as the calls after ``[Auction]`` or the tricks after ``[Play]``), in UTF-8 or
ISO 8859-1 (a file in UTF-16 or UTF-32 is refused as such), with CR LF, LF or CR line ends. ``"#"`` as a tag value repeats the previous game's value.
A game with neither ``[Board]`` nor ``[Deal]`` (a file header game) is skipped. A missing
``[Dealer]`` or ``[Vulnerable]`` is taken from the board number; a present one must agree with it
(``DB-2``). Those four tags, repeated in one game, must repeat the same value (PBN ignores the
repeat; a different deal is refused). ``N-S`` and ``E-W`` are read as ``NS`` and ``EW``. A ``[Deal]``
with one hand ``-`` and three whole hands is completed (the fourth is the rest of the pack). A board
number given again is the same board only with the same deal (a results file's game for another
table); anything else is refused naming both ``[Board]`` lines first. Games are read one at a time and
the reading stops at the first error or at a board beyond ``MAX_BOARDS`` (999).

The writer writes ``% PBN 2.1`` and, per board, ``[Event]``, ``[Site]``, ``[Date]`` (when given, as PBN's ``YYYY.MM.DD``),
``[Board]``, ``[Dealer]``, ``[Vulnerable]`` and ``[Deal]`` (from the dealer, as PBN's export format
orders it), games separated by an empty line, lines ending in CR LF.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from firmware_host.duplicate.handrecords.errors import (
    MAX_BOARDS,
    HandRecordError,
    check_boards,
    check_db2,
    too_many,
)
from laws.cards import Seat
from laws.duplicate.boards import Vulnerability
from laws.duplicate.deal import Board, Deal

VULNERABLE_SPELLINGS = {"none": Vulnerability.NONE, "love": Vulnerability.NONE, "-": Vulnerability.NONE,
                        "ns": Vulnerability.NS, "ew": Vulnerability.EW,
                        "all": Vulnerability.ALL, "both": Vulnerability.ALL}
_ABSENT = ("", "?")
MAX_NUMBER = 999_999_999     # the most a [Board] may say (9 digits)
OUR_TAGS = ("board", "dealer", "vulnerable", "deal")


@dataclass
class _Game:
    line: int
    tags: dict[str, tuple[str, int]] = field(default_factory=dict)  # lower-case name -> (value, line)


def decode(data: str | bytes) -> str:
    """PBN text from a file's bytes: UTF-8 (with or without a byte order mark), else ISO 8859-1."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


_LINE_END = re.compile(r"\r\n|\r|\n")   # the line ends a PBN file has; not str.splitlines's others (a form
# feed, U+0085, U+2028 ...), which are text in a tag value or a comment of an ISO 8859-1 or UTF-8 file


def _games(text: str, file: str) -> Iterator[_Game]:
    """The games of a PBN text, each with its tags, one at a time (a reader that stops at an error reads
    no further); commentary, comments, directives and section data stepped over."""
    game: _Game | None = None
    in_comment = False
    opened: tuple[int, _Game | None] = (0, None)   # the line and the game of the last '{' opened
    for lineno, line in enumerate(_LINE_END.split(text), 1):
        if not in_comment and not line.strip():
            if game is not None and game.tags:
                yield game
            game = None
            continue
        if not in_comment and line.startswith("%"):
            continue
        i = 0
        while i < len(line):
            if in_comment:
                end = line.find("}", i)
                if end < 0:
                    break
                in_comment, i = False, end + 1
                continue
            c = line[i]
            if c.isspace():
                i += 1
            elif c == ";":
                break
            elif c == "{":
                in_comment, i, opened = True, i + 1, (lineno, game)
            elif c == "[":
                name, value, i = _tag(line, i, lineno, file)
                if game is None:
                    game = _Game(lineno)
                key = name.lower()
                if key in OUR_TAGS and key in game.tags and game.tags[key][0] != value:
                    raise HandRecordError(file, f"given twice with different values (lines {game.tags[key][1]} "
                                          f"and {lineno})", where=f"line {lineno} [{name}]")
                game.tags.setdefault(key, (value, lineno))
            else:  # section data (calls, cards, table rows): step over the token
                while i < len(line) and not line[i].isspace() and line[i] not in "[{;":
                    i += 1
    if in_comment:   # named where it opened: everything after it was taken as commentary
        line, where = opened
        said = where.tags.get("board", ("", 0))[0].strip() if where is not None else ""
        board = int(said) if said.isascii() and said.isdigit() and len(said) <= 9 and int(said) else None
        raise HandRecordError(file, "a '{' commentary opened here is never closed with '}' (everything after "
                              "it is commentary)", board=board, where=f"line {line}")
    if game is not None and game.tags:
        yield game


def _tag(line: str, i: int, lineno: int, file: str) -> tuple[str, str, int]:
    """Parse ``[Name "value"]`` starting at ``line[i] == "["``; returns name, value and the next index."""
    j = i + 1
    while j < len(line) and line[j].isspace():
        j += 1
    k = j
    while k < len(line) and (line[k].isalnum() or line[k] == "_"):
        k += 1
    name = line[j:k]
    while k < len(line) and line[k].isspace():
        k += 1
    if not name or k >= len(line) or line[k] != '"':
        raise HandRecordError(file, f"a tag is not [Name \"value\"]: {line[i:i + 40]!r}", where=f"line {lineno}")
    value, k = [], k + 1
    while k < len(line) and line[k] != '"':
        if line[k] == "\\" and k + 1 < len(line):
            k += 1
        value.append(line[k])
        k += 1
    close = line.find("]", k + 1) if k < len(line) else -1
    if close < 0 or line[k + 1:close].strip():
        raise HandRecordError(file, f"the [{name}] tag does not end with '\"]'", where=f"line {lineno}")
    return name, "".join(value), close + 1


def _value(game: _Game, previous: _Game | None, key: str) -> str | None:
    if key not in game.tags:
        return None
    value = game.tags[key][0]
    if value == "#" and previous is not None and key in previous.tags:
        return previous.tags[key][0]
    return value


_WIDE_MARKS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),   # UTF-32's before UTF-16's:
               (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))                  # FF FE begins both


def _wide(data: bytes) -> str:
    """``UTF-16`` or ``UTF-32`` when the bytes are text in one of them (a byte order mark, or without
    one NUL bytes in half the file's first 200 bytes, where a text in UTF-8 or ISO 8859-1 has none);
    else ``""``. A stray NUL is not enough."""
    for mark, name in _WIDE_MARKS:
        if data.startswith(mark):
            return name
    head = data[:200]
    nuls = head.count(0)
    if len(head) >= 4 and 2 * nuls >= len(head) - 1:
        return "UTF-32" if 4 * nuls >= 3 * len(head) - 3 else "UTF-16"
    return ""


def read_pbn(data: str | bytes, file: str = "<pbn>") -> list[Board]:
    """The boards of a PBN hand record; raises :class:`HandRecordError` naming the file, the board and
    the tag. Games are read one at a time: the first error, or a board beyond :data:`MAX_BOARDS`, ends
    the reading."""
    boards: list[Board] = []
    starts: list[int] = []               # the line of each board's game
    first_line: dict[int, int] = {}      # board number -> the line of its first [Board] tag
    order: dict[int, int] = {}           # board number -> its place in ``boards``
    previous: _Game | None = None
    if isinstance(data, bytes) and (wide := _wide(data)):
        raise HandRecordError(file, f"the file is {wide}, not UTF-8 or ISO 8859-1 (save it as UTF-8)")
    for game in _games(decode(data), file):
        if previous is not None:   # "#" repeats the previous game's value, itself perhaps a "#": a chain
            game.tags.update({k: (previous.tags[k][0], n) for k, (v, n) in game.tags.items()
                              if v == "#" and k in previous.tags})
        board_text, deal_text = _value(game, previous, "board"), _value(game, previous, "deal")
        if board_text is None and deal_text is None:
            previous = game
            continue
        digits = "" if board_text is None else board_text.strip()
        if board_text is None or not (digits.isascii() and digits.isdigit()) or len(digits) > 9 or int(digits) < 1:
            what = "is missing" if board_text is None else (f"{board_text[:20]!r} is not a board number "
                                                            f"(a board number is 1 to {MAX_NUMBER}, in ASCII digits)")
            raise HandRecordError(file, f"[Board] {what}", where=f"game at line {game.line}")
        number = int(digits)
        line = game.tags["board"][1]
        if number in first_line:
            try:
                again = _board(file, number, game, previous, deal_text)
            except HandRecordError as exc:
                said = f"'s {exc.where}{exc.sep}" if exc.where else ": "
                raise _twice(file, number, first_line[number], line, f"the second game{said}{exc.problem}") from None
            if again.deal != boards[order[number]].deal:
                raise _twice(file, number, first_line[number], line, "the two give different deals")
            previous = game     # the same deal: a results file's game for another table, taken once
            continue
        if len(boards) == MAX_BOARDS:
            raise too_many(file, number, f"(the game at line {game.line})")
        order[number] = len(boards)
        boards.append(_board(file, number, game, previous, deal_text))
        first_line[number] = line
        starts.append(game.line)
        previous = game
    if not boards:  # as the BRI and DUP readers say it, naming the file
        raise HandRecordError(file, "no boards in the file (no game with a [Board] and a [Deal] tag)")
    return check_boards(file, boards, [f"the game at line {n}" for n in starts], deal_where="[Deal]")


def _board(file: str, number: int, game: _Game, previous: _Game | None, deal_text: str | None) -> Board:
    """The board one game gives: its [Deal] (one hand '-' is the rest of the pack), and its [Dealer] and
    [Vulnerable] checked against the number."""
    if deal_text is None or deal_text.strip() in _ABSENT:
        raise HandRecordError(file, "is missing: a hand record gives all four hands", board=number,
                              where="[Deal]")
    try:
        deal = Deal.from_pbn(deal_text, complete=True)
    except ValueError as exc:
        raise HandRecordError(file, str(exc), board=number, where="[Deal]") from None
    check_db2(file, number, _dealer(file, number, _value(game, previous, "dealer")),
              _vulnerable(file, number, _value(game, previous, "vulnerable")))
    return Board.numbered(number, deal)


def _twice(file: str, number: int, first: int, second: int, why: str) -> HandRecordError:
    """A board number given again with another board: named first, with both [Board] tags' lines."""
    return HandRecordError(file, f"appears twice: [Board] on lines {first} and {second}; {why}", board=number,
                           sep=" ")


def _dealer(file: str, number: int, text: str | None) -> Seat | None:
    if text is None or text.strip() in _ABSENT:
        return None
    try:
        return Seat(text.strip().upper())
    except ValueError:
        raise HandRecordError(file, f"unknown [Dealer] value {text!r} (want N, E, S or W)", board=number) from None


def _vulnerable(file: str, number: int, text: str | None) -> Vulnerability | None:
    if text is None or text.strip() in ("", "?"):
        return None
    said = text.strip().lower()
    if said not in VULNERABLE_SPELLINGS and len(said) > 1:
        said = said.replace("-", "").replace("/", "")  # N-S, E-W (BridgeNZ's txt2pbn), N/S
    try:
        return VULNERABLE_SPELLINGS[said]
    except KeyError:
        raise HandRecordError(file, f"unknown [Vulnerable] value {text!r} (want None, NS, EW or All; "
                              "Love, - and Both are read too)", board=number) from None


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def pbn_date(date: str) -> str:
    """PBN's ``YYYY.MM.DD`` for a date given as ``YYYY-MM-DD`` (or already in PBN's form); other text as
    it is."""
    return re.sub(r"^(\d{4})-(\d{2})-(\d{2})$", r"\1.\2.\3", date.strip())


def write_pbn(boards: Iterable[Board], *, event: str = "", site: str = "", date: str = "") -> str:
    """A PBN 2.1 hand record of ``boards`` in number order, as text with CR LF line ends; ``date`` is
    written in PBN's ``YYYY.MM.DD`` (``2025-11-30`` is ``2025.11.30``)."""
    games = []
    for b in sorted(boards, key=lambda b: b.number):
        tags = [("Event", event), ("Site", site), ("Date", pbn_date(date))]
        lines = [f'[{k} "{_escape(v)}"]' for k, v in tags if v]
        lines += [f'[Board "{b.number}"]', f'[Dealer "{b.dealer}"]', f'[Vulnerable "{b.vulnerability.value}"]',
                  f'[Deal "{b.deal.pbn(b.dealer)}"]']
        games.append("\r\n".join(lines) + "\r\n")
    return "% PBN 2.1\r\n\r\n" + "\r\n".join(games)
