"""A second drawer for a euchre night, written from ``docs/euchre.md`` ("The draws, seat by seat") alone:
it imports nothing of ours. From ``standings.json`` (the night's setup and its rounds' seats) and
``hands.json`` (each hand's points per seat, for the progressive winners and the Swiss order) it draws
every round again, seat by seat, and says where the files disagree with it (no problems: they agree)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SEATS = ("N", "S", "E", "W")


def side_points(hands: list[dict[str, Any]], rnd: int, tno: int) -> tuple[int, int, int, int]:
    """(NS points, EW points, NS hands won, EW hands won) at a table in a round (scoring.md 14)."""
    ns = ew = hn = he = 0
    for h in hands:
        if h["round"] == rnd and h["table_number"] == tno:
            p = h["points"]
            a, b = max(p["N"], p["S"]), max(p["E"], p["W"])
            ns += a
            ew += b
            hn += a > 0
            he += b > 0
    return ns, ew, hn, he


def progressive(n: int, prev_rounds: list[Any], hands: list[dict[str, Any]]) -> tuple[list[Any], list[int]]:
    """The next round of a progressive night (round 1 when nothing is seated yet)."""
    r = len(prev_rounds) + 1
    if r == 1:
        seated = n - n % 4
        return [tuple(range(4 * t - 3, 4 * t + 1)) for t in range(1, seated // 4 + 1)], list(range(seated + 1, n + 1))
    tables, out = prev_rounds[-1]
    win, lose = [], []
    for k, (N, S, E, W) in enumerate(tables, 1):
        ns, ew, hn, he = side_points(hands, r - 1, k)
        nsw = ns > ew or (ns == ew and (hn > he or hn == he))
        win.append((N, S) if nsw else (E, W))
        lose.append((E, W) if nsw else (N, S))
    T = len(tables)
    new = []
    for k in range(T):
        if T == 1:
            st, ar = win[0], lose[0]
        elif k == 0:
            st, ar = win[0], win[1]
        elif k == T - 1:
            st, ar = lose[k], lose[0]
        else:
            st, ar = lose[k], win[k + 1]
        new.append([st[0], ar[0], st[1], ar[1]])
    if out:
        sat = {}
        for _, o in prev_rounds:
            for p in o:
                sat[p] = sat.get(p, 0) + 1
        foot = new[-1]
        going = sorted(foot, key=lambda p: (sat.get(p, 0), -p))[:len(out)]
        seats_going = sorted(foot.index(p) for p in going)      # N, S, E, W order
        for idx, q in zip(seats_going, sorted(out)):
            foot[idx] = q
        out = sorted(going)
    return [tuple(t) for t in new], list(out)


def rotating(n: int, rnd: int) -> Any:
    """Round ``rnd`` of a rotating night: the circle turned ``rnd - 1`` times."""
    circle = list(range(1, n + 1)) + ([0] if n % 2 else [])
    m = len(circle)
    sat = dict.fromkeys(range(1, n + 1), 0)
    result = None
    for _ in range(rnd):
        pairs = [(circle[i], circle[m - 1 - i]) for i in range(m // 2)]
        out = [a or b for a, b in pairs if 0 in (a, b)]
        pairs = [pr for pr in pairs if 0 not in pr]
        if len(pairs) % 2:
            best = None
            for i, (a, b) in enumerate(pairs):
                key = (max(sat[a], sat[b]), sat[a] + sat[b])
                if best is None or key <= best[0]:      # among equals, the last
                    best = (key, i)
            out += list(pairs.pop(best[1]))
        tables = [(pairs[j][0], pairs[j][1], pairs[j + 1][0], pairs[j + 1][1]) for j in range(0, len(pairs), 2)]
        for p in out:
            sat[p] += 1
        result = (tables, sorted(out))
        circle = [circle[0], circle[-1]] + circle[1:-1]
    return result


def round_robin(n: int, rnd: int) -> tuple[list[Any], list[int]]:
    """Round ``rnd`` of a round robin of the partnerships."""
    P = n // 2
    circle = list(range(1, P + 1)) + ([0] if P % 2 else [])
    m = len(circle)
    ns_times = dict.fromkeys(range(1, P + 1), 0)
    for r in range(1, rnd + 1):
        matches, outp = [], []
        for i in range(m // 2):
            a, b = circle[i], circle[m - 1 - i]
            if 0 in (a, b):
                outp.append(a or b)
                continue
            lo, hi = min(a, b), max(a, b)
            first, second = (lo, hi) if r % 2 == 1 else (hi, lo)
            if ns_times[second] < ns_times[first]:
                first, second = second, first
            ns_times[first] += 1
            matches.append((first, second))
        circle = [circle[0], circle[-1]] + circle[1:-1]
    matches.sort(key=lambda mt: min(mt))
    tables = [(2 * a - 1, 2 * a, 2 * b - 1, 2 * b) for a, b in matches]
    out = sorted(x for p in outp for x in (2 * p - 1, 2 * p))
    return tables, out


def swiss(n: int, prev_rounds: list[Any], hands: list[dict[str, Any]]) -> Any:
    """The next round of a Swiss night, and its tables (from 1) whose partnerships have met before (a
    round no draw can make without a repeat: the fewest there can be, the first such draw top down)."""
    P = n // 2
    r = len(prev_rounds) + 1
    pts = dict.fromkeys(range(1, P + 1), 0)
    met = {p: set() for p in pts}
    outs = dict.fromkeys(pts, 0)
    for rr, (tables, out) in enumerate(prev_rounds, 1):
        for k, t in enumerate(tables, 1):
            a, b = (t[0] + 1) // 2, (t[2] + 1) // 2
            ns, ew, _, _ = side_points(hands, rr, k)
            pts[a] += ns
            pts[b] += ew
            met[a].add(b)
            met[b].add(a)
        for p in {(x + 1) // 2 for x in out}:
            outs[p] += 1
    order = sorted(pts, key=lambda p: (-pts[p], p))
    outp = []
    if P % 2:
        fewest = min(outs.values())
        bye = [p for p in order if outs[p] == fewest][-1]
        order.remove(bye)
        outp = [bye]
    if r == 1:
        half = len(order) // 2
        matches = list(zip(order[:half], order[half:]))
    else:
        failed: set[tuple[tuple[int, ...], int]] = set()

        def go(free: list[int], allowed: int) -> list[tuple[int, int]] | None:
            """The first draw of ``free`` top down with at most ``allowed`` repeats."""
            if not free:
                return []
            if (tuple(free), allowed) in failed:
                return None
            first, rest = free[0], free[1:]
            for c in rest:
                cost = 1 if c in met[first] else 0
                if cost > allowed:
                    continue
                tail = go([x for x in rest if x != c], allowed - cost)
                if tail is not None:
                    return [(first, c)] + tail
            failed.add((tuple(free), allowed))
            return None
        allowed = 0
        found = go(order, 0)
        while found is None:            # the fewest repeats: the first number of them that draws
            allowed += 1
            found = go(order, allowed)
        matches = found
        place = {p: i for i, p in enumerate(order)}
        matches.sort(key=lambda mt: place[mt[0]])
    tables = [(2 * a - 1, 2 * a, 2 * b - 1, 2 * b) for a, b in matches]
    out = sorted(x for p in outp for x in (2 * p - 1, 2 * p))
    repeats = [k for k, (a, b) in enumerate(matches, 1) if b in met[a]]
    return tables, out, repeats


def check(folder: Path) -> tuple[int, int, list[str]]:
    """A folder's night (its standings.json and hands.json): see :func:`check_night`."""
    st = json.loads((folder / "standings.json").read_text())
    hd = json.loads((folder / "hands.json").read_text())
    return check_night(st, hd, folder.name)


