"""An outsider's reader and scorer of an event's results files, written from docs/competitions.md and
docs/scoring.md alone (not from the code that writes them): it recomputes every score, IMP, VP,
matchpoint, total and place in results.pbn and results.xml and returns what does not agree; a line
with the director's assigned score (no contract) is taken as it stands, as the document says; an
artificial adjusted score (average-plus, average, average-minus: each side's award) is scored as
docs/scoring.md §5 and §10 say (+3/0/−3 IMPs, 60/50/40 % of the top, the real results compared among
themselves and factored by Neuberg). It
also reads who each competitor is from both files (``names_pbn``, ``names_usebio``; PBN's quoted
string cells) and checks they agree with each other and with the published page (``check_names``)."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from fractions import Fraction

VUL16 = ["None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All", "None", "NS", "EW"]
IMP_STEPS = [20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500, 1750, 2000,
             2250, 2500, 3000, 3500, 4000]


AWARD_IMPS = {"A+": 3, "A=": 0, "A-": -3}
AWARD_PCT = {"A+": 60, "A=": 50, "A-": 40}


def award_margin(ns: int, ew: int) -> int:
    """A board adjusted with IMP awards, as the first side's margin: mirrored awards are one result,
    others each side's own (a negative award counting to the other side)."""
    return ns if ns == -ew else ns - ew


def award_totals(first: int, second: int) -> tuple[int, int]:
    """The IMPs each side is credited with for an adjusted board (docs/scoring.md §10)."""
    if first == -second:
        return max(first, 0), max(second, 0)
    return max(first, 0) + max(-second, 0), max(second, 0) + max(-first, 0)


def mps(items: list[object]) -> list[tuple[Fraction, Fraction]]:
    """A board's matchpoints (2-scale) for each item: a North-South score (int) or an adjusted line's
    awards ``(ns, ew)``. The awards get their share of the top for all the lines; the real scores are
    compared among themselves and factored to all the lines by Neuberg."""
    due = len(items)
    top = 2 * (due - 1)
    real = [x for x in items if isinstance(x, int)]
    n = len(real)
    out = []
    for x in items:
        if not isinstance(x, int):
            a, b = x  # type: ignore[misc]
            out.append((Fraction(AWARD_PCT[a], 100) * top, Fraction(AWARD_PCT[b], 100) * top))
            continue
        ns = Fraction(sum(2 if x > o else 1 if x == o else 0 for o in real) - 1)
        ew = 2 * (n - 1) - ns
        if n != due:
            ns, ew = (ns + 1) * Fraction(due, n) - 1, (ew + 1) * Fraction(due, n) - 1
        out.append((ns, ew))
    return out


def imps(diff: int) -> int:
    won = sum(1 for step in IMP_STEPS if abs(diff) >= step)
    return won if diff >= 0 else -won


def score(contract: str, declarer: str, tricks: int, board: int) -> int:
    """North-South's duplicate score (docs/scoring.md §1)."""
    if contract.upper() in ("PASS", ""):
        return 0
    m = re.fullmatch(r"([1-7])(C|D|H|S|NT)(X{0,2})", contract.upper())
    assert m, f"contract {contract!r}"
    level, strain, dbl = int(m.group(1)), m.group(2), len(m.group(3))
    vul = VUL16[(board - 1) % 16]
    side = "NS" if declarer in "NS" else "EW"
    vulnerable = vul == "All" or vul == side
    need = level + 6
    if tricks >= need:
        per = 20 if strain in "CD" else 30
        base = per * level + (10 if strain == "NT" else 0)
        base *= (1, 2, 4)[dbl]
        total = base + (50 if base < 100 else (500 if vulnerable else 300))
        if level == 6:
            total += 750 if vulnerable else 500
        if level == 7:
            total += 1500 if vulnerable else 1000
        total += (0, 50, 100)[dbl]
        over = tricks - need
        total += over * (per if dbl == 0 else (200 if vulnerable else 100) * dbl)
    else:
        down = need - tricks
        if dbl == 0:
            total = -down * (100 if vulnerable else 50)
        else:
            steps = [200, 300, 300] if vulnerable else [100, 200, 200]
            pen = sum(steps[min(k, 2)] if (vulnerable or k < 3) else 300 for k in range(down))
            total = -pen * dbl
    return total if side == "NS" else -total


