"""An outsider's reader and scorer of our results files, written from the documents alone.

Written from docs/laws.md's DB- clauses, docs/scoring.md, docs/session.md and the PBN 2.1 / USEBIO 1.2
formats, without reading the scoring code or tests/duplicate/recompute.py: a second, independent
scorer. It reads a results PBN (tags, section data, `...Table` tags with their column headers) and a
USEBIO file, and recomputes every board's score, vulnerability, dealer, matchpoints (with Neuberg and
fouled groups inferred from the cards as played), percentages and the ranking.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from fractions import Fraction

SEATS = "NESW"
# docs/laws.md DB-2: the vulnerability of boards 1..16, repeating.
VUL16 = ["None", "NS", "EW", "All", "NS", "EW", "All", "None",
         "EW", "All", "None", "NS", "All", "None", "NS", "EW"]


def dealer_of(board: int) -> str:
    return SEATS[(board - 1) % 4]


def vul_of(board: int) -> str:
    return VUL16[(board - 1) % 16]


# --- PBN ------------------------------------------------------------------------------------------

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')


@dataclass
class Game:
    tags: dict[str, str] = field(default_factory=dict)
    data: dict[str, list[str]] = field(default_factory=dict)


def read_pbn(text: str) -> list[Game]:
    games: list[Game] = []
    game = Game()
    last = None
    for raw in text.replace("\r\n", "\n").split("\n"):
        line = raw.rstrip()
        if line.startswith("%"):
            continue
        if not line.strip():
            if game.tags:
                games.append(game)
            game, last = Game(), None
            continue
        m = TAG.match(line)
        if m:
            name, value = m.group(1), m.group(2)
            assert name not in game.tags, f"tag {name} twice"
            game.tags[name] = value
            game.data[name] = []
            last = name
        else:
            assert last is not None, f"section data without a tag: {line!r}"
            game.data[last].append(line)
    if game.tags:
        games.append(game)
    return games


def tokens(line: str) -> list[str]:
    """A table row's values: quoted strings (with PBN's \\" and \\\\ escapes kept) or bare tokens."""
    return [a or b for a, b in re.findall(r'"((?:[^"\\]|\\.)*)"|(\S+)', line)]


def table_rows(game: Game, tag: str) -> list[dict[str, str]]:
    """A `...Table` tag's rows as dicts keyed by column name (PBN 2.1 column header)."""
    names = [c.split("\\")[0] for c in game.tags[tag].split(";")]
    rows = []
    for line in game.data[tag]:
        toks = tokens(line)
        assert len(toks) == len(names), f"{tag}: {line!r} has {len(toks)} values for {names}"
        rows.append(dict(zip(names, toks)))
    return rows


# --- DB-77 --------------------------------------------------------------------------------------

