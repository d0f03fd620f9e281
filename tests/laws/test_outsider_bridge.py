"""Bridge as played, checked the way an outsider checks it: whole deals written as docs/events.md lines
(a draw, a shuffle and cut, the 52 cards the shoe read, the calls, the cards) and run through
`cardtable replay --format json`, the documented entry point. What each ruling must say comes from
docs/laws.md (`BP-`, the rubber scoring paragraph) and docs/events.md's tables; the tricks are counted here by
a trick-taking loop of this file's own (follow suit, highest trump else highest of the suit led), never by
the engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from firmware_host.cli import main

RANKS = "23456789TJQKA"
LEFT = {"N": "E", "E": "S", "S": "W", "W": "N"}
# The PBN 2.1 standard's example deal (as docs/events.md's bridge examples use it), hands in the order
# spades, hearts, diamonds, clubs.
PBN = {"N": "- 63 AKQ987 A9732", "E": "A8654 KQ5 T QJT6", "S": "J973 J98742 3 K4", "W": "KQT2 AT J6542 85"}
# North holds four spade honours (A K Q J): 100 for honours in a spade contract (docs/laws.md, rubber scoring).
HONOURS = {"N": "AKQJ2 AK2 AK2 A2", "E": "T98 QJT9 QJT KQJ", "S": "765 876 987 T987", "W": "43 543 6543 6543"}
AUCTION = "1D pass 1H pass 2C pass 4H pass pass pass"
Ev = dict[str, Any]


def cards(hand: str) -> list[str]:
    return [r + s for s, grp in zip("SHDC", hand.split()) if grp != "-" for r in grp]


def deal(hands: dict[str, str], dealer: str = "N") -> list[Ev]:
    partner, rho = {"N": "S", "E": "W", "S": "N", "W": "E"}, {"N": "W", "E": "N", "S": "E", "W": "S"}
    held = {s: cards(h) for s, h in hands.items()}
    order = [LEFT[dealer], LEFT[LEFT[dealer]], LEFT[LEFT[LEFT[dealer]]], dealer]
    return [{"type": "shuffle", "seat": partner[dealer]},
            {"type": "cut", "seat": rho[dealer], "top": 26, "bottom": 26},
            {"type": "deal_start", "dealer": dealer, "pack": "red"},
            *({"type": "card_dealt", "seat": order[i % 4], "card": held[order[i % 4]][i // 4]} for i in range(52)),
            {"type": "deal_end"}]


def table(hands: dict[str, str] = PBN) -> list[Ev]:
    return [{"type": "game", "game": "contract-bridge"},
            {"type": "draw", "cuts": [["Ann", "AS"], ["Bob", "KH"], ["Cy", "7D"], ["Di", "2C"]],
             "seats": {"Ann": "N", "Bob": "S", "Cy": "E", "Di": "W"}}, *deal(hands)]


def calls(text: str, first: str = "N") -> list[Ev]:
    out, seat = [], first
    for c in text.split():
        out.append({"type": "call", "seat": seat, "call": c})
        seat = LEFT[seat]
    return out


def plays(text: str) -> list[Ev]:
    return [{"type": "card_played", "seat": t.split(":")[0], "card": t.split(":")[1]} for t in text.split()]


def winner(trick: list[tuple[str, str]], trump: str) -> str:
    led = trick[0][1][1]

    def key(c: str) -> tuple[int, int]:
        return (2 if c[1] == trump else 1 if c[1] == led else 0, RANKS.index(c[0]))
    return max(trick, key=lambda sc: key(sc[1]))[0]


def play_out(hands: dict[str, str], leader: str, trump: str, forced: dict[tuple[int, str], str],
             tricks: int = 13) -> tuple[list[Ev], dict[str, int], list[str]]:
    """Legal play (lowest card of the suit led, else lowest card) except the cards ``forced`` by
    (trick, seat); returns the events, the tricks each side took as played, and each trick's winner."""
    held = {s: cards(h) for s, h in hands.items()}
    ev, won, winners, seat = [], {"NS": 0, "EW": 0}, [], leader
    for t in range(1, tricks + 1):
        trick: list[tuple[str, str]] = []
        for _ in range(4):
            led = trick[0][1][1] if trick else None
            pool = [c for c in held[seat] if c[1] == led] or held[seat]
            card = forced.get((t, seat)) or min(pool, key=lambda c: RANKS.index(c[0]))
            held[seat].remove(card)
            trick.append((seat, card))
            ev.append({"type": "card_played", "seat": seat, "card": card})
            seat = LEFT[seat]
        seat = winner(trick, trump)
        winners.append(seat)
        won["NS" if seat in "NS" else "EW"] += 1
    return ev, won, winners


