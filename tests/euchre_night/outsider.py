"""A second scorer for a euchre night, written from ``docs/scoring.md`` (section 14) and ``docs/euchre.md``
("Exports", "The hand notation") alone: it imports nothing of ours. From ``standings.json`` and
``hands.json`` it recomputes every player's points, hands won, loners made, rounds played and place, and
says where the files disagree with it (an empty list: they agree)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

SEATS = ("N", "S", "E", "W")
SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}


def _own(hand: dict[str, Any], sc: dict[str, Any]) -> dict[str, int]:
    """The hand's own points per seat (docs/scoring.md 14, "The hand's own points")."""
    out = dict.fromkeys(SEATS, 0)
    makers, alone, tricks = hand["makers"], hand["alone"], hand["tricks"]
    defenders = "EW" if makers == "NS" else "NS"
    house = sc["scoring"] == "house"
    if tricks == 5:
        side = makers
        if house and alone is not None:
            if side in hand["void"]:
                return out
            share = sc["loner"] if sc["loner_partner"] is None else sc["loner_partner"]
            out[alone] = sc["loner"]
            out[PARTNER[alone]] = share
            return out
        pts = 4 if alone is not None else 2
    elif tricks >= 3:
        side, pts = makers, 1
    else:
        side = defenders
        pts = (sc["euchred"] * (2 if alone is not None else 1)) if house else (4 if alone is not None else 2)
    if side in hand["void"]:
        return out
    for s in SEATS:
        if SIDE[s] == side:
            out[s] = pts
    return out


def seat_points(hand: dict[str, Any], sc: dict[str, Any]) -> dict[str, int]:
    out = _own(hand, sc)
    for p in hand["penalties"]:
        for s in SEATS:
            if SIDE[s] != p["offending"]:
                out[s] += p["points"]
    return out


def _frac(text: str) -> Fraction:
    return Fraction(text)


def rescore(standings: dict[str, Any], hands: dict[str, Any]) -> list[str]:
    """Where the exports disagree with a rescore from them (docs/scoring.md 14)."""
    problems: list[str] = []
    sc = hands["scoring"]
    players = [p["number"] for p in standings["night"]["players"]]
    seats: dict[tuple[int, int], dict[str, int]] = {}
    seated: dict[int, set[int]] = {}
    out: dict[int, list[int]] = {}
    complete: dict[int, bool] = {}
    for r in standings["rounds"]:
        complete[r["round"]] = r["complete"]
        out[r["round"]] = [p["player"] for p in r["out"]]
        for t in r["tables"]:
            seats[(r["round"], t["table_number"])] = {s: t["seats"][s]["player"] for s in SEATS}
            seated.setdefault(r["round"], set()).update(seats[(r["round"], t["table_number"])].values())
    points = {p: Fraction(0) for p in players}
    by_round: dict[tuple[int, int], Fraction] = {}       # (player, round) -> his points that round
    won = dict.fromkeys(players, 0)
    loners = dict.fromkeys(players, 0)
    round_total: dict[int, Fraction] = {}
    for h in hands["hands"]:
        where = (h["round"], h["table_number"])
        if where not in seats:
            problems.append(f"hand {h['round']}/{h['table_number']}/{h['hand']}: no such table in the rounds")
            continue
        if h["players"] != seats[where]:
            problems.append(f"hand {h['round']}/{h['table_number']}/{h['hand']}: players {h['players']} "
                            f"but the round seats {seats[where]}")
        pts = seat_points(h, sc)
        if h.get("points") != pts:
            problems.append(f"hand {h['round']}/{h['table_number']}/{h['hand']}: points {h.get('points')} "
                            f"but the rescore gives {pts}")
        for s in SEATS:
            player = seats[where][s]
            points[player] += pts[s]
            by_round[(player, h["round"])] = by_round.get((player, h["round"]), Fraction(0)) + pts[s]
            round_total[h["round"]] = round_total.get(h["round"], Fraction(0)) + pts[s]
            if pts[s] > 0:
                won[player] += 1
        if h["alone"] is not None and h["tricks"] == 5 and h["makers"] not in h["void"]:
            loners[seats[where][h["alone"]]] += 1
    for rnd, sitting in out.items():
        if complete[rnd] and sitting and seated.get(rnd):
            mean = round_total.get(rnd, Fraction(0)) / len(seated[rnd])
            for p in sitting:
                points[p] += mean
                by_round[(p, rnd)] = mean
    # a round counts in a player's rounds played once his table has played a hand of it (docs/scoring.md 14)
    at_table = {(h["round"], p) for h in hands["hands"] for p in h["players"].values()}
    played = {p: sum(1 for r in seated if (r, p) in at_table) for p in players}
    order = sorted(players, key=lambda p: (-points[p], -won[p], -loners[p], p))
    keys = [(points[p], won[p], loners[p]) for p in order]
    place = {}
    for i, p in enumerate(order):
        first = keys.index(keys[i])
        place[p] = f"{first + 1}=" if keys.count(keys[i]) > 1 else str(i + 1)
    given = {row["player"]: row for row in standings["standings"]}
    if [row["player"] for row in standings["standings"]] != order:
        problems.append(f"the order is {[row['player'] for row in standings['standings']]}, the rescore's {order}")
    for p in players:
        row = given.get(p)
        if row is None:
            problems.append(f"player {p} is not in the standings")
            continue
        mine = (points[p], won[p], loners[p], played[p], place[p])
        theirs = (_frac(row["points"]), row["hands_won"], row["loners"], row["rounds"], row["place"])
        if mine != theirs:
            problems.append(f"player {p}: the export says {theirs}, the rescore {mine}")
    problems += _substitutes(standings, hands, by_round)
    return problems