def contract_score(contract: str, tricks: int, vulnerable: bool) -> int:
    """Declarer's side's score (DB-77) for e.g. '4SX' making `tricks`."""
    m = re.fullmatch(r"([1-7])(NT|S|H|D|C)(X{0,2})", contract)
    assert m, contract
    level, strain, dbl = int(m.group(1)), m.group(2), len(m.group(3))
    mult = (1, 2, 4)[dbl]
    need = level + 6
    if tricks >= need:
        per = 20 if strain in "CD" else 30
        trick_pts = (level * per + (10 if strain == "NT" else 0)) * mult
        score = trick_pts
        score += (500 if vulnerable else 300) if trick_pts >= 100 else 50
        if level == 6:
            score += 750 if vulnerable else 500
        if level == 7:
            score += 1500 if vulnerable else 1000
        score += (0, 50, 100)[dbl]
        over = tricks - need
        if dbl == 0:
            score += over * per
        else:
            score += over * (200 if vulnerable else 100) * (mult // 2)
        return score
    down = need - tricks
    if dbl == 0:
        return -down * (100 if vulnerable else 50)
    pen = 0
    for i in range(1, down + 1):
        if vulnerable:
            pen += 200 if i == 1 else 300
        else:
            pen += 100 if i == 1 else (200 if i <= 3 else 300)
    return -pen * (mult // 2)


def ns_score(contract: str, declarer: str, tricks: int, board: int) -> int:
    if contract.upper() in ("PASS", "AP", "P"):
        return 0
    vul = vul_of(board)
    side = "NS" if declarer in "NS" else "EW"
    vulnerable = vul == "All" or vul == side
    s = contract_score(contract, tricks, vulnerable)
    return s if side == "NS" else -s


# IMP table (docs/laws.md DB-78): lower edges of 1..24 IMPs.
IMP_EDGES = [20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300,
             1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000]


def imps(diff: int) -> int:
    n = sum(1 for e in IMP_EDGES if abs(diff) >= e)
    return n if diff >= 0 else -n


# --- play ---------------------------------------------------------------------------------------

def played_hands(game: Game) -> tuple[dict[str, frozenset[str]], int] | None:
    """The hands as played (seat -> cards) and declarer's tricks, from [Play]; None if incomplete."""
    if "Play" not in game.tags or not game.data.get("Play"):
        return None
    leader = game.tags["Play"]
    order = [SEATS[(SEATS.index(leader) + i) % 4] for i in range(4)]
    strain = re.match(r"[1-7](NT|S|H|D|C)", game.tags["Contract"]).group(1)
    trump = None if strain == "NT" else strain
    hands: dict[str, set[str]] = {s: set() for s in SEATS}
    lead_seat = leader
    decl = game.tags["Declarer"]
    won = 0
    complete = True
    for line in game.data["Play"]:
        if line.strip() == "*":
            complete = False
            break
        cards = line.split()
        if len(cards) != 4 or "-" in cards or "*" in cards:
            complete = False
            break
        by_seat = dict(zip(order, cards))
        for s, c in by_seat.items():
            hands[s].add(c)
        led = by_seat[lead_seat][0]
        winner = max(SEATS, key=lambda seat, cards=by_seat, led=led: trick_key(cards[seat], trump, led))
        if winner in decl or SEATS[(SEATS.index(winner) + 2) % 4] == decl:
            won += 1
        lead_seat = winner
    if not complete or sum(len(h) for h in hands.values()) != 52:
        return None
    return {s: frozenset(h) for s, h in hands.items()}, won


def trick_key(card: str, trump: str | None, led: str) -> tuple[int, int]:
    """A card's strength in a trick: trumps over the suit led over the rest, then rank."""
    return (2 if card[0] == trump else 1 if card[0] == led else 0, "23456789TJQKA".index(card[1]))


def deal_hands(deal: str) -> dict[str, frozenset[str]]:
    first, rest = deal.split(":")
    out = {}
    for i, hand in enumerate(rest.split()):
        seat = SEATS[(SEATS.index(first) + i) % 4]
        cards = set()
        for suit, holding in zip("SHDC", hand.split(".")):
            cards |= {suit + r for r in holding}
        out[seat] = frozenset(cards)
    return out


# --- matchpoints --------------------------------------------------------------------------------

def mp_among(scores: list[int]) -> list[Fraction]:
    return [Fraction(sum(2 if s > o else 1 if s == o else 0 for j, o in enumerate(scores) if j != i))
            for i, s in enumerate(scores)]


def neuberg(mp: Fraction, n: int, due: int) -> Fraction:
    return (mp + 1) * Fraction(due, n) - 1


def fmt(x: Fraction) -> str:
    """Two decimals, an exact half rounded away from zero (docs/scoring.md, Presentation)."""
    q = abs(x) * 100
    whole = int(q)
    if q - whole >= Fraction(1, 2):
        whole += 1
    sign = "-" if x < 0 and whole else ""
    return f"{sign}{whole // 100}.{whole % 100:02d}"


def usebio(path: str) -> ET.Element:
    return ET.parse(path).getroot()


# --- a whole board, from docs/scoring.md alone ----------------------------------------------------

@dataclass(frozen=True)
class OLine:
    """One traveller line as the outsider sees it: a played score, an assigned (split) score or an
    artificial one (percentages), in a fouled-board group."""

    ns_pair: int
    ew_pair: int
    kind: str  # "played", "assigned", "artificial"
    ns: int  # NS view score (played/assigned) or NS percent (artificial)
    ew: int  # NS view score for the EW side (split assigned) or EW percent
    group: str = "A"


def round_datum(mean: Fraction) -> int:
    """Nearest 10; an exact 5 goes to the even ten (docs/scoring.md §7), symmetric for negatives."""
    sign = -1 if mean < 0 else 1
    q, rem = divmod(abs(mean), 10)
    q = int(q)
    if rem > 5 or (rem == 5 and q % 2 == 1):
        q += 1
    return sign * q * 10


ART_IMPS = {60: 3, 50: 0, 40: -3}


def score_board(lines: list[OLine], due: int, method: str) -> list[tuple[Fraction, Fraction]]:
    """(NS points, EW points) of each line; method 'mp', 'mp-half', 'butler' or 'cross'."""
    half = method == "mp-half"
    top = Fraction(due - 1) if half else Fraction(2 * (due - 1))
    real = [i for i, ln in enumerate(lines) if ln.kind != "artificial"]
    groups: dict[str, list[int]] = {}
    for i in real:
        groups.setdefault(lines[i].group, []).append(i)
    out: dict[int, tuple[Fraction, Fraction]] = {}
    for i, ln in enumerate(lines):
        if ln.kind == "artificial":
            if method in ("butler", "cross"):
                out[i] = (Fraction(ART_IMPS[ln.ns]), Fraction(ART_IMPS[ln.ew]))
            else:
                out[i] = (Fraction(ln.ns, 100) * top, Fraction(ln.ew, 100) * top)
    for members in groups.values():
        n = len(members)
        if len(groups) > 1 and n < 3 and 3 * n < due:
            for i in members:
                out[i] = ((Fraction(3), Fraction(3)) if method in ("butler", "cross")
                          else (Fraction(6, 10) * top, Fraction(6, 10) * top))
            continue
        nsv = [lines[i].ns for i in members]
        ewv = [lines[i].ew for i in members]
        for k, i in enumerate(members):
            if method in ("mp", "mp-half"):
                unit, one = (Fraction(1), Fraction(1, 2)) if half else (Fraction(2), Fraction(1))
                a = sum(unit if nsv[k] > o else one if nsv[k] == o else 0
                        for j, o in enumerate(nsv) if j != k)
                b = sum(unit if ewv[k] < o else one if ewv[k] == o else 0
                        for j, o in enumerate(ewv) if j != k)
                c = one  # the +1 (or +½) of Neuberg
                out[i] = ((a + c) * Fraction(due, n) - c, (b + c) * Fraction(due, n) - c)
            elif method == "butler":
                def datum(vals: list[int]) -> int:
                    s = sorted(vals)
                    if len(s) >= 3:  # docs/laws.md DB-78: the highest and the lowest dropped
                        s = s[1:-1]
                    return round_datum(Fraction(sum(s), len(s)))
                out[i] = (Fraction(imps(nsv[k] - datum(nsv))), Fraction(-imps(ewv[k] - datum(ewv))))
            else:
                if n <= 1:
                    out[i] = (Fraction(0), Fraction(0))
                    continue
                f = Fraction(1, n - 1)  # docs/laws.md DB-78: over the number of comparisons
                sn = sum(imps(nsv[k] - o) for j, o in enumerate(nsv) if j != k)
                se = sum(imps(o - ewv[k]) for j, o in enumerate(ewv) if j != k)
                out[i] = (sn * f, se * f)
    return [out[i] for i in range(len(lines))]


def places(figures: dict[object, Fraction]) -> dict[object, str]:
    """'1', '2=' ...: equal exact figures share a place; the next place skips (docs §9)."""
    res = {}
    for k, v in figures.items():
        better = sum(1 for o in figures.values() if o > v)
        equal = sum(1 for o in figures.values() if o == v)
        res[k] = f"{better + 1}{'=' if equal > 1 else ''}"
    return res


# --- the auction and play of a table's game (PBN 2.1 sections, docs/laws.md BP-22) ---------------------

def auction_result(game: Game) -> tuple[str, str]:
    """(contract, declarer) the game's [Auction] ends in: the last bid with its doubles after it, and the
    player of that side who first named its strain; ("Pass", "") when all four passed."""
    seat = game.tags["Auction"]
    calls = [c for line in game.data["Auction"] for c in line.split() if not c.startswith(("=", "$"))]
    bids: list[tuple[str, str]] = []   # (seat, bid)
    doubles = ""
    for call in calls:
        up = call.upper()
        if re.fullmatch(r"[1-7](NT|S|H|D|C)", up):
            bids.append((seat, up))
            doubles = ""
        elif up == "X":
            doubles = "X"
        elif up == "XX":
            doubles = "XX"
        seat = SEATS[(SEATS.index(seat) + 1) % 4]
    if not bids:
        return "Pass", ""
    last_seat, last = bids[-1]
    strain = last[1:]
    side = {last_seat, SEATS[(SEATS.index(last_seat) + 2) % 4]}
    declarer = next(s for s, b in bids if s in side and b[1:] == strain)
    return last + doubles, declarer


def play_tricks(game: Game) -> tuple[int, int, bool]:
    """(declarer's tricks, defenders' tricks, complete) from [Play]: each trick's winner by the cards."""
    leader = game.tags["Play"]
    order = [SEATS[(SEATS.index(leader) + i) % 4] for i in range(4)]
    strain = re.match(r"[1-7](NT|S|H|D|C)", game.tags["Contract"]).group(1)
    trump = None if strain == "NT" else strain
    decl = game.tags["Declarer"]
    won = lost = 0
    lead_seat = leader
    for line in game.data["Play"]:
        if line.strip() == "*":
            return won, lost, False
        by_seat = dict(zip(order, line.split()))
        if len(by_seat) < 4 or "-" in by_seat.values():
            return won, lost, False
        led = by_seat[lead_seat][0]
        winner = max(SEATS, key=lambda seat, cards=by_seat, led=led: trick_key(cards[seat], trump, led))
        if winner in (decl, SEATS[(SEATS.index(decl) + 2) % 4]):
            won += 1
        else:
            lost += 1
        lead_seat = winner
    return won, lost, won + lost == 13


# --- USEBIO, as the readers we checked find it ----------------------------------------------------

def usebio_lines(root: ET.Element) -> dict[int, list[dict[str, str]]]:
    """Board -> its TRAVELLER_LINEs as dicts of element text, from EVENT/BOARD (one session, one
    section: no SESSION/SECTION wrapper)."""
    out: dict[int, list[dict[str, str]]] = {}
    for board in root.findall("EVENT/BOARD"):
        number = int(board.findtext("BOARD_NUMBER") or 0)
        out[number] = [{child.tag: (child.text or "") for child in line} for line in board.findall("TRAVELLER_LINE")]
    return out


def usebio_oline(line: dict[str, str], board: int) -> OLine:
    """A USEBIO traveller line as the outsider scores it: ``A6040`` is artificial (60 % / 40 %), and so
    is ``A60.5/39.5`` (halves: a slash between); any other SCORE is North-South's score, checked against
    the contract when there is one."""
    score = line["SCORE"]
    ns, ew = int(line["NS_PAIR_NUMBER"]), int(line["EW_PAIR_NUMBER"])
    m = re.fullmatch(r"A(\d\d)(\d\d)", score) or re.fullmatch(r"A([\d.]+)/([\d.]+)", score)
    if m:
        return OLine(ns, ew, "artificial", Fraction(m.group(1)), Fraction(m.group(2)))  # type: ignore[arg-type]
    value = int(score)
    if line["CONTRACT"]:
        contract = "Pass" if line["CONTRACT"] == "PASS" else line["CONTRACT"]
        tricks = int(line["TRICKS"] or 0)
        assert ns_score(contract, line["PLAYED_BY"], tricks, board) == value, line
    return OLine(ns, ew, "played", value, value)