def replay(tmp_path: Path, capsys: pytest.CaptureFixture[str], events: list[Ev]) -> tuple[int, list[Ev], str]:
    f = tmp_path / "hand.jsonl"
    f.write_text("".join(json.dumps(e) + "\n" for e in events))
    rc = main(["replay", str(f), "--format", "json"])
    out = capsys.readouterr()
    return rc, [json.loads(line) for line in out.out.splitlines() if line.strip()], out.err


def only(rulings: list[Ev], remedy: str, clause: str) -> Ev:
    found = [r for r in rulings if r.get("remedy") == remedy and r.get("clause") == clause]
    assert len(found) == 1, (remedy, clause, [(r.get("remedy"), r.get("clause")) for r in rulings])
    return found[0]


def test_the_trick_loop_of_this_file_can_be_wrong() -> None:
    """The independent trick counter fails on a trick it would misjudge: a ruff beats the ace led."""
    assert winner([("W", "AS"), ("N", "2H"), ("E", "KS"), ("S", "3S")], "H") == "N"
    assert winner([("W", "AS"), ("N", "2H"), ("E", "KS"), ("S", "3S")], "NT") != "N"


def test_a_whole_hand_played_is_scored_from_the_cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ev, won, _ = play_out(PBN, "W", "H", {})
    rc, rulings, _ = replay(tmp_path, capsys, table() + calls(AUCTION) + ev)
    assert rc == 0
    c = only(rulings, "contract", "BP-22")
    assert (c["contract"], c["declarer"], c["dummy"], c["opening_leader"]) == ("4H", "S", "N", "W")
    score = only(rulings, "score", "CB-rubber")
    assert score["tricks"] == won["NS"]
    down = 10 - won["NS"]
    assert down > 0 and score["above"] == {"NS": 0, "EW": 50 * down}      # undoubled, not vulnerable


@pytest.mark.parametrize(("title", "forced", "offender", "moved"), [
    # East (a defender) discards on a spade while holding spades; West wins trick 1: East did not win
    # the revoke trick, and his side won a trick at or after it (trick 1 itself): one trick (BP-64).
    ("defender, partner won the revoke trick", {(1, "W"): "KS", (1, "E"): "TD"}, "E", 1),
    # South ruffs the spade lead while holding spades and wins the trick: it moves, with one more.
    ("declarer won the revoke trick", {(1, "W"): "KS", (1, "S"): "2H"}, "S", 2),
])
def test_an_established_revoke_moves_the_tricks_bp64_says(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], title: str, forced: dict[tuple[int, str], str],
        offender: str, moved: int) -> None:
    ev, won, _ = play_out(PBN, "W", "H", forced)
    rc, rulings, _ = replay(tmp_path, capsys, table() + calls(AUCTION) + ev)
    assert rc == 0
    assert only(rulings, "attention", "BP-61")["seat"] == offender
    assert only(rulings, "attention", "BP-63")["trick"] == 1
    p = only(rulings, "penalty", "BP-64")
    assert p["tricks"] == moved and p["offender"] == offender
    to_ns = moved if offender in "EW" else -moved
    assert only(rulings, "score", "CB-rubber")["tricks"] == won["NS"] + to_ns, title