def _round_half_up(x: float) -> int:
    return math.floor(x + 0.5)


def wbf_table(boards: int) -> list[int]:
    """VPs ×100 for margins 0..ceil(15√N) (docs/scoring.md §10: formula, rounding, the correction)."""
    blitz = 15 * math.sqrt(boards)
    tau = (math.sqrt(5) - 1) / 2
    top = math.ceil(blitz)
    vals = [min(2000, _round_half_up(100 * (10 + 10 * (1 - tau ** (3 * m / blitz)) / (1 - tau ** 3))))
            for m in range(top + 1)]
    vals[-1] = 2000
    again = True
    while again:
        again = False
        for m in range(1, len(vals) - 1):
            if vals[m + 1] - vals[m] > vals[m] - vals[m - 1]:
                vals[m] += 1
                again = True
    return vals


def vp_of(scale: str, margin: int, boards: int) -> Fraction:
    if scale == "WBF_CONTINUOUS":
        table = wbf_table(boards)
        v = table[min(abs(margin), len(table) - 1)]
        return Fraction(v if margin >= 0 else 2000 - v, 100)
    words = scale.split()
    assert words[0] == "DISCRETE", scale
    total, thresholds = int(words[1]), [int(w) for w in words[2:]]
    won = total // 2 + sum(1 for t in thresholds[1:] if abs(margin) >= t)
    return Fraction(won if margin >= 0 else total - won)


def two(x: Fraction | int) -> str:
    """Two decimals, a half away from zero."""
    f = Fraction(x)
    n = abs(f) * 100
    whole = math.floor(n + Fraction(1, 2))
    s = f"{whole // 100}.{whole % 100:02d}"
    return ("-" if f < 0 and whole else "") + s


def butler_datum(scores: list[int]) -> int:
    vals = sorted(scores)
    if len(vals) >= 3:
        vals = vals[1:-1]
    mean = Fraction(sum(vals), len(vals))
    return round(mean / 10) * 10     # Python's round: an exact half goes to the even ten


def places(keys: list[tuple[object, ...]]) -> list[str]:
    out = []
    for i, k in enumerate(keys):
        first = keys.index(k)
        out.append(f"{first + 1}=" if keys.count(k) > 1 else str(i + 1))
    return out


def knockout_places(matches: dict[tuple[int, int, int], tuple[int, int]], teams: list[int]) -> dict[int, str]:
    """A knock-out's places from its matches, ``(round, home, away) -> (home's IMPs, away's)``
    (docs/competitions.md, "The event"): a match is won on IMPs, a tie by the lower number (the better
    seed); a team's place is one more than the number of teams that went further (beaten in a later
    round, or never beaten), shared ("3=") with the teams beaten in the same round. ``teams`` in the
    order listed: that order must be the places', teams sharing a place by number."""
    out: dict[int, int] = {}
    for (rnd, a, b), (ia, ib) in matches.items():
        out[b if ia > ib or (ia == ib and a < b) else a] = rnd
    still = max(out.values(), default=0) + 1
    reached = {t: out.get(t, still) for t in teams}
    got = {}
    for t in teams:
        better = sum(1 for o in teams if reached[o] > reached[t])
        shared = sum(1 for o in teams if reached[o] == reached[t]) > 1
        got[t] = f"{better + 1}=" if shared else str(better + 1)
    if teams != sorted(teams, key=lambda t: (-reached[t], t)):
        got = {t: f"{p} (listed out of the bracket's order)" for t, p in got.items()}
    return got


# --- PBN ------------------------------------------------------------------------------------------

