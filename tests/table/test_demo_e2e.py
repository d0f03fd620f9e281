"""The whole simulated table end to end: virtual shoe on a real pty, synthetic camera, MockFactory pins,
SQLite journal. For each irregularity of the demo the ruling and the lamp history are asserted; the
bridge deals are read back from the PBN file with endplay, and each board's contract, declarer and result
are worked out here, independently, from the auction and the play the file records."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.records.journal import Journal
from firmware_host.table_demo import run_demo

BRIDGE = [("formation", "CB-draw"), ("new_shuffle_and_cut", "CB-cut-faced"), ("redeal", "CB-redeal-faced"),
          ("new_shuffle_and_cut", "CB-shuffle-demand"), ("attention", "CB-redeal-miscount"),
          ("redeal", "CB-redeal-miscount"), ("replace_pack", "CB-pack-damaged"),
          ("attention", "CB-missing-search"), ("redeal", "CB-missing-not-found"), ("contract", "BP-22"),
          ("score", "CB-rubber"), ("claim_option", "CB-redeal-out-of-turn"), ("redeal", "CB-redeal-out-of-turn"),
          ("contract", "BP-22"), ("score", "CB-rubber")]
EUCHRE = [("formation", "EU-11"), ("misdeal", "EU-41"), ("claim_option", "EU-35"), ("redeal", "EU-35"),
          ("deal_stands", "EU-90"), ("penalty", "EU-90"), ("score", "EU-2")]


def _history(path: Path) -> tuple[list[tuple[str, str]], list[tuple[str, dict]]]:
    """Rulings, and for each lamp row the ruling or note that preceded it."""
    rulings: list[tuple[str, str]] = []
    lamps: list[tuple[str, dict]] = []
    last = ""
    with Journal.open(path) as j:
        assert j.verify().ok
        for row in j.rows():
            if row.kind == "ruling":
                rulings.append((row.body["remedy"], row.body["clause"]))
                last = row.body["clause"]
            elif row.kind == "event":
                last = row.body["type"]
            elif row.kind == "note":
                last = "ack" if "ack" in row.body else f"device:{row.body.get('device')}"
            elif row.kind == "lamp":
                lamps.append((last, {k: v for k, v in row.body.items() if v}))
    return rulings, lamps


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    assert run_demo(out, seed=7, camera=True) == 0
    return out


def test_bridge_rulings_and_lamps(demo: Path) -> None:
    rulings, lamps = _history(demo / "contract-bridge")
    assert rulings == BRIDGE
    lit = {cause: on for cause, on in lamps}
    assert lit["CB-cut-faced"] == {"shuffle": True}
    assert lit["CB-redeal-faced"] == {"redeal": True}
    assert lit["CB-redeal-miscount"]["redeal"] is True
    assert lit["CB-pack-damaged"]["replace_pack"] is True
    assert lit["ack"] == {}  # the director's button put every ruling lamp out
    assert lit["CB-redeal-out-of-turn"].get("redeal") is True
    assert ("device:shoe", {"shoe_offline": True}) in [(c, {k: v for k, v in on.items() if k == "shoe_offline"})
                                                       for c, on in lamps]
    assert lit["deal_start"] == {}  # a new deal put the lamps out


def test_euchre_rulings_and_lamps(demo: Path) -> None:
    rulings, lamps = _history(demo / "euchre")
    assert rulings == EUCHRE
    lit = {cause: on for cause, on in lamps}
    assert lit["EU-41"] == {"redeal": True}
    assert lit["EU-35"]["redeal"] is True


def test_the_demo_sends_nothing_its_table_refuses(demo: Path) -> None:
    """Every entry the demo's people make is one the table takes: ``make demo`` once printed ``WARNING
    ... play_end from script ignored: the table is in phase scoring`` after each bridge hand (the table
    had ended the play at the 52nd card). What a table ignores in the demo is only the tail of a deal a
    ruling voided: the shoe's cards in flight and its ``deal_end`` as it stops."""
    for game in ("contract-bridge", "euchre"):
        with Journal.open(demo / game) as j:
            ignored = [r.body["ignored"] for r in j.rows() if r.kind == "note" and "ignored" in r.body]
        assert [(b["type"], b["src"]) for b in ignored if b["src"] != "shoe"] == [], game
        assert {b["type"] for b in ignored} <= {"card_dealt", "deal_end"}, (game, ignored)


def test_pbn_reads_back_with_endplay(demo: Path) -> None:
    from endplay.parsers import pbn
    from endplay.types import Player

    from firmware_host.records.pbn import deals_from_events
    from laws.cards import Card

    with open(demo / "bridge.pbn") as f:
        boards = pbn.load(f)
    with Journal.open(demo / "contract-bridge") as j:
        ours = deals_from_events(list(j.events()))
    assert len(boards) == len(ours) == 2
    for board, deal in zip(boards, ours):
        assert board.info["North"] == "Ann" and board.info["West"] == "Di"
        for seat, cards in deal.hands.items():
            theirs = {Card(c.rank.abbr, "SHDC"[c.suit.value]) for c in board.deal[Player.find(seat.value)]}
            assert theirs == set(cards) and len(theirs) == 13


def test_exported_history_replays_to_the_same_rulings(demo: Path, tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    for game in ("contract-bridge", "euchre"):
        out = tmp_path / f"{game}.jsonl"
        subprocess.run([sys.executable, "-m", "firmware_host.cli", "export", "jsonl", "--data-dir",
                        str(demo / game), "--out", str(out)], check=True, capture_output=True, timeout=60)
        p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "replay", str(out)], capture_output=True,
                           text=True, timeout=60, check=True)
        # replay adds "event", the index of the event each ruling answers (docs/events.md): not journaled
        replayed = [{k: v for k, v in json.loads(line).items() if k != "event"} for line in p.stdout.splitlines()]
        with Journal.open(demo / game) as j:
            journaled = [{k: v for k, v in r.body.items() if k != "deal"} for r in j.rows() if r.kind == "ruling"]
        assert replayed == journaled