def _substitutes(standings: dict[str, Any], hands: dict[str, Any], by_round: dict[tuple[int, int], Fraction]) -> list[str]:
    """docs/scoring.md 14, "A substitute": who held each number, round by round, is named on the rounds'
    seats and in each line's ``played_by`` with the points scored at the number in his rounds."""
    problems: list[str] = []
    subs = hands.get("substitutions", [])
    if standings.get("substitutions", []) != subs:
        problems.append("the substitutions in standings.json and hands.json differ")
    night = standings["night"]
    rounds = night["rounds"]
    people = {p["number"]: (p["name"], p["member"]) for p in night["players"]}
    holders: dict[int, list[tuple[str, str, int, int]]] = {}
    for p, (name, member) in people.items():
        starts = [(name, member, 1)] + [(s["name"], s["member"], s["from_round"])
                                        for s in sorted((s for s in subs if s["player"] == p),
                                                        key=lambda s: s["from_round"])]
        holders[p] = [(n, m, a, (starts[i + 1][2] - 1) if i + 1 < len(starts) else rounds)
                      for i, (n, m, a) in enumerate(starts)
                      if ((starts[i + 1][2] - 1) if i + 1 < len(starts) else rounds) >= a]

    def holder(p: int, rnd: int) -> str:
        return next(n for n, _, a, b in holders[p] if a <= rnd <= b)

    for r in standings["rounds"]:
        seated = [(t["seats"][s]["player"], t["seats"][s]["name"]) for t in r["tables"] for s in SEATS]
        for p, name in seated + [(x["player"], x["name"]) for x in r["out"]]:
            if name != holder(p, r["round"]):
                problems.append(f"round {r['round']}: number {p} is named {name!r}, held by {holder(p, r['round'])!r}")
    for row in standings["standings"]:
        p = row["player"]
        mine = [{"name": n, "member": m, "from_round": a, "to_round": b,
                 "points": sum((v for (q, rnd), v in by_round.items() if q == p and a <= rnd <= b), Fraction(0))}
                for n, m, a, b in holders[p]]
        theirs = [dict(x, points=_frac(x["points"])) for x in row.get("played_by", [])]
        if theirs != mine:
            problems.append(f"player {p}: played_by {theirs}, the rescore {mine}")
        # the name the pages and the sheet print: the one holder, or each with his rounds (docs/euchre.md)
        shown = mine[0]["name"] if len(mine) == 1 else "; ".join(
            f"{x['name']} (rounds {x['from_round']}-{x['to_round']})" for x in mine)
        if "shown" in row and row["shown"] != shown:
            problems.append(f"player {p}: shown {row['shown']!r}, held by {shown!r}")
    return problems