@pytest.mark.parametrize(("title", "forced", "why"), [
    # Dummy fails to follow hearts from his spread hand: no transfer (BP-64).
    ("dummy's revoke", {(1, "W"): "AH", (1, "N"): "2C"}, "dummy"),
])
def test_revokes_bp64_moves_nothing_for(tmp_path: Path, capsys: pytest.CaptureFixture[str], title: str,
                                         forced: dict[tuple[int, str], str], why: str) -> None:
    ev, won, _ = play_out(PBN, "W", "H", forced)
    rc, rulings, _ = replay(tmp_path, capsys, table() + calls(AUCTION) + ev)
    assert rc == 0
    none = only(rulings, "attention", "BP-64")
    assert none["tricks"] == 0 and why in none["reason"]
    assert not [r for r in rulings if r.get("remedy") == "penalty"]
    assert only(rulings, "score", "CB-rubber")["tricks"] == won["NS"], title


def test_a_second_revoke_in_the_suit_by_the_same_player_moves_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ev, won, _ = play_out(PBN, "W", "H", {(1, "W"): "KS", (1, "E"): "TD", (2, "W"): "QS", (2, "E"): "QC"})
    rc, rulings, _ = replay(tmp_path, capsys, table() + calls(AUCTION) + ev)
    assert rc == 0
    assert only(rulings, "penalty", "BP-64")["revoke_trick"] == 1
    assert only(rulings, "attention", "BP-64")["revoke_trick"] == 2
    assert only(rulings, "score", "CB-rubber")["tricks"] == won["NS"] + 1


def test_redoubled_with_honours_then_doubled_vulnerable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Deal 1: 4♠ redoubled by North, all thirteen tricks by an agreed claim: 4 x 30 x 4 = 480 below, three
    redoubled overtricks not vulnerable 3 x 200, 100 for making it redoubled, 100 for North's four spade
    honours. Deal 2 (East deals; North-South now vulnerable): 2♠ doubled by South, six tricks: two down
    doubled vulnerable 200 + 300, and North's honours again."""
    d1 = calls("1S pass 4S double redouble pass pass pass") + plays("E:KC") + [
        {"type": "claim", "seat": "N", "tricks": 13}, {"type": "claim_reply", "seat": "E", "agree": True}]
    d2 = deal(HONOURS, "E") + calls("pass 2S pass pass double pass pass pass", "E") + plays("W:3S") + [
        {"type": "claim", "seat": "S", "tricks": 6}, {"type": "claim_reply", "seat": "W", "agree": True}]
    rc, rulings, _ = replay(tmp_path, capsys, table(HONOURS) + d1 + d2)
    assert rc == 0
    first, second = [r for r in rulings if r.get("remedy") == "score"]
    assert (first["contract"], first["tricks"], first["vulnerable"]) == ("4SXX", 13, False)
    assert first["below"] == {"NS": 480, "EW": 0} and first["above"] == {"NS": 600 + 100 + 100, "EW": 0}
    assert (second["contract"], second["declarer"], second["vulnerable"]) == ("2SX", "S", True)
    assert second["above"] == {"NS": 100, "EW": 500}


def test_a_twelfth_trick_revoke_corrected_after_play_is_not_said_to_play_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """West revokes in trick 12 (a spade on North's diamond lead, holding a diamond) and plays on to trick
    13: play has ended, the revoke must still be corrected (BP-62). Corrected then, it gives `deal_stands`
    (no penalty card: there is no play left for one, docs/events.md) and the hand is scored; the ruling
    must not tell the players that play goes on."""
    ev, _, winners = play_out(PBN, "W", "H", {}, tricks=11)
    assert winners[-1] == "N"
    end = plays("N:AD E:QC S:JS W:KS N:KD E:AS S:JH W:JD")
    rc, rulings, _ = replay(tmp_path, capsys, table() + calls(AUCTION) + ev + end +
                            [{"type": "correct", "seat": "W", "card": "JD"}])
    assert rc == 0
    assert only(rulings, "attention", "BP-62")["trick"] == 12
    fixed = only(rulings, "deal_stands", "BP-62")
    assert fixed["card"] == "JD" and "play goes on" not in fixed["reason"]
    assert not [r for r in rulings if r.get("clause") == "BP-62" and r.get("remedy") == "penalty"]
    only(rulings, "score", "CB-rubber")