RANK_ORDER = "23456789TJQKA"


def _derived(board: object) -> tuple[tuple[int, object, int], object, int]:
    """From a board's recorded auction and play alone: the final contract (level, strain, doubling), its
    declarer (the first of the declaring side to name the strain) and the tricks declarer's side took,
    checking on the way that the auction closes properly and that every card was held and followed suit."""
    from endplay.types import ContractBid, Penalty

    auction, dealer = board.auction, board.dealer  # type: ignore[attr-defined]
    seats, p = [], dealer
    for _ in auction:
        seats.append(p)
        p = p.lho
    bids = [i for i, b in enumerate(auction) if isinstance(b, ContractBid)]
    assert bids, "a board in the file was played, so somebody bid"
    last = bids[-1]
    tail = auction[last + 1:]
    assert len(tail) >= 3 and all(b.penalty == Penalty.passed for b in tail[-3:]), "three passes close it"
    doubling = 0
    for b in tail:
        if b.penalty == Penalty.doubled:
            doubling = 1
        elif b.penalty == Penalty.redoubled:
            doubling = 2
    level, strain = auction[last].level, auction[last].denom
    side = {seats[last], seats[last].partner}
    declarer = next(seats[i] for i in bids if seats[i] in side and auction[i].denom == strain)
    hands = {pl: {(c.suit, c.rank.abbr) for c in board.deal[pl]} for pl in side | {seats[last].lho, seats[last].rho}}  # type: ignore[attr-defined]
    trump = None if strain.name == "nt" else strain
    leader, won = declarer.lho, 0
    play = board.play  # type: ignore[attr-defined]
    assert len(play) == 52
    for t in range(13):
        cards, p = {}, leader
        for c in play[4 * t:4 * t + 4]:
            card = (c.suit, c.rank.abbr)
            assert card in hands[p], f"trick {t + 1}: {p} plays a card he does not hold"
            led = cards[leader][0] if cards else None
            assert led is None or c.suit == led or not any(s == led for s, _ in hands[p]), \
                f"trick {t + 1}: {p} does not follow suit while he can"
            hands[p].discard(card)
            cards[p] = card
            p = p.lho
        led = cards[leader][0]
        leader = max(cards, key=lambda pl: (cards[pl][0] == trump, cards[pl][0] == led,
                                            RANK_ORDER.index(cards[pl][1])))
        won += leader in (declarer, declarer.partner)
    return (level, strain, doubling), declarer, won


def test_every_pbn_result_follows_from_its_auction_and_play(demo: Path) -> None:
    from endplay.parsers import pbn
    from endplay.types import Penalty

    with open(demo / "bridge.pbn") as f:
        boards = pbn.load(f)
    assert len(boards) == 2
    for board in boards:
        assert board.auction and len(board.play) == 52, "the file records the auction and the play"
        (level, strain, doubling), declarer, tricks = _derived(board)
        c = board.contract
        doubled = {Penalty.passed: 0, Penalty.doubled: 1, Penalty.redoubled: 2}[c.penalty]
        assert (c.level, c.denom, doubled) == (level, strain, doubling)
        assert c.declarer == declarer
        assert c.level + 6 + c.result == tricks  # [Result] is the tricks the play gives


def test_the_check_of_the_result_can_fail(demo: Path) -> None:
    """The same check on a file whose [Result] and [Declarer] were altered finds the difference, and an
    auction without the closing passes or a card not held is caught."""
    import re

    from endplay.parsers import pbn

    text = (demo / "bridge.pbn").read_text()
    board = pbn.loads(text)[0]
    (_, _, _), declarer, tricks = _derived(board)
    wrong = re.sub(r'\[Result "(\d+)"\]', lambda m: f'[Result "{(int(m.group(1)) + 1) % 14}"]', text, count=1)
    bad = pbn.loads(wrong)[0]
    assert bad.contract.level + 6 + bad.contract.result != tricks
    other = {"N": "E", "E": "S", "S": "W", "W": "N"}
    moved = re.sub(r'\[Declarer "(\w)"\]', lambda m: f'[Declarer "{other[m.group(1)]}"]', text, count=1)
    assert pbn.loads(moved)[0].contract.declarer != declarer
    board.play[4], board.play[5] = board.play[5], board.play[4]  # two players swap their cards
    with pytest.raises(AssertionError):
        _derived(board)
    board = pbn.loads(text)[0]
    board.auction = board.auction[:-1]
    with pytest.raises(AssertionError, match="three passes"):
        _derived(board)


def test_the_calls_came_from_the_camera_then_the_buttons_and_the_director(demo: Path) -> None:
    with Journal.open(demo / "contract-bridge") as j:
        rows = [r.body for r in j.rows() if r.kind == "event"]
    starts = [i for i, e in enumerate(rows) if e["type"] == "deal_start"]
    first, second = ([e for e in rows[a:b] if e["type"] == "call"]
                     for a, b in ((starts[-3], starts[-2]), (starts[-1], len(rows))))
    assert first and {e["src"] for e in first} == {"camera"}  # bidding cards read in each seat's zone
    assert second and {(e["call"] == "pass", e["src"]) for e in second} == {(True, "button"), (False, "director")}
    plays = [e for e in rows[starts[-3]:] if e["type"] == "card_played"]
    assert plays[0]["src"] == "camera" and len(plays) == 104  # the first opening lead, seen in the centre
