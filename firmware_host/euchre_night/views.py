"""What a euchre night shows and exports (``docs/euchre.md``, "Pages" and "Exports"): pure functions of
the night (and the journal's head), so the director's page, a table's page, the JSON exports and the
printable sheet say the same thing.

* :func:`standings_export` — ``cardtable-euchre-standings/1``: the night, every round's seats, every
  player's standing.
* :func:`hands_export` — ``cardtable-euchre-hands/1``: the night and every hand in the notation, with
  each seat's points by the night's scoring.
* :func:`sheet_html` — the printable standings sheet.
* :func:`page_view` — what the pages draw (the round in play, the tables, the next round, standings).
"""

from __future__ import annotations

import html
from fractions import Fraction
from importlib import resources
from typing import Any

from laws.cards import Seat
from laws.euchre_night.formats import Round
from laws.euchre_night.night import Night
from laws.euchre_night.scoring import rules_to_dict

STANDINGS = "cardtable-euchre-standings/1"
HANDS = "cardtable-euchre-hands/1"
SEATS = ("N", "S", "E", "W")


def fraction_text(x: Fraction) -> str:
    """``12``, ``-3`` or ``25/2``: exact, as the exports carry a figure."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def decimal_text(x: Fraction) -> str:
    """Two decimals, a half away from zero (as printed)."""
    if x.denominator == 1:
        return f"{x.numerator}.00"
    q = abs(x) * 100
    whole = int(q) + (1 if q - int(q) >= Fraction(1, 2) else 0)
    sign = "-" if x < 0 else ""
    return f"{sign}{whole // 100}.{whole % 100:02d}"


def _round(night: Night, r: Round) -> dict[str, Any]:
    """A round's seats, each number named by who holds it in that round (a substitute from his round)."""
    def named(p: int) -> str:
        return night.name_in(p, r.number)

    return {"round": r.number, "complete": night.complete(r.number), "called": r.number in night.called,
            "tables": [{"table": night.setup.tables[k - 1], "table_number": k,
                        "seats": {s: {"player": p, "name": named(p)} for s, p in zip(SEATS, t)},
                        # a Swiss round no draw could make without a repeat: this table's two have met
                        **({"repeat": True} if k in r.repeats else {})}
                       for k, t in enumerate(r.tables, 1)],
            "out": [{"player": p, "name": named(p)} for p in r.out]}


def substitutions(night: Night) -> list[dict[str, Any]]:
    """The substitutions taken, by player then round (``docs/euchre.md``, "Substitutes")."""
    return [sub.to_dict() for p in sorted(night.subs) for sub in night.subs[p]]


def standing_rows(night: Night) -> list[dict[str, Any]]:
    """Each number's line: place, figures, and (the house rule on substitutes) who played it, when, and
    the points each scored there (``played_by``; one entry when nobody was replaced)."""
    names = {p.number: p for p in night.setup.players}
    rows = []
    for s in night.standings():
        by = ([{"name": names[s.player].name, "member": names[s.player].member, "from_round": 1,
                "to_round": night.setup.rounds, "points": fraction_text(s.points)}] if not night.subs.get(s.player)
              else [dict(b, points=fraction_text(b["points"])) for b in night.played_by(s.player)])
        # one holder all night is named alone: the player, or a substitute from round 1 (audit m28: the
        # sheet printed the player, who had played nothing, for a line his substitute had played whole)
        shown = by[0]["name"] if len(by) < 2 else "; ".join(
            f"{b['name']} (rounds {b['from_round']}-{b['to_round']})" for b in by)
        rows.append({"place": s.place, "player": s.player, "name": names[s.player].name,
                     "member": names[s.player].member, "points": fraction_text(s.points),
                     "points_shown": decimal_text(s.points), "hands_won": s.hands_won, "loners": s.loners,
                     "rounds": s.rounds, "played_by": by, "shown": shown})
    return rows


def standings_export(night: Night, head: str = "") -> dict[str, Any]:
    """The standings export (see the module docstring)."""
    return {"format": STANDINGS, "night": night.setup.to_dict(), "finished": night.finished,
            "rounds": [_round(night, r) for r in night.rounds], "substitutions": substitutions(night),
            "standings": standing_rows(night), "journal_head": head}