@pytest.mark.parametrize(("claimer", "answer"), [("W", "S"), ("S", "E")])
def test_a_revoke_is_established_by_a_claim_or_by_agreeing_to_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], claimer: str, answer: str) -> None:
    """East revokes in trick 1 (a club on the spade lead, holding spades) and nobody plays on: the revoke
    is established when his side claims, or when East agrees to the other side's claim (BP-63), and the
    `attention` `BP-63` ruling says so either way before BP-64 moves the trick."""
    rc, rulings, _ = replay(tmp_path, capsys, table() + calls(AUCTION) + plays("W:KS N:2C E:6C S:3S") + [
        {"type": "claim", "seat": claimer, "tricks": 5}, {"type": "claim_reply", "seat": answer, "agree": True}])
    assert rc == 0
    est = only(rulings, "attention", "BP-63")
    assert (est["seat"], est["trick"], est["card"]) == ("E", 1, "6C")
    order = [(r["remedy"], r["clause"]) for r in rulings]
    assert order.index(("attention", "BP-63")) < order.index(("penalty", "BP-64"))
    ns = (12 - 5 if claimer == "W" else 5) + 1          # trick 1 was West's; one trick moves to NS
    assert only(rulings, "score", "CB-rubber")["tricks"] == ns


def headlines(tmp_path: Path, capsys: pytest.CaptureFixture[str], events: list[Ev]) -> list[tuple[int, str, str]]:
    """`cardtable replay --format text`: each ruling's (line, headline, clause)."""
    f = tmp_path / "hand.jsonl"
    f.write_text("".join(json.dumps(e) + "\n" for e in events))
    assert main(["replay", str(f), "--format", "text"]) == 0
    lines = capsys.readouterr().out.splitlines()
    out = []
    for head, law in zip(lines[::2], lines[1::2]):
        n, text = head[len("[line "):].split("] ", 1)
        out.append((int(n), text, law[law.index("[") + 1:law.index("]")]))
    return out