def check_night(st: dict[str, Any], hd: dict[str, Any], name: str = "night") -> tuple[int, int, list[str]]:
    """(rounds agreed, seats agreed (a seat out counts one), every disagreement) of a night's exports."""
    night, hands = st["night"], hd["hands"]
    fmt, n = night["format"], len(night["players"])
    clubs = night["tables"]
    problems: list[str] = []
    seats_ok = rounds_ok = 0
    mine: list[Any] = []
    for got in st["rounds"]:
        r = got["round"]
        repeats: list[int] = []
        if fmt == "progressive":
            tables, out = progressive(n, mine, hands)
        elif fmt == "rotating":
            tables, out = rotating(n, r)
        elif fmt == "round-robin":
            tables, out = round_robin(n, r)
        else:
            tables, out, repeats = swiss(n, mine, hands)
        mine.append((tables, out))
        theirs = {t["table_number"]: t for t in got["tables"]}
        bad = False
        if len(theirs) != len(tables):
            problems.append(f"{name}: round {r}: {len(theirs)} tables, expected {len(tables)}")
            bad = True
        for k, t in enumerate(tables, 1):
            g = theirs.get(k)
            if g is None:
                continue
            if g["table"] != clubs[k - 1]:
                problems.append(f"{name}: round {r}: table {k} is {g['table']}, expected {clubs[k - 1]}")
                bad = True
            if g.get("repeat", False) is not (k in repeats):
                problems.append(f"{name}: round {r}: table {k} repeat {g.get('repeat', False)}, "
                                f"expected {k in repeats}")
                bad = True
            for s, p in zip(SEATS, t):
                if g["seats"][s]["player"] == p:
                    seats_ok += 1
                else:
                    bad = True
                    problems.append(f"{name}: round {r}, table {k}, {s}: player {g['seats'][s]['player']}, "
                                    f"expected {p}")
        gout = sorted(o["player"] for o in got["out"])
        if gout != out:
            bad = True
            problems.append(f"{name}: round {r}: out {gout}, expected {out}")
        else:
            seats_ok += len(out)
        rounds_ok += not bad
        # hands at the seats the round gave
        for h in hands:
            if h["round"] == r:
                t = tables[h["table_number"] - 1]
                if tuple(h["players"][s] for s in SEATS) != t:
                    problems.append(f"{name}: round {r}, table {h['table_number']}, hand {h['hand']}: "
                                    f"players {h['players']} not the round's {t}")
    return rounds_ok, seats_ok, problems