def hands_export(night: Night, head: str = "") -> dict[str, Any]:
    """Every hand in the notation, in round, table and hand order, with ``points`` per seat."""
    out = []
    for key in sorted(night.hands):
        h = night.hands[key]
        body = {k: v for k, v in h.body.items() if k != "t"}
        body["points"] = {s.value: p for s, p in night.points(h).items()}
        out.append(body)
    return {"format": HANDS, "night": night.setup.to_dict(), "scoring": rules_to_dict(night.setup.rules),
            "hands": out, "stops": [{"round": r, "table_number": k, "hands": n} for (r, k), n in
                                    sorted(night.stopped.items())],
            "calls": sorted(night.called), "substitutions": substitutions(night), "journal_head": head}


def table_rows(night: Night, rnd: int) -> list[dict[str, Any]]:
    """The tables of round ``rnd``: seats, hands played, points each side, done or not."""
    if not 1 <= rnd <= len(night.rounds):
        return []
    r = _round(night, night.round(rnd))
    for t in r["tables"]:
        k = t["table_number"]
        ns, ew, hn, he = night.table_points(rnd, k)
        t.update({"hands": night.played(rnd, k), "of": night.setup.hands, "ns": ns, "ew": ew,
                  "done": night.table_done(rnd, k), "stopped": (rnd, k) in night.stopped,
                  "reneges": [{"hand": h.number, **rg} for h in night.at.get((rnd, k), ())
                              for rg in h.body.get("reneges", [])]})
    return r["tables"]


def page_view(night: Night, head: str = "", version: int = 0, refused: int = 0) -> dict[str, Any]:
    """What the director's page and the tables' pages draw."""
    cur = night.current
    return {"name": night.setup.name, "format": night.setup.format.value, "round": cur,
            "rounds": night.setup.rounds, "hands": night.setup.hands, "called": cur in night.called,
            "finished": night.finished, "tables": table_rows(night, cur),
            "out": _round(night, night.round(cur))["out"],
            "previous": table_rows(night, cur - 1) if cur > 1 else [],
            "standings": standing_rows(night), "head": head, "version": version, "refused": refused,
            "hands_taken": len(night.hands)}


def _sheet_css() -> str:
    return resources.files("firmware_host.euchre_night").joinpath("static", "sheet.css").read_text(encoding="utf-8").strip()


def sheet_html(night: Night, head: str = "", stylesheet: str = "") -> str:
    """The printable standings sheet (one page of HTML, no script).

    Its style (``static/sheet.css``) is written into the page, so the file an export writes prints styled
    on its own; a server whose Content-Security-Policy allows no inline style gives ``stylesheet``, the
    address it serves that file at, and the page links it instead."""
    s = night.setup
    e = html.escape
    rows = "".join(f"<tr><td>{e(r['place'])}</td><td>{r['player']}</td><td>{e(r['shown'])}</td>"
                   f"<td class=n>{e(r['points_shown'])}</td><td class=n>{r['hands_won']}</td>"
                   f"<td class=n>{r['loners']}</td><td class=n>{r['rounds']}</td></tr>" for r in standing_rows(night))
    rules = s.rules
    scoring = ("Somerset Club code, laws 2-3" if rules.scoring.value == "somerset" else
               f"house rules: a loner's march {rules.loner} (his partner "
               f"{rules.loner if rules.loner_partner is None else rules.loner_partner}), euchred {rules.euchred}")
    status = "final" if night.finished else f"after round {night.current} (in play)"
    return (f"<!doctype html><html lang=en><meta charset=utf-8><title>{e(s.name)} - standings</title>"
            + (f'<link rel=stylesheet href="{e(stylesheet)}">' if stylesheet else f"<style>{_sheet_css()}</style>") +
            f"<h1>{e(s.name)}</h1><p>{e(s.club)} {e(s.date)} &middot; {e(s.format.value)}, {s.rounds} rounds of "
            f"{s.hands} hands &middot; scoring: {e(scoring)} &middot; standings {e(status)}</p>"
            "<table><thead><tr><th>Place</th><th>No.</th><th>Player</th><th>Points</th><th>Hands won</th>"
            f"<th>Loners</th><th>Rounds</th></tr></thead><tbody>{rows}</tbody></table>"
            f"<p>Session journal head {e(head)}</p></html>")


def seat_names(night: Night, rnd: int, k: int) -> dict[str, tuple[int, str]]:
    """Table ``k``'s seats in round ``rnd``: number and the name of who holds it then."""
    where = night.round(rnd).tables
    if k > len(where):
        return {}
    return {s.value: (p, night.name_in(p, rnd)) for s, p in zip((Seat.N, Seat.S, Seat.E, Seat.W), where[k - 1])}