def test_the_revoke_established_by_a_claim_is_told_at_the_claim(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ev = table() + calls(AUCTION) + plays("W:KS N:2C E:6C S:3S") + [
        {"type": "claim", "seat": "W", "tricks": 5}, {"type": "claim_reply", "seat": "S", "agree": True}]
    told = [n for n, _, clause in headlines(tmp_path, capsys, ev) if clause == "BP-63"]
    assert told == [len(ev) - 1]                        # the claim's line, not the answer's


@pytest.mark.parametrize(("title", "tail", "clause", "wrong"), [
    # an agreed claim ends play: its headline must not say that play goes on
    ("claim agreed", plays("W:KS") + [{"type": "claim", "seat": "S", "tricks": 10},
                                      {"type": "claim_reply", "seat": "W", "agree": True}], "BP-68-71", "GOES ON"),
    # a claim ruled by the director ends play too
    ("claim ruled", plays("W:KS") + [{"type": "claim", "seat": "S", "tricks": 10},
                                     {"type": "claim_reply", "seat": "W", "agree": False},
                                     {"type": "claim_ruled", "tricks": 9}], "BP-68-71", "GOES ON"),
    # a pass after the auction closed is cancelled: the auction does not go on, it is over
    ("call after the close", [{"type": "call", "seat": "W", "call": "pass"}], "BP-39", "AUCTION GOES ON"),
])
def test_a_headline_says_what_happens(tmp_path: Path, capsys: pytest.CaptureFixture[str], title: str,
                                      tail: list[Ev], clause: str, wrong: str) -> None:
    said = [h for _, h, c in headlines(tmp_path, capsys, table() + calls(AUCTION) + tail) if c == clause]
    assert said and not [h for h in said if wrong in h], (title, said)


def test_a_twelfth_trick_correction_after_play_is_headed_as_a_correction(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ev, _, _ = play_out(PBN, "W", "H", {}, tricks=11)
    end = plays("N:AD E:QC S:JS W:KS N:KD E:AS S:JH W:JD") + [{"type": "correct", "seat": "W", "card": "JD"}]
    said = [h for _, h, c in headlines(tmp_path, capsys, table() + calls(AUCTION) + ev + end) if c == "BP-62"]
    assert said[-1] == "REVOKE CORRECTED"


def test_the_dashboard_heads_a_ruling_as_the_table_does() -> None:
    """The dashboard rebuilds the headline from the ruling's JSON body (docs/mqtt.md): the fields the
    headline reads must survive, so an agreed claim reads the same on both."""
    from firmware_host.club.words import headline as club_headline
    body = {"remedy": "deal_stands", "law": "Duplicate Bridge, laws 68-71", "clause": "BP-68-71",
            "reason": "West agrees to South's claim of 10 tricks: play ends with it.", "seat": "S",
            "claimer": "S", "tricks": 10, "agreed": True}
    assert club_headline(body).startswith("CLAIM AGREED")
    assert club_headline({**body, "agreed": None, "ruled": True}).startswith("CLAIM RULED")
    passed = {"remedy": "contract", "law": "Duplicate Bridge, law 22", "clause": "BP-22", "reason": "x",
              "passed_out": True, "dealer": "E", "contract": "Pass"}
    assert club_headline(passed).startswith("PASSED OUT")


def test_an_insufficient_bid_replaced_by_a_double_the_director_bars_is_cancelled(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Law 27B3 (2017; docs/laws.md BP-27 "any other replacement bars his partner"): East's insufficient one
    heart, replaced by a double the director judges not comparable: the double is cancelled, East calls
    again and West must pass for the rest of the auction. East's new call (two hearts) is then judged
    as a call in turn, and South, not West, calls next."""
    rc, rulings, err = replay(tmp_path, capsys, table() + [
        {"type": "call", "seat": "N", "call": "1S"}, {"type": "call", "seat": "E", "call": "1H"},
        {"type": "call", "seat": "E", "call": "double"}, {"type": "bar", "seat": "W", "rounds": "rest"},
        {"type": "call", "seat": "E", "call": "2H"}, {"type": "call", "seat": "S", "call": "pass"},
        {"type": "call", "seat": "W", "call": "pass"}, {"type": "call", "seat": "N", "call": "pass"}])
    assert rc == 0, err
    asked = [r for r in rulings if r.get("clause") == "BP-27" and r.get("options") == ["comparable", "bar"]]
    assert len(asked) == 1 and "cancelled" in asked[0]["reason"]
    bar = only(rulings, "penalty", "BP-27")
    assert bar["bars"] == [["W", "rest"]] and bar["cancelled"] == "double"
    c = only(rulings, "contract", "BP-22")
    assert (c["contract"], c["declarer"]) == ("2H", "E")
    assert c["calls"] == ["1S", "2H", "pass", "pass", "pass"]


def test_a_bar_after_a_pass_replacing_an_insufficient_bid_cancels_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Law 27B2: a pass in its place stands; the bar only makes West pass."""
    rc, rulings, err = replay(tmp_path, capsys, table() + [
        {"type": "call", "seat": "N", "call": "1S"}, {"type": "call", "seat": "E", "call": "1H"},
        {"type": "call", "seat": "E", "call": "pass"}, {"type": "bar", "seat": "W", "rounds": "rest"},
        {"type": "call", "seat": "S", "call": "pass"}, {"type": "call", "seat": "W", "call": "pass"}])
    assert rc == 0, err
    bar = only(rulings, "penalty", "BP-27")
    assert "cancelled" not in bar
    assert only(rulings, "contract", "BP-22")["calls"] == ["1S", "pass", "pass", "pass"]


@pytest.mark.parametrize(("title", "hands", "tail", "above"), [
    # North holds the four aces: 150 for honours at notrump (docs/laws.md), 3NT made: 40 + 30 + 30 below.
    ("four aces at notrump", HONOURS, calls("1NT pass 3NT pass pass pass") + plays("E:KC") + [
        {"type": "claim", "seat": "N", "tricks": 9}, {"type": "claim_reply", "seat": "E", "agree": True}],
     {"NS": 150, "EW": 0}),
    # East, a defender, holds A K Q J of spades against South's one spade: honours count for the side
    # that holds them, so 100 to East-West besides two undertricks (2 x 50).
    ("a defender's honours", {**HONOURS, "E": "AKQJ2 QJT9 QJT K", "N": "T98 AK2 AK2 AQJ2"},
     calls("pass pass 1S pass pass pass") + plays("W:3D") + [
         {"type": "claim", "seat": "S", "tricks": 5}, {"type": "claim_reply", "seat": "W", "agree": True}],
     {"NS": 0, "EW": 200}),
])
def test_honours_from_the_hands_dealt(tmp_path: Path, capsys: pytest.CaptureFixture[str], title: str,
                                      hands: dict[str, str], tail: list[Ev], above: dict[str, int]) -> None:
    rc, rulings, err = replay(tmp_path, capsys, table(hands) + tail)
    assert rc == 0, err
    assert only(rulings, "score", "CB-rubber")["above"] == above, title


@pytest.mark.parametrize(("title", "typed", "above"), [
    # Audit i2: a typed result at a table whose shoe read the deal scored the typed honours, not the hands'.
    # North holds A K Q J of spades: 100 to North-South, typed or not (docs/scoring.md 15).
    ("no honours typed", None, {"NS": 100, "EW": 0}),
    ("honours the cards contradict", {"side": "EW", "points": 150}, {"NS": 100, "EW": 0}),
])
def test_a_typed_result_takes_its_honours_from_the_hands_dealt(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], title: str, typed: Ev | None,
        above: dict[str, int]) -> None:
    result: Ev = {"type": "result", "declarer": "N", "contract": "4S", "tricks": 10}
    if typed is not None:
        result["honours"] = typed
    rc, rulings, err = replay(tmp_path, capsys, table(HONOURS) + [result])
    assert rc == 0, err
    score = only(rulings, "score", "CB-rubber")
    assert (score["below"], score["above"]) == ({"NS": 120, "EW": 0}, above), title


def test_a_typed_100_for_honours_at_notrump_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """At notrump only the four aces count (150): a typed 100 is bad input, exit 2 naming the line."""
    rc, _rulings, err = replay(tmp_path, capsys, table(HONOURS) + [
        {"type": "result", "declarer": "N", "contract": "3NT", "tricks": 9, "honours": {"side": "NS", "points": 100}}])
    assert rc == 2
    assert err.strip().endswith(":59: at notrump only four aces count as honours, worth 150")


@pytest.mark.parametrize(("title", "tail", "remedy", "key", "card", "trick"), [
    # East's opening lead out of turn, West then leads: East's ace is a penalty card (BP-53-56)
    ("a defender's lead taken back", plays("E:AS W:KS"), "penalty", "penalty_card", "AS", 1),
    # declarer leads from his hand when dummy won trick 1; dummy then leads: no penalty card
    ("declarer's lead taken back", plays("W:KS N:6H E:4S S:3S S:2H N:3H"), "deal_stands", "card", "2H", 2),
])
def test_a_card_taken_back_names_itself_as_the_table_says(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], title: str, tail: list[Ev], remedy: str, key: str,
        card: str, trick: int) -> None:
    """docs/events.md: "a card taken back | `penalty` (`penalty_card`) for a defender's, else
    `deal_stands`, its clause | the player | `penalty_card` or `card`, `withdrawn: true`, `trick`"."""
    rc, rulings, err = replay(tmp_path, capsys, table() + calls(AUCTION) + tail)
    assert rc == 0, err
    back = only(rulings, remedy, "BP-53-56")
    assert (back[key], back.get("withdrawn"), back.get("trick")) == (card, True, trick), title


def test_a_second_card_in_a_trick_is_taken_back_by_a_withdraw(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/events.md: a second card from one player in a trick "is not played, and the director puts the
    trick right (a `withdraw` takes it back)". The withdraw is taken (`deal_stands` `BP-66-67`, the card
    back in his hand) and play goes on; a second withdraw of it is refused (nothing waits)."""
    head = table() + calls(AUCTION) + plays("W:KS N:3H E:4S W:2S")
    back = {"type": "withdraw", "seat": "W", "card": "2S"}
    rc, rulings, err = replay(tmp_path, capsys, head + [back] + plays("S:3S N:AD E:TD S:3D W:2D"))
    assert rc == 0, err
    assert only(rulings, "defective_trick", "BP-66-67")["card"] == "2S"
    took = only(rulings, "deal_stands", "BP-66-67")
    assert (took["card"], took["withdrawn"], took["trick"], took["seat"]) == ("2S", True, 1, "W")
    rc, _, err = replay(tmp_path, capsys, head + [back, back])
    assert rc == 2 and "withdraw" in err


def test_a_defenders_card_out_of_turn_that_would_revoke_at_his_turn_is_a_penalty_card(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Law 57D as docs/events.md reads it: East plays a club before dummy, on West's spade lead, holding
    spades. At his turn (after dummy's card) the club cannot be played legally, so it goes back to his
    hand as a penalty card, and East follows with a spade. Dummy's card in turn was refused before."""
    rc, rulings, err = replay(tmp_path, capsys, table() + calls(AUCTION) + plays("W:KS E:6C N:3H E:4S S:3S"))
    assert rc == 0, err
    assert only(rulings, "attention", "BP-57")["options"] == ["at_turn"]
    p = only(rulings, "penalty", "BP-57")
    assert (p["seat"], p["penalty_card"], p["trick"]) == ("E", "6C", 1)
    assert not [r for r in rulings if r.get("clause") == "BP-61"]      # the club never was on the trick


def test_a_revoke_still_open_when_a_ruled_claim_ends_play_is_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """East revokes in trick 1 and nobody plays on; South claims, East disputes (which establishes
    nothing, BP-63) and the director rules. The revoke was neither corrected nor established: no trick
    moves, and the table must not score the hand as if there had been none: an `attention` `BP-64` names
    it for the director (who may restore equity)."""
    rc, rulings, err = replay(tmp_path, capsys, table() + calls(AUCTION) + plays("W:KS N:2C E:6C S:3S") + [
        {"type": "claim", "seat": "S", "tricks": 10}, {"type": "claim_reply", "seat": "E", "agree": False},
        {"type": "claim_ruled", "tricks": 9}])
    assert rc == 0, err
    named = only(rulings, "attention", "BP-64")
    assert (named["offender"], named["revoke_trick"], named["tricks"], named["counted"]) == ("E", 1, 0, [])
    assert not [r for r in rulings if r.get("clause") == "BP-63"]
    assert only(rulings, "score", "CB-rubber")["tricks"] == 9


def test_an_insufficient_bid_replaced_by_another_bars_the_partner_at_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Law 27B4 (2017): East's insufficient 1H, not accepted, replaced by another insufficient bid (1D);
    South does not accept that one either (he calls): it is cancelled and West must pass for the rest of
    the auction whatever East bids then (27B3) — not "two diamonds with nothing more", which is the
    first insufficient bid's own remedy and for hearts, not diamonds."""
    rc, rulings, err = replay(tmp_path, capsys, table() + [
        {"type": "call", "seat": "N", "call": "1S"}, {"type": "call", "seat": "E", "call": "1H"},
        {"type": "call", "seat": "E", "call": "1D"}, {"type": "call", "seat": "E", "call": "2D"},
        {"type": "call", "seat": "S", "call": "pass"}, {"type": "call", "seat": "W", "call": "2S"}])
    assert rc == 0, err
    second = [r for r in rulings if r.get("clause") == "BP-27" and r.get("call") == "1D"]
    assert second[0]["remedy"] == "attention" and "lowest_sufficient" not in second[0]["options"]
    barred = [r for r in rulings if r.get("remedy") == "penalty" and r.get("clause") == "BP-27"]
    assert barred and barred[0]["bars"] == [["W", "rest"]]
    assert only(rulings, "penalty", "BP-35-36")["detail"] == "must_pass"          # West's 2S


def test_a_second_insufficient_bid_accepted_leaves_nothing_to_judge(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same, South accepting East's 1D: it stands, no bar, and East's later calls are calls in turn
    (no director's judgement of a replacement)."""
    rc, rulings, err = replay(tmp_path, capsys, table() + [
        {"type": "call", "seat": "N", "call": "1S"}, {"type": "call", "seat": "E", "call": "1H"},
        {"type": "call", "seat": "E", "call": "1D"}, {"type": "accept", "seat": "S"},
        *calls("pass 2S 3D pass pass pass", "S")])
    assert rc == 0, err
    assert not [r for r in rulings if r.get("remedy") == "penalty"]
    assert not [r for r in rulings if r.get("options") == ["comparable", "bar"]]
    assert only(rulings, "contract", "BP-22")["contract"] == "3D"


@pytest.mark.parametrize("when", ["auction", "play"])
def test_a_card_faced_after_the_deal_is_journaled_not_ruled(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], when: str) -> None:
    """docs/events.md: a `card_faced` during the auction or the play gives no ruling (no docs/laws.md row)."""
    faced = {"type": "card_faced", "card": "AH", "where": "table", "by": "W"}
    head = table() + (calls("1D pass") if when == "auction" else calls(AUCTION) + plays("W:KS"))
    rc, before, _ = replay(tmp_path, capsys, head)
    rc2, after, err = replay(tmp_path, capsys, head + [faced])
    assert rc == rc2 == 0, err
    assert after == before


@pytest.mark.parametrize(("title", "cards", "claim", "remedy", "moved", "ns"), [
    # South ruffs the spade lead holding spades and wins it, leads to trick 2 (established), West wins
    # and claims the rest: South won the revoke trick, his side no later one: that trick only (BP-64).
    ("revoker won it, side won none later", "W:KS N:2C E:4S S:2H S:4H W:AH N:3H E:5H",
     {"type": "claim", "seat": "W", "tricks": 11}, "penalty", 1, 0),
    # South discards a diamond on the spade lead holding spades; West wins it and South concedes the rest
    # (which establishes it): South's side won no trick at or after it: none moves. (Not West revoking
    # and conceding: West's ace of hearts is the top trump, and law 71 gives its trick back, BP-68-71.)
    ("offenders won nothing from it on", "W:KS N:2C E:4S S:3D",
     {"type": "claim", "seat": "S", "tricks": 0}, "attention", 0, 0),
])
def test_bp64_branches_ended_by_a_claim(tmp_path: Path, capsys: pytest.CaptureFixture[str], title: str,
                                        cards: str, claim: Ev, remedy: str, moved: int, ns: int) -> None:
    answer = {"type": "claim_reply", "seat": "S" if claim["seat"] in "EW" else "W", "agree": True}
    rc, rulings, err = replay(tmp_path, capsys, table() + calls(AUCTION) + plays(cards) + [claim, answer])
    assert rc == 0, err
    assert only(rulings, remedy, "BP-64")["tricks"] == moved, title
    assert only(rulings, "score", "CB-rubber")["tricks"] == ns