def read_pbn(text: str) -> list[dict[str, object]]:
    games: list[dict[str, object]] = []
    game: dict[str, object] = {}
    table: str | None = None
    for line in text.split("\r\n"):
        if line.startswith("%"):
            continue
        if not line.strip():
            if game:
                games.append(game)
            game, table = {}, None
            continue
        m = re.match(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', line)
        if m:
            name, value = m.group(1), m.group(2)
            game[name] = value
            table = name if name.endswith("Table") else None
            if table:
                cols = [c.split("\\")[0] for c in value.split(";")]
                game[name] = {"columns": cols, "rows": []}
            continue
        assert table is not None, f"a row outside a table: {line!r}"
        tab = game[table]
        assert isinstance(tab, dict)
        tab["rows"].append(dict(zip(tab["columns"], _cells(line))))
    if game:
        games.append(game)
    return games


def _cells(line: str) -> list[str]:
    """A table row's values: a quoted string (PBN's escapes undone) is one value, else space-separated."""
    out = []
    for tok in re.findall(r'"(?:[^"\\]|\\.)*"|\S+', line):
        out.append(re.sub(r"\\(.)", r"\1", tok[1:-1]) if tok.startswith('"') else tok)
    return out


def names_pbn(text: str) -> dict[object, tuple[str, list[str]]]:
    """Who each competitor is by results.pbn's TotalScoreTable: (team name or "", players' names); in
    an event of sections a pair is ``"A 3NS"`` (its Section and PairId), once however many fields rank it."""
    table = read_pbn(text)[0]["TotalScoreTable"]
    assert isinstance(table, dict)
    out: dict[object, tuple[str, list[str]]] = {}
    for row in table["rows"]:
        number: object
        if "Section" in row:
            number = f"{row['Section']} {row['PairId']}"
        else:
            number = int(row.get("TeamId") or row.get("PairId") or row["PlayerId"])
        names = row.get("Names", "")
        out[number] = (row.get("TeamName", ""), names.split(" - ") if names else [])
    return out


def names_usebio(data: bytes) -> dict[object, tuple[str, list[str]]]:
    """Who each competitor is by results.xml's PARTICIPANTS: (team name or "", players' names); in an
    event of sections each SECTION's PARTICIPANTS, a pair as ``"A 3NS"`` (section, number, direction)."""
    root = ET.fromstring(data)
    out: dict[object, tuple[str, list[str]]] = {}
    for section in root.iter("SECTION"):
        for el in section.findall("PARTICIPANTS/PAIR"):
            key = f"{section.get('SECTION_ID')} {_t(el, 'PAIR_NUMBER')}{_t(el, 'DIRECTION')}"
            out[key] = ("", [n for p in el.findall("PLAYER") if (n := _t(p, "PLAYER_NAME"))])
    parts = root.find("EVENT/PARTICIPANTS")
    if parts is None:
        return out
    for el in parts:
        if el.tag == "TEAM":
            out[int(_t(el, "TEAM_NUMBER"))] = (_t(el, "TEAM_NAME"), [_t(p, "PLAYER_NAME") for p in el.findall("PLAYER")])
        elif el.tag == "PAIR":
            out[int(_t(el, "PAIR_NUMBER"))] = ("", [n for p in el.findall("PLAYER") if (n := _t(p, "PLAYER_NAME"))])
        else:
            name = _t(el, "PLAYER_NAME")
            out[int(_t(el, "PLAYER_NUMBER"))] = ("", [name] if name else [])
    return out


def check_names(pbn: str, xml: bytes, index_html: str) -> list[str]:
    """The names agree between the two files, and each named competitor's names are on the published
    page; what disagrees."""
    import html as _html

    problems = []
    a, b = names_pbn(pbn), names_usebio(xml)
    if a != b:
        problems.append(f"the names differ: PBN {a} and USEBIO {b}")
    page = _html.unescape(index_html)
    for number, (team, players) in b.items():
        for n in [team, *players] if players else []:
            if n and n not in page:
                problems.append(f"{n!r} ({number}) is not on the published page")
    return problems


def _int(v: str) -> int | None:
    return None if v == "-" else int(v)


def check_pbn(text: str) -> list[str]:
    """Every figure of an event's results.pbn recomputed; what disagrees (empty when all agree)."""
    problems: list[str] = []
    games = read_pbn(text)
    first = games[0]
    scoring = first["Scoring"]
    scale = str(first.get("VPScale", ""))
    bye = Fraction(str(first.get("ByeScore", "0")))
    per_round: dict[int, set[int]] = defaultdict(set)
    rows_of: dict[int, list[dict[str, str]]] = {}
    for g in games:
        board = int(str(g["Board"]))
        rows = g["ScoreTable"]["rows"]  # type: ignore[index]
        rows_of[board] = rows
        for row in rows:
            per_round[int(row["Round"])].add(board)
            if row["Score_NS"] in AWARD_PCT:     # an adjusted line: each side's award, no contract
                if row["Contract"] != "-" or row["Score_EW"] not in AWARD_PCT:
                    problems.append(f"board {board} round {row['Round']} table {row['Table']}: an award "
                                    f"{row['Score_NS']}/{row['Score_EW']} with contract {row['Contract']}")
                row["_adj"] = f"{row['Score_NS']}/{row['Score_EW']}"
                continue
            got_ns, got_ew = _int(row["Score_NS"]), _int(row["Score_EW"])
            if row["Contract"] == "-":   # the director's assigned score: the score cells as they stand
                ns = got_ns if got_ns is not None else -(got_ew or 0)
            else:
                ns = score(row["Contract"], row["Declarer"], int(row["Result"]) if row["Result"] != "-" else 0, board)
            want = (0, 0) if ns == 0 else ((ns, None) if ns > 0 else (None, -ns))
            if (got_ns, got_ew) != want:
                problems.append(f"board {board} round {row['Round']} table {row['Table']}: scores "
                                f"{row['Score_NS']}/{row['Score_EW']}, recomputed {want}")
            row["_ns"] = str(ns)
    boards_per_round = max(len(b) for b in per_round.values())
    matches: dict[tuple[int, int, int], list[int]] = {}
    if scoring == "IMP":
        for board, rows in rows_of.items():
            by_key = {(int(r["Round"]), r["Room"], int(r["Team_NS"])): r for r in rows}
            for r in rows:
                if r["Room"] != "Open":
                    continue
                rnd, home, away = int(r["Round"]), int(r["Team_NS"]), int(r["Team_EW"])
                closed = by_key.get((rnd, "Closed", away))
                if closed is None or int(closed["Team_EW"]) != home:
                    problems.append(f"board {board}: no closed room for {home} v {away}")
                    continue
                m = matches.setdefault((rnd, home, away), [0, 0])
                if "_adj" in r or "_adj" in closed:     # the board's awards, home's and away's
                    if "_adj" in r:
                        h, a = (AWARD_IMPS[x] for x in r["_adj"].split("/"))
                    else:
                        a, h = (AWARD_IMPS[x] for x in closed["_adj"].split("/"))
                    got = (int(r["IMP_NS"]), int(r["IMP_EW"]), int(closed["IMP_NS"]), int(closed["IMP_EW"]))
                    if got != (h, a, a, h):
                        problems.append(f"board {board}: {home} v {away} adjusted IMPs {got}, recomputed {h}/{a}")
                    credit = award_totals(h, a)
                    m[0] += credit[0]
                    m[1] += credit[1]
                    continue
                won = imps(int(r["_ns"]) - int(closed["_ns"]))
                if (int(r["IMP_NS"]), int(r["IMP_EW"]), int(closed["IMP_NS"]), int(closed["IMP_EW"])) != (
                        won, -won, -won, won):
                    problems.append(f"board {board}: {home} v {away} IMPs, recomputed {won} to {home}")
                m[0 if won > 0 else 1] += abs(won)
    elif scoring == "Butler":
        for board, rows in rows_of.items():
            real = [r for r in rows if "_adj" not in r]
            datum = butler_datum([int(r["_ns"]) for r in real]) if real else 0
            for r in rows:
                key = (int(r["Round"]), int(r["PairId_NS"]), int(r["PairId_EW"]))
                m = matches.setdefault(key, [0, 0])   # each side's gains, as a teams match's (§10-11)
                if "_adj" in r:     # an adjusted table is not in the datum: its awards in IMPs
                    ns_i, ew_i = (AWARD_IMPS[x] for x in r["_adj"].split("/"))
                    want = (ns_i, ew_i)
                    credit = award_totals(ns_i, ew_i)
                    m[0] += credit[0]
                    m[1] += credit[1]
                else:
                    won = imps(int(r["_ns"]) - datum)
                    want = (won, -won)
                    m[0 if won > 0 else 1] += abs(won)
                if (int(r["IMP_NS"]), int(r["IMP_EW"])) != want:
                    problems.append(f"board {board} table {r['Table']}: Butler {r['IMP_NS']}, recomputed {want}")
    elif first.get("Competition") == "Pairs":
        return problems + _check_sections_pbn(games, rows_of)
    else:
        return problems + _check_individual_pbn(games, rows_of)
    # matches and the ranking
    vp: dict[int, Fraction] = defaultdict(Fraction)
    net: dict[int, int] = defaultdict(int)
    listed = {}
    for row in first["MatchTable"]["rows"]:  # type: ignore[index]
        rnd, home = int(row["Round"]), int(row["Home"])
        if row["Away"] == "-":
            if Fraction(row["VP_Home"]) != bye:
                problems.append(f"round {rnd}: bye of {home} scores {row['VP_Home']}, not {two(bye)}")
            vp[home] += bye
            continue
        listed[(rnd, home, int(row["Away"]))] = row
    if set(listed) != set(matches):
        problems.append(f"the matches listed {sorted(listed)} are not the matches played {sorted(matches)}")
    for key, (a, b) in matches.items():
        rnd, home, away = key
        va = vp_of(scale, a - b, boards_per_round)
        total = 20 if scale == "WBF_CONTINUOUS" else int(scale.split()[1])
        row = listed.get(key)
        want = [str(a), str(b), two(va), two(total - va)]
        if row is not None and [row["IMP_Home"], row["IMP_Away"], row["VP_Home"], row["VP_Away"]] != want:
            problems.append(f"round {rnd} {home} v {away}: {row}, recomputed {want}")
        vp[home] += va
        vp[away] += total - va
        net[home] += a - b
        net[away] += b - a
    ranking = first["TotalScoreTable"]["rows"]  # type: ignore[index]
    who = "TeamId" if "TeamId" in ranking[0] else "PairId"
    keys = [(vp[int(r[who])], net[int(r[who])]) for r in ranking]
    if first.get("EventType") == "KO":     # a knock-out's ranking follows the bracket, not the VPs
        bracket = knockout_places({k: (a, b) for k, (a, b) in matches.items()}, [int(r[who]) for r in ranking])
        ranks = [bracket[int(r[who])] for r in ranking]
    else:
        if keys != sorted(keys, reverse=True):
            problems.append("the ranking is not in order of VPs then net IMPs")
        ranks = places(keys)
    for r, place in zip(ranking, ranks):
        c = int(r[who])
        if [r["TotalScoreVP"], r["TotalIMP"], r["Rank"]] != [two(vp[c]), str(net[c]), place]:
            problems.append(f"{who} {c}: {r['TotalScoreVP']} VPs, {r['TotalIMP']} IMPs, place {r['Rank']}; "
                            f"recomputed {two(vp[c])}, {net[c]}, {place}")
    return problems


def _matchpoints(rows: list[dict[str, str]]) -> list[tuple[Fraction, Fraction]]:
    return mps([tuple(r["_adj"].split("/")) if "_adj" in r else int(r["_ns"]) for r in rows])


def _check_sections_pbn(games: list[dict[str, object]], rows_of: dict[int, list[dict[str, str]]]) -> list[str]:
    """Pairs in sections: matchpoints within each section, or across the field ([Across "Yes"])."""
    problems = []
    across = games[0].get("Across") == "Yes"
    total: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
    tops: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
    boards: dict[tuple[str, str], int] = defaultdict(int)
    for board, rows in rows_of.items():
        groups: dict[str, list[dict[str, str]]] = defaultdict(list)
        for r in rows:
            groups["field" if across else r["Section"]].append(r)
        for group in groups.values():
            top = 2 * (len(group) - 1)
            for r, (ns, ew) in zip(group, _matchpoints(group)):
                if (r["MP_NS"], r["MP_EW"]) != (two(ns), two(ew)):
                    problems.append(f"board {board} section {r['Section']} table {r['Table']}: MPs "
                                    f"{r['MP_NS']}/{r['MP_EW']}, recomputed {two(ns)}/{two(ew)}")
                for pair, pts in ((r["PairId_NS"], ns), (r["PairId_EW"], ew)):
                    key = (r["Section"], pair)
                    total[key] += pts
                    tops[key] += top
                    boards[key] += 1
    by_field: dict[str, list[dict[str, str]]] = defaultdict(list)
    for r in games[0]["TotalScoreTable"]["rows"]:  # type: ignore[index]
        by_field[r["Field"]].append(r)
    for field, ranking in by_field.items():
        keys = []
        for r in ranking:
            key = (r["Section"], r["PairId"])
            pct = total[key] / tops[key] * 100
            keys.append((pct,))
            if [r["TotalScoreMP"], r["TotalPercentage"], r["NrBoards"]] != [two(total[key]), two(pct), str(boards[key])]:
                problems.append(f"{field} {r['PairId']}: {r}, recomputed {two(total[key])} {two(pct)}")
        if keys != sorted(keys, reverse=True):
            problems.append(f"{field}: not in order of percentage")
        for r, place in zip(ranking, places(keys)):
            if r["Rank"] != place:
                problems.append(f"{field} {r['PairId']}: place {r['Rank']}, recomputed {place}")
    return problems


def _check_individual_pbn(games: list[dict[str, object]], rows_of: dict[int, list[dict[str, str]]]) -> list[str]:
    problems = []
    total: dict[int, Fraction] = defaultdict(Fraction)
    tops: dict[int, Fraction] = defaultdict(Fraction)
    boards: dict[int, int] = defaultdict(int)
    for board, rows in rows_of.items():
        top = 2 * (len(rows) - 1)
        for r, (ns, ew) in zip(rows, _matchpoints(rows)):
            if (r["MP_NS"], r["MP_EW"]) != (two(ns), two(ew)):
                problems.append(f"board {board} table {r['Table']}: MPs {r['MP_NS']}/{r['MP_EW']}, "
                                f"recomputed {two(ns)}/{two(ew)}")
            for seat, pts in (("North", ns), ("South", ns), ("East", ew), ("West", ew)):
                p = int(r[seat])
                total[p] += pts
                tops[p] += top
                boards[p] += 1
    ranking = games[0]["TotalScoreTable"]["rows"]  # type: ignore[index]
    keys = [(total[int(r["PlayerId"])] / tops[int(r["PlayerId"])],) for r in ranking]
    if keys != sorted(keys, reverse=True):
        problems.append("the players are not in order of percentage")
    for r, place in zip(ranking, places(keys)):
        p = int(r["PlayerId"])
        want = [two(total[p]), two(total[p] / tops[p] * 100), str(boards[p]), place]
        if [r["TotalScoreMP"], r["TotalPercentage"], r["NrBoards"], r["Rank"]] != want:
            problems.append(f"player {p}: {r}, recomputed {want}")
    return problems


# --- USEBIO ---------------------------------------------------------------------------------------

def _t(el: ET.Element, tag: str) -> str:
    found = el.find(tag)
    assert found is not None, f"{el.tag} has no {tag}"
    return found.text or ""


def check_usebio(data: bytes) -> list[str]:
    """Every figure of an event's results.xml recomputed; what disagrees."""
    problems: list[str] = []
    root = ET.fromstring(data)
    event = root.find("EVENT")
    assert event is not None
    kind = event.get("EVENT_TYPE")
    if kind == "PAIRS":
        return _check_sections_usebio(event)
    per_round = int(_t(event, "BOARDS_PER_ROUND"))
    scale = _t(event, "VP_SCALE")

    def line_score(line: ET.Element, board: int) -> object:
        adjusted = line.find("ADJUSTED_SCORE")
        if adjusted is not None:         # the director's awards, North-South's and East-West's
            return tuple((adjusted.text or "").split("/"))
        if not _t(line, "CONTRACT"):     # the director's assigned score: SCORE as it stands
            return int(_t(line, "SCORE"))
        tricks = _t(line, "TRICKS")
        want = score(_t(line, "CONTRACT"), _t(line, "PLAYED_BY"), int(tricks) if tricks else 0, board)
        if int(_t(line, "SCORE")) != want:
            problems.append(f"board {board} table {_t(line, 'TABLE_NUMBER')}: SCORE {_t(line, 'SCORE')}, "
                            f"recomputed {want}")
        return want

    if kind == "INDIVIDUAL":
        total: dict[int, Fraction] = defaultdict(Fraction)
        for board in event.findall("BOARD"):
            number = int(_t(board, "BOARD_NUMBER"))
            lines = board.findall("TRAVELLER_LINE")
            scores = [line_score(ln, number) for ln in lines]
            for ln, (ns, ew) in zip(lines, mps(scores)):
                if (_t(ln, "NS_MATCH_POINTS"), _t(ln, "EW_MATCH_POINTS")) != (two(ns), two(ew)):
                    problems.append(f"board {number}: matchpoints recomputed {two(ns)}/{two(ew)}")
                for tag, pts in (("NORTH", ns), ("SOUTH", ns), ("EAST", ew), ("WEST", ew)):
                    total[int(_t(ln, f"{tag}_PLAYER_NUMBER"))] += pts
        for p in event.iter("PLAYER"):
            number = int(_t(p, "PLAYER_NUMBER"))
            if _t(p, "TOTAL_SCORE") != two(total[number]):
                problems.append(f"player {number}: {_t(p, 'TOTAL_SCORE')}, recomputed {two(total[number])}")
        return problems
    vp: dict[int, Fraction] = defaultdict(Fraction)
    net: dict[int, int] = defaultdict(int)
    total_vp = 20 if scale == "WBF_CONTINUOUS" else int(scale.split()[1])
    for match in event.findall("MATCH"):
        rnd = int(_t(match, "ROUND_NUMBER"))
        if kind == "SWISS_PAIRS":
            a, b = int(_t(match, "NS_PAIR_NUMBER")), int(_t(match, "EW_PAIR_NUMBER"))
            margin = 0
            for board in match.findall("BOARD"):
                number = int(_t(board, "BOARD_NUMBER"))
                (ln,) = board.findall("TRAVELLER_LINE")
                got_score = line_score(ln, number)
                if isinstance(got_score, tuple):
                    ns_i, ew_i = (AWARD_IMPS[x] for x in got_score)
                    if (int(_t(ln, "NS_IMPS")), int(_t(ln, "EW_IMPS"))) != (ns_i, ew_i):
                        problems.append(f"round {rnd} board {number}: adjusted IMPs recomputed {ns_i}/{ew_i}")
                    margin += award_margin(ns_i, ew_i)
                    continue
                margin += int(_t(ln, "NS_IMPS"))   # the datum needs every table: checked in the PBN
            got = (_t(match, "NS_SCORE"), _t(match, "EW_SCORE"))
        else:
            a, b = int(_t(match, "TEAM")), int(_t(match, "OPPOSING_TEAM"))
            won_a = won_b = 0
            for board in match.findall("BOARD"):
                number = int(_t(board, "BOARD_NUMBER"))
                lines = {_t(ln, "DIRECTION"): ln for ln in board.findall("TRAVELLER_LINE")}
                open_, closed = line_score(lines["NS"], number), line_score(lines["EW"], number)
                if isinstance(open_, tuple) or isinstance(closed, tuple):   # the board's awards
                    ha = [AWARD_IMPS[x] for x in open_] if isinstance(open_, tuple) \
                        else [AWARD_IMPS[x] for x in reversed(closed)]  # type: ignore[call-overload]
                    if [int(_t(board, "TEAM_IMPS")), int(_t(board, "OPPOSING_TEAM_IMPS"))] != ha:
                        problems.append(f"round {rnd} board {number}: adjusted IMPs recomputed {ha}")
                    credit = award_totals(ha[0], ha[1])
                    won_a += credit[0]
                    won_b += credit[1]
                    continue
                diff = imps(int(open_) - int(closed))  # type: ignore[call-overload]
                if (int(_t(board, "TEAM_IMPS")), int(_t(board, "OPPOSING_TEAM_IMPS"))) != (diff, -diff):
                    problems.append(f"round {rnd} board {number}: IMPs recomputed {diff} to team {a}")
                won_a += max(diff, 0)
                won_b += max(-diff, 0)
            if (int(_t(match, "TEAM_IMPS")), int(_t(match, "OPPOSING_TEAM_IMPS"))) != (won_a, won_b):
                problems.append(f"round {rnd} {a} v {b}: match IMPs recomputed {won_a}-{won_b}")
            margin = won_a - won_b
            got = (_t(match, "TEAM_SCORE"), _t(match, "OPPOSING_TEAM_SCORE"))
        va = vp_of(scale, margin, per_round)
        if got != (two(va), two(total_vp - va)):
            problems.append(f"round {rnd} {a} v {b}: VPs {got}, recomputed {two(va)}-{two(total_vp - va)}")
        vp[a] += va
        vp[b] += total_vp - va
        net[a] += margin
        net[b] -= margin
    parts = event.find("PARTICIPANTS")
    assert parts is not None
    listed, keys = [], []
    for p in parts:
        number = int(p.get("TEAM_ID") or _t(p, "PAIR_NUMBER"))
        byes = int(_t(p, "BYES"))
        want_vp = vp[number] + byes * Fraction(_t(event, "BYE_SCORE"))
        if (_t(p, "TOTAL_SCORE"), int(_t(p, "NET_IMPS"))) != (two(want_vp), net[number]):
            problems.append(f"{p.tag} {number}: {_t(p, 'TOTAL_SCORE')} VPs, recomputed {two(want_vp)}")
        listed.append(number)
        keys.append((want_vp, net[number]))
    if kind == "KO":        # the bracket's places: each match's winner from its IMPs
        bracket = knockout_places({(int(_t(m, "ROUND_NUMBER")), int(_t(m, "TEAM")), int(_t(m, "OPPOSING_TEAM"))):
                                   (int(_t(m, "TEAM_IMPS")), int(_t(m, "OPPOSING_TEAM_IMPS")))
                                   for m in event.findall("MATCH")}, listed)
        want = [bracket[n] for n in listed]
    else:
        want = places(keys) if keys == sorted(keys, reverse=True) else ["(not in order of VPs)"] * len(keys)
    for p, number, place in zip(parts, listed, want):
        if _t(p, "PLACE") != place:
            problems.append(f"{p.tag} {number}: PLACE {_t(p, 'PLACE')}, recomputed {place}")
    return problems


def _check_sections_usebio(event: ET.Element) -> list[str]:
    """Pairs in sections: each SECTION's lines, matchpoints within it or across the field."""
    problems: list[str] = []
    across = _t(event, "ACROSS_FIELD") == "YES"
    groups: dict[tuple[str, int], list[tuple[str, ET.Element, int]]] = defaultdict(list)
    for section in event.iter("SECTION"):
        name = section.get("SECTION_ID") or ""
        for board in section.findall("BOARD"):
            number = int(_t(board, "BOARD_NUMBER"))
            for ln in board.findall("TRAVELLER_LINE"):
                adjusted = ln.find("ADJUSTED_SCORE")
                if adjusted is not None:
                    groups[("" if across else name, number)].append((name, ln, tuple((adjusted.text or "").split("/"))))
                    continue
                tricks = _t(ln, "TRICKS")
                if not _t(ln, "CONTRACT") and _t(ln, "SCORE"):     # an assigned score, as it stands
                    want = int(_t(ln, "SCORE"))
                else:
                    want = score(_t(ln, "CONTRACT"), _t(ln, "PLAYED_BY"), int(tricks) if tricks else 0, number)
                if int(_t(ln, "SCORE")) != want:
                    problems.append(f"section {name} board {number}: SCORE {_t(ln, 'SCORE')}, recomputed {want}")
                groups[("" if across else name, number)].append((name, ln, want))
    total: dict[tuple[str, str, str], Fraction] = defaultdict(Fraction)
    for (_g, number), lines in groups.items():
        for (name, ln, _sc), (ns, ew) in zip(lines, mps([w for _n, _ln, w in lines])):
            if (_t(ln, "NS_MATCH_POINTS"), _t(ln, "EW_MATCH_POINTS")) != (two(ns), two(ew)):
                problems.append(f"section {name} board {number}: MPs recomputed {two(ns)}/{two(ew)}")
            # the pair that sat there: its number and home direction (an arrow-switched line's North-South
            # pair is an East-West pair; a Howell pair has no direction and is credited either way)
            total[(name, _t(ln, "NS_PAIR_NUMBER"), _t(ln, "NS_PAIR_DIRECTION") or "NS")] += ns
            total[(name, _t(ln, "EW_PAIR_NUMBER"), _t(ln, "EW_PAIR_DIRECTION") or "EW")] += ew
    for section in event.iter("SECTION"):
        name = section.get("SECTION_ID") or ""
        for p in section.iter("PAIR"):
            direction = _t(p, "DIRECTION")
            if direction:
                want = total[(name, _t(p, "PAIR_NUMBER"), direction)]
            else:   # a Howell pair sits either way
                want = total[(name, _t(p, "PAIR_NUMBER"), "NS")] + total[(name, _t(p, "PAIR_NUMBER"), "EW")]
            if _t(p, "TOTAL_SCORE") != two(want):
                problems.append(f"section {name} pair {_t(p, 'PAIR_NUMBER')} {direction}: {_t(p, 'TOTAL_SCORE')}, "
                                f"recomputed {two(want)}")
    return problems
