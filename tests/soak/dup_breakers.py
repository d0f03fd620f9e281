"""Broken copies of a finished duplicate soak's folder, for ``test_dup_judge``.

Each breaker edits a copy of the folder in place. A journal is edited row by row and then re-hashed end
to end (its stored checkpoints dropped: their rows moved), so its chain still verifies and only the
checker's other invariants can find the break; the breakers named "chain" edit a row without
re-hashing. ``BREAKERS`` maps a name to the breaker; issue 38's kinds are all among them.
"""

from __future__ import annotations

import copy
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_host.records.chain import GENESIS, row_hash

Row = tuple[float, str, dict[str, Any]]            # (t, kind, body); seq is the row's place
SWAP = {"N": "S", "S": "N", "E": "W", "W": "E"}
TABLE_BOARDS = "club/table-01/data/journal.sqlite3"   # a table with physical boards
TABLE_SHOE = "club/table-02/data/journal.sqlite3"     # a table whose shoe deals
SESSION = "club/session/session.sqlite3"
STATION = "station/station.sqlite3"


class NotHere(LookupError):
    """The folder holds nothing this breaker can break."""


def rewrite(db: Path, change: Callable[[list[Row]], list[Row]]) -> None:
    """The journal's rows changed by ``change``, renumbered and re-hashed (a chain that verifies)."""
    conn = sqlite3.connect(db)
    try:
        rows = [(float(t), str(k), json.loads(b)) for t, k, b in conn.execute("SELECT t, kind, body FROM journal ORDER BY seq")]
        new = change(copy.deepcopy(rows))
        triggers = [sql for (sql,) in conn.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger'")]
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute("DELETE FROM journal")
        conn.execute("DELETE FROM checkpoint")
        prev = GENESIS
        for seq, (t, kind, body) in enumerate(new, start=1):
            h = row_hash(prev, seq, t, kind, body)
            conn.execute("INSERT INTO journal (seq, t, kind, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?)",
                         (seq, t, kind, json.dumps(body), prev, h))
            prev = h
        for sql in triggers:
            conn.execute(sql)
        conn.commit()
    finally:
        conn.close()


def edit_unhashed(db: Path, pick: Callable[[Row], bool], change: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
                  *, zero: bool = False) -> None:
    """One row edited in place without re-hashing (the chain broken), or its hash zeroed."""
    conn = sqlite3.connect(db)
    try:
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            conn.execute(f"DROP TRIGGER {name}")
        for seq, t, k, b in conn.execute("SELECT seq, t, kind, body FROM journal ORDER BY seq").fetchall():
            body = json.loads(b)
            if pick((t, k, body)):
                if zero:
                    conn.execute("UPDATE journal SET hash = ? WHERE seq = ?", (GENESIS, seq))
                else:
                    assert change is not None
                    conn.execute("UPDATE journal SET body = ? WHERE seq = ?", (json.dumps(change(body)), seq))
                conn.commit()
                return
        raise NotHere
    finally:
        conn.close()


# -- picking rows ------------------------------------------------------------------------------------

def _is(kind: str, **want: Any) -> Callable[[Row], bool]:
    def pred(r: Row) -> bool:
        return r[1] == kind and all(r[2].get(k) == v if v is not ANY else k in r[2] for k, v in want.items())
    return pred


ANY = object()


def _index(rows: list[Row], pred: Callable[[Row], bool], nth: int = 0) -> int:
    found = [i for i, r in enumerate(rows) if pred(r)]
    if len(found) <= nth:
        raise NotHere
    return found[nth]


def drop(pred: Callable[[Row], bool], nth: int = 0) -> Callable[[list[Row]], list[Row]]:
    def fn(rows: list[Row]) -> list[Row]:
        del rows[_index(rows, pred, nth)]
        return rows
    return fn


def drop_all(pred: Callable[[Row], bool]) -> Callable[[list[Row]], list[Row]]:
    def fn(rows: list[Row]) -> list[Row]:
        kept = [r for r in rows if not pred(r)]
        if len(kept) == len(rows):
            raise NotHere
        return kept
    return fn


def double(pred: Callable[[Row], bool], change: Callable[[dict[str, Any]], dict[str, Any]] = dict) -> Callable[[list[Row]], list[Row]]:
    def fn(rows: list[Row]) -> list[Row]:
        i = _index(rows, pred)
        rows.insert(i + 1, (rows[i][0], rows[i][1], change(copy.deepcopy(rows[i][2]))))
        return rows
    return fn


def edit(pred: Callable[[Row], bool], change: Callable[[dict[str, Any]], dict[str, Any]], nth: int = 0) -> Callable[[list[Row]], list[Row]]:
    def fn(rows: list[Row]) -> list[Row]:
        i = _index(rows, pred, nth)
        rows[i] = (rows[i][0], rows[i][1], change(dict(rows[i][2])))
        return rows
    return fn


def insert_after(pred: Callable[[Row], bool], kind: str, body: dict[str, Any]) -> Callable[[list[Row]], list[Row]]:
    def fn(rows: list[Row]) -> list[Row]:
        i = _index(rows, pred)
        rows.insert(i + 1, (rows[i][0], kind, body))
        return rows
    return fn


def _swap_hands(deal: str) -> str:
    """A PBN deal with North's and East's hands swapped."""
    first, hands = deal.split(":")
    h = hands.split()
    h[0], h[1] = h[1], h[0]
    return f"{first}:{' '.join(h)}"


def _clean_board(rows: list[Row]) -> int:
    """A board played without a foul at this table (from its journal)."""
    fouled = set()
    board = None
    for _, k, b in rows:
        if k == "event" and b.get("type") == "board":
            board = b.get("board")
        elif k == "ruling" and b.get("clause") == "DB-87":
            fouled.add(board)
    for _, k, b in rows:
        if k == "event" and b.get("type") == "board" and b.get("board") not in fouled:
            return int(b["board"])
    raise NotHere


def false_foul(rows: list[Row]) -> list[Row]:
    n = _clean_board(rows)
    i = _index(rows, _is("event", type="board", board=n))
    card = next(b for _, k, b in rows[i:] if k == "event" and b.get("type") == "card_played")
    rows.insert(i + 1, (rows[i][0], "ruling", {"clause": "DB-87", "remedy": "attention", "card": card["card"],
                                                "played_by": card["seat"], "record_seat": SWAP[card["seat"]],
                                                "table": rows[i][2]["table"], "round": rows[i][2]["round"],
                                                "board": n}))
    return rows


def false_decision(rows: list[Row]) -> list[Row]:
    n = _clean_board(rows)
    i = _index(rows, _is("event", type="board", board=n))
    rows.insert(i + 1, (rows[i][0], "event", {"type": "foul_ruled", "decision": "fouled", "src": "director"}))
    return rows


def drop_board(rows: list[Row]) -> list[Row]:
    """A whole board's rows gone from a table's journal (its board event to the next)."""
    starts = [i for i, r in enumerate(rows) if _is("event", type="board")(r)]
    if len(starts) < 2:
        raise NotHere
    return rows[:starts[0]] + rows[starts[1]:]


def swap_two_cards(rows: list[Row]) -> list[Row]:
    a = _index(rows, _is("event", type="card_played"))
    b = _index(rows, _is("event", type="card_played"), 1)
    rows[a], rows[b] = rows[b], rows[a]
    return rows


def _result(**want: Any) -> Callable[[Row], bool]:
    return _is("event", type="result", **want)


def _foul_set(b: dict[str, Any]) -> bool:
    return b.get("foul") is not None


def fouled_result(r: Row) -> bool:
    return _result()(r) and _foul_set(r[2])


def clean_result(r: Row) -> bool:
    return _result()(r) and not _foul_set(r[2]) and r[2].get("play")


def _other_table(b: dict[str, Any]) -> dict[str, Any]:
    n = int(b["table_number"]) % 3 + 1
    return b | {"table": f"table-{n:02d}", "table_number": n, "source": f"table-{n:02d}:999"}


def _setup_board(b: dict[str, Any]) -> dict[str, Any]:
    setup = copy.deepcopy(b["setup"])
    setup["boards"][0]["deal"] = _swap_hands(setup["boards"][0]["deal"])
    return b | {"setup": setup}


def _station_swap(b: dict[str, Any]) -> dict[str, Any]:
    recs = copy.deepcopy(b["records"])
    recs[0][1], recs[1][1] = recs[1][1], recs[0][1]
    return b | {"records": recs}


def _hex(h: str) -> str:
    return ("1" if h[0] != "1" else "2") + h[1:]


# -- the breakers: (file, how) ----------------------------------------------------------------------

def journal(rel: str, fn: Callable[[list[Row]], list[Row]]) -> Callable[[Path], None]:
    def brk(folder: Path) -> None:
        rewrite(folder / rel, fn)
    return brk


def chain(rel: str, *, zero: bool) -> Callable[[Path], None]:
    def brk(folder: Path) -> None:
        pick = _is("event", type="card_played") if "table" in rel else (lambda r: r[0] > 0)
        if rel == SESSION:
            pick = _result()
        if rel == STATION:
            pick = _is("note", station="card")
        edit_unhashed(folder / rel, pick, lambda b: b | {"edited": True}, zero=zero)
    return brk


def file_edit(rel: str, change: Callable[[str], str]) -> Callable[[Path], None]:
    def brk(folder: Path) -> None:
        p = folder / rel
        p.write_text(change(p.read_text(encoding="utf-8")), encoding="utf-8")
    return brk


def _pbn_swap(text: str) -> str:
    at = text.index('[Deal "') + len('[Deal "')
    end = text.index('"', at)
    return text[:at] + _swap_hands(text[at:end]) + text[end:]


def _pocket_gone(text: str) -> str:
    body = json.loads(text)
    first = next(iter(body.values()))
    first["0"] = first["0"][:-1]
    return json.dumps(body)


def _people_contract(text: str) -> str:
    body = json.loads(text)
    p = next(p for p in body if p["contract"] not in (None, "Pass"))
    p["tricks_claimed"] = 0
    p["declarer"] = SWAP[p["declarer"]]
    return json.dumps(body)


def _people_short_said_whole(text: str) -> str:
    """A board the shoe dealt short of a card said dealt from a whole pack: its DB-14 is then unwanted."""
    body = json.loads(text)
    short = [p for p in body if p.get("short_pack") or p.get("short_back")]
    if not short:
        raise NotHere("no board was dealt from a short pack")
    short[0]["short_pack"], short[0]["short_back"] = False, 0
    return json.dumps(body)


def file_bytes(rel: str, at: int) -> Callable[[Path], None]:
    """512 bytes of a file overwritten with garbage from ``at`` (a corrupt page of a journal)."""
    def brk(folder: Path) -> None:
        p = folder / rel
        for extra in (p.with_name(p.name + "-wal"), p.with_name(p.name + "-shm")):
            if extra.exists():
                extra.unlink()
        data = bytearray(p.read_bytes())
        data[at:at + 512] = bytes((i * 37 + 11) % 256 for i in range(512))
        p.write_bytes(bytes(data))
    return brk


def secret_in_the_log(folder: Path) -> None:
    """The session's secret written to the dashboard's output."""
    rows = [json.loads(b) for (b,) in sqlite3.connect(folder / SESSION).execute("SELECT body FROM journal")]
    secret = next(b["setup"]["secret"] for b in rows if b.get("type") == "opened")
    with open(folder / "club" / "dashboard-1.log", "a", encoding="utf-8") as f:
        f.write(f"INFO session opened (secret {secret})\n")


def _remove(rel: str) -> Callable[[Path], None]:
    def brk(folder: Path) -> None:
        (folder / rel).unlink()
    return brk


DB87 = _is("ruling", clause="DB-87", remedy="attention")
DB87_ANY = _is("ruling", clause="DB-87")
DECIDED = _is("event", type="foul_ruled")


def _score_only(r: Row) -> bool:
    return r[1] == "ruling" and r[2].get("clause") == "DB-77" and not r[2].get("confirmed")


def _confirmed(r: Row) -> bool:
    return r[1] == "ruling" and r[2].get("clause") == "DB-77" and bool(r[2].get("confirmed"))


def drop_confirms(sides: set[str], nth: int = 1) -> Callable[[list[Row]], list[Row]]:
    """Every ``confirm`` press of ``sides`` ("N"/"S" one side, "E"/"W" the other) dropped from the board
    of the nth confirmation ruling, the ruling itself left standing."""
    def fn(rows: list[Row]) -> list[Row]:
        at = _index(rows, _confirmed, nth)
        start = max(i for i in range(at) if _is("event", type="board")(rows[i]))
        gone = {i for i in range(start, at) if _is("event", type="confirm")(rows[i]) and rows[i][2].get("seat") in sides}
        if not gone:
            raise NotHere
        return [r for i, r in enumerate(rows) if i not in gone]
    return fn


BREAKERS: dict[str, Callable[[Path], None]] = {
    # the session's journal (issue 38: never read before)
    "session: a result dropped": journal(SESSION, drop(_result())),
    "session: a result doubled from the same table": journal(
        SESSION, double(_result(), lambda b: b | {"source": b["source"] + "0"})),
    "session: a result doubled from another table": journal(SESSION, double(_result(), _other_table)),
    "session: a result's tricks changed": journal(SESSION, edit(clean_result, lambda b: b | {"tricks": (b["tricks"] + 1) % 14})),
    "session: a clean result marked fouled": journal(SESSION, edit(clean_result, lambda b: b | {"foul": {"card": "AS"}})),
    "session: a fouled result marked clean": journal(SESSION, edit(fouled_result, lambda b: b | {"foul": None})),
    "session: a result's contract changed": journal(SESSION, edit(clean_result, lambda b: b | {"contract": "7NT"})),
    "session: a result's declarer changed": journal(SESSION, edit(clean_result, lambda b: b | {"declarer": SWAP[b["declarer"]]})),
    "session: a result's cards changed": journal(SESSION, edit(clean_result, lambda b: b | {"play": b["play"][1:] + b["play"][:1]})),
    "session: a result's record changed": journal(SESSION, edit(_result(), lambda b: b | {"record": _hex(b["record"])})),
    "session: a result moved to another board": journal(SESSION, edit(_result(), lambda b: b | {"board": b["board"] % 6 + 1})),
    "session: a result from another table's login": journal(SESSION, edit(_result(), lambda b: b | {"table": "table-09"})),
    "session: a result's round changed": journal(SESSION, edit(_result(), lambda b: b | {"round": b["round"] + 1})),
    "session: a result unconfirmed": journal(SESSION, edit(_result(), lambda b: b | {"confirmed": None})),
    "session: a result refused": journal(SESSION, insert_after(_result(), "note", {"refused": {"record": {}, "why": "x"}})),
    "session: a board's deal changed in the setup": journal(SESSION, edit(_is("event", type="opened"), _setup_board)),
    "session: the setup's commitment changed": journal(
        SESSION, edit(_is("event", type="opened"), lambda b: b | {"setup": b["setup"] | {"commitment": _hex(b["setup"]["commitment"])}})),
    "session: the chain broken": chain(SESSION, zero=False),
    "session: its secret in the dashboard's output": secret_in_the_log,
    "session: a hash zeroed": chain(SESSION, zero=True),
    # the station
    "station: a board's fingerprint swapped for another's": journal(STATION, edit(_is("note", records=ANY), _station_swap)),
    "station: the commitment it names changed": journal(STATION, edit(_is("note", records=ANY), lambda b: b | {"commitment": _hex(b["commitment"])})),
    "station: a board sent from another record": journal(STATION, edit(_is("note", station="send"), lambda b: b | {"record": _hex(b["record"])})),
    "station: a card row lost": journal(STATION, drop(_is("note", station="card"))),
    "station: a card row twice": journal(STATION, double(_is("note", station="card"))),
    "station: a card at another seat": journal(STATION, edit(_is("note", station="card"), lambda b: b | {"seat": SWAP[b["seat"]]})),
    "station: a board never dealt": journal(STATION, drop_all(_is("note", station="dealt", board=2))),
    "station: the chain broken": chain(STATION, zero=False),
    "station: a hash zeroed": chain(STATION, zero=True),
    "station: boards.pbn with two hands swapped": file_edit("station/boards.pbn", _pbn_swap),
    "the published commitment changed": file_edit("commitment.txt", _hex),
    "the shoe's pockets short of a card": file_edit("station/pockets.json", _pocket_gone),
    # the tables
    "table: a deal changed in its board event": journal(TABLE_SHOE, edit(_is("event", type="board"), lambda b: b | {"deal": _swap_hands(b["deal"])})),
    "table: a board event's record changed": journal(TABLE_BOARDS, edit(_is("event", type="board"), lambda b: b | {"record": _hex(b["record"])})),
    "table: a card lost": journal(TABLE_BOARDS, drop(_is("event", type="card_played"))),
    "table: a card twice": journal(TABLE_BOARDS, double(_is("event", type="card_played"))),
    "table: two cards out of order": journal(TABLE_BOARDS, swap_two_cards),
    "table: a fouled-board ruling deleted": journal(TABLE_BOARDS, drop(DB87)),
    "table: both fouled-board rulings and the decision deleted": journal(
        TABLE_SHOE, drop_all(lambda r: DB87_ANY(r) or DECIDED(r))),
    "table: a fouled-board ruling at another card": journal(TABLE_BOARDS, edit(DB87, lambda b: b | {"card": "2C" if b["card"] != "2C" else "3C"})),
    "table: a fouled-board ruling at another table": journal(TABLE_BOARDS, edit(DB87, lambda b: b | {"table": 9})),
    "table: a false fouled-board ruling": journal(TABLE_BOARDS, false_foul),
    "table: the director's decision deleted": journal(TABLE_SHOE, drop(DECIDED)),
    "table: a false director's decision": journal(TABLE_SHOE, false_decision),
    "table: the decision's ruling deleted": journal(TABLE_SHOE, drop(_is("ruling", clause="DB-87", remedy="deal_stands"))),
    "table: a missing-card ruling deleted": journal(TABLE_SHOE, drop(_is("ruling", clause="DB-14"))),
    "table: a missing-card ruling added": journal(
        TABLE_BOARDS, insert_after(_is("event", type="board"), "ruling", {"clause": "DB-14", "remedy": "attention"})),
    "table: a not-verified ruling deleted": journal(TABLE_SHOE, drop(_is("ruling", clause="DB-7", verified=False))),
    "table: a verified ruling deleted": journal(TABLE_BOARDS, drop(_is("ruling", clause="DB-7", verified=True))),
    "table: a fouled board said verified": journal(TABLE_BOARDS, edit(_is("ruling", clause="DB-7", verified=False), lambda b: b | {"verified": True})),
    "table: a score ruling deleted": journal(TABLE_BOARDS, drop(_score_only, 2)),
    "table: a score changed": journal(TABLE_BOARDS, edit(_score_only, lambda b: b | {"score": b["score"] + 10})),
    "table: a confirmed result dropped": journal(TABLE_SHOE, drop(_confirmed, 3)),
    "table: a confirmed result doubled": journal(TABLE_SHOE, double(_confirmed)),
    "table: a confirmed result's tricks and score changed": journal(
        TABLE_BOARDS, edit(_confirmed, lambda b: b | {"tricks": b["tricks"] + 1, "score": b["score"] + 30}, 4)),
    "table: one side's confirm dropped": journal(TABLE_BOARDS, drop_confirms({"E", "W"})),
    "table: both sides' confirms dropped": journal(TABLE_BOARDS, drop_confirms({"N", "S", "E", "W"})),
    "table: a whole board gone": journal(TABLE_BOARDS, drop_board),
    "table: a shoe's card at another seat": journal(TABLE_SHOE, edit(_is("event", type="card_dealt"), lambda b: b | {"seat": SWAP[b["seat"]]})),
    "table: a revoke ruled on legal play": journal(TABLE_BOARDS, insert_after(_is("event", type="card_played"), "ruling", {"clause": "BP-61", "remedy": "attention"})),
    "table: an irregularity ruled that nobody made": journal(TABLE_SHOE, insert_after(
        _is("event", type="card_played"), "ruling", {"clause": "BP-53-56", "remedy": "attention", "seat": "N"})),
    "table: the auction closed in another contract": journal(TABLE_BOARDS, edit(_is("ruling", clause="BP-22"), lambda b: b | {"contract": "7NT"})),
    "table: the chain broken": chain(TABLE_BOARDS, zero=False),
    "table: a hash zeroed": chain(TABLE_SHOE, zero=True),
    "table: its journal gone": _remove(TABLE_SHOE),
    "table: its journal's bytes overwritten": file_bytes(TABLE_BOARDS, 4096),
    "station: its journal's bytes overwritten": file_bytes(STATION, 0),
    "the people's record not JSON": file_bytes("played.json", 0),
    "the shoe's pockets not JSON": file_bytes("station/pockets.json", 0),
    "the people's record: another declarer": file_edit("played.json", _people_contract),
    "the people's record: a short pack said whole": file_edit("played.json", _people_short_said_whole),
}
