"""The simultaneous's pure core: numbered results taken exactly once whatever the link does, the field
scored across clubs (equal to a whole rescore after every message), and what a club may see, when."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from laws.cards import Seat
from laws.competition.sections import Across, score_event
from laws.federation.field import ClubEntry, Field, FieldError
from laws.federation.ledger import Ledger, Verdict
from laws.federation.release import club_may_see, public_boards
from laws.scoring.bridge import parse_contract
from laws.scoring.session_values import Line, Method, Pair, Played


def test_ledger_verdicts() -> None:
    led = Ledger(frozenset({"a", "b"}))
    assert led.offer("a", 1, "x").verdict is Verdict.TAKEN
    assert led.offer("a", 1, "x").verdict is Verdict.REPEAT
    assert led.offer("a", 1, "y").verdict is Verdict.CONFLICT
    gap = led.offer("a", 3, "z")
    assert gap.verdict is Verdict.GAP and gap.expect == 2 and "send again from 2" in gap.why
    assert led.offer("c", 1, "x").verdict is Verdict.UNKNOWN_CLUB
    assert led.state() == {"a": 1, "b": 0}


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 40))
def test_every_message_taken_exactly_once_in_order_whatever_the_link_does(seed: int, count: int) -> None:
    """A link that drops, repeats and reorders; the club resends from what the federation expects
    whenever it hears of a gap or gets no answer: the taken sequence is the club's, once each."""
    rng = random.Random(seed)
    led = Ledger(frozenset({"c"}))
    sent_upto = 0
    in_flight: list[int] = []
    rounds = 0
    while led.expect("c") <= count and rounds < 10_000:
        rounds += 1
        if sent_upto < count and rng.random() < 0.6:
            sent_upto += 1
            in_flight.append(sent_upto)
        if rng.random() < 0.2 and in_flight:
            in_flight.append(rng.choice(in_flight))          # a duplicate
        if rng.random() < 0.3:
            rng.shuffle(in_flight)                            # reordering
        if not in_flight:
            in_flight.extend(range(led.expect("c"), sent_upto + 1))   # a timeout: resend what is unanswered
            continue
        n = in_flight.pop(0)
        if rng.random() < 0.15:
            continue                                          # dropped
        answer = led.offer("c", n, f"m{n}")
        assert answer.verdict in (Verdict.TAKEN, Verdict.REPEAT, Verdict.GAP)
        if answer.verdict is Verdict.GAP:
            in_flight = [m for m in in_flight if m < answer.expect] + list(range(answer.expect, sent_upto + 1))
    assert led.taken["c"] == [f"m{n}" for n in range(1, count + 1)]


def _line(board: int, ns: int, ew: int, contract: str, tricks: int, group: str = "A") -> Line:
    return Line(board, Pair(ns, "NS"), Pair(ew, "EW"), Played(parse_contract(contract), Seat.N, tricks), group)


def _entry(club: str, pairs: int) -> ClubEntry:
    return ClubEntry(club, {Pair(i, d): d for i in range(1, pairs + 1) for d in ("NS", "EW")}, pairs)


def test_the_field_after_every_message_equals_a_whole_rescore_in_any_order() -> None:
    clubs = {c: _entry(c, 3) for c in ("c1", "c2", "c3")}
    rng = random.Random(4)
    messages = []
    for c in clubs:
        for b in (1, 2):
            for t in range(1, 4):
                messages.append((c, _line(b, t, (t + b) % 3 + 1, "4S", rng.randint(7, 12))))
    rng.shuffle(messages)
    live = Field((1, 2), clubs)
    for k, (club, line) in enumerate(messages, 1):
        live.apply(club, line)
        fresh = Field((1, 2), clubs)      # the same messages taken in another order: the same field
        for c2, l2 in sorted(messages[:k], key=lambda m: (m[1].board, m[0], m[1].ns.number), reverse=True):
            fresh.apply(c2, l2)
        incremental = live.score()
        assert incremental.rankings == fresh.score().rankings
        whole = score_event({c: ((1, 2), e.due, e.fields) for c, e in clubs.items()}, live.all_lines(),
                            Method.MATCHPOINTS, Across.YES)     # a whole rescore from scratch
        assert incremental.rankings == whole.rankings
    rank = dict(live.score().rankings)
    assert {sp.section for _p, sp, _s in rank["field NS"]} == {"c1", "c2", "c3"}
    assert len(rank["c2 NS"]) == 3


def test_a_correction_replaces_and_a_removal_takes_off() -> None:
    clubs = {"c1": _entry("c1", 2), "c2": _entry("c2", 2)}
    f = Field((1,), clubs)
    f.apply("c1", _line(1, 1, 1, "4S", 10))
    f.apply("c1", _line(1, 2, 2, "4S", 9))
    f.apply("c2", _line(1, 1, 2, "4S", 11))
    f.apply("c1", _line(1, 1, 1, "4S", 12))       # the director corrects 10 tricks to 12
    assert len(list(f.all_lines())) == 3
    best = dict(f.score().rankings)["field NS"][0]
    assert (best[1].section, best[1].pair.number) == ("c1", 1)
    f.apply("c1", None, remove=(1, Pair(1, "NS"), Pair(1, "EW")))
    assert len(list(f.all_lines())) == 2


def test_a_fouled_board_is_scored_by_group_across_the_field() -> None:
    clubs = {c: _entry(c, 2) for c in ("c1", "c2")}
    f = Field((1,), clubs)
    f.apply("c1", _line(1, 1, 1, "4S", 10))
    f.apply("c1", _line(1, 2, 2, "4S", 8, group="B"))
    f.apply("c2", _line(1, 1, 1, "4S", 11))
    f.apply("c2", _line(1, 2, 2, "4S", 7, group="B"))
    board = f.score().sessions["field"].boards[0]
    assert {ln.group for ln in board.lines} == {"A", "c1/B", "c2/B"}


def test_the_field_refuses_what_is_not_the_clubs() -> None:
    f = Field((1,), {"c1": _entry("c1", 1)})
    for club, line, words in (("zz", _line(1, 1, 1, "1N", 7), "does not take part"),
                              ("c1", _line(2, 1, 1, "1N", 7), "not one of the event's boards"),
                              ("c1", _line(1, 5, 1, "1N", 7), "pair 5 NS is not one of the club's pairs")):
        try:
            f.apply(club, line)
        except FieldError as exc:
            assert words in str(exc)
        else:
            raise AssertionError(f"{club} {line} was taken")


def test_a_club_sees_a_board_only_once_it_finished_it() -> None:
    finished = {"c1": frozenset({1, 2}), "c2": frozenset({1})}
    assert club_may_see("c2", 1, finished, closed=False)
    assert not club_may_see("c2", 2, finished, closed=False)
    assert club_may_see("c2", 2, finished, closed=True)
    assert public_boards((1, 2, 3), finished, frozenset({"c1", "c2"}), closed=False) == (1,)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_the_pairs_figures_kept_between_rankings_equal_a_whole_rescore(seed: int) -> None:
    """Results, corrections and lines taken off, ranked on a set of boards that grows and shrinks (the
    public boards): the figures carried from one ranking to the next give, each time, the rankings of a
    whole rescore of those boards; the stamp changes exactly when the figures do."""
    rng = random.Random(seed)
    boards = (1, 2, 3)
    clubs = {c: _entry(c, 3) for c in ("c1", "c2", "c3")}
    live = Field(boards, clubs)
    last = None
    kept = None
    for _ in range(40):
        club, b, t = rng.choice(sorted(clubs)), rng.choice(boards), rng.randint(1, 3)
        ew = (t + b) % 3 + 1
        if rng.random() < 0.15:
            live.apply(club, None, remove=(b, Pair(t, "NS"), Pair(ew, "EW")))
        else:
            live.apply(club, _line(b, t, ew, rng.choice(("4S", "3NT", "5C")), rng.randint(6, 12)))
        shown = tuple(x for x in boards if rng.random() < 0.7) or (1,)
        scored = live.prepare(shown)
        lines = [sl for sl in live.all_lines() if sl.line.board in shown]
        if not lines:
            continue
        whole = score_event({c: (shown, e.due, e.fields) for c, e in clubs.items()}, lines,
                            Method.MATCHPOINTS, Across.YES)
        assert scored.rank().rankings == whole.rankings
        kept = kept or scored.live()          # the pairs placed again one by one, kept from view to view
        assert scored.rank(kept).rankings == whole.rankings
        again = live.prepare(shown)
        assert again.stamp == scored.stamp           # nothing changed: the same figures, the same stamp
        if last is not None and last[0] == scored.stamp:
            assert last[1] == scored.rank().rankings
        last = (scored.stamp, scored.rank().rankings)


def test_a_kept_ranking_would_be_caught_by_the_whole_rescore() -> None:
    """The check above can fail: figures not carried forward (a stale ranking) differ from a rescore."""
    clubs = {c: _entry(c, 2) for c in ("c1", "c2")}
    live = Field((1,), clubs)
    for c in clubs:
        live.apply(c, _line(1, 1, 1, "4S", 10))
        live.apply(c, _line(1, 2, 2, "4S", 9))
    stale = live.prepare((1,)).rank()
    live.apply("c2", _line(1, 2, 2, "4S", 12))
    whole = score_event({c: ((1,), e.due, e.fields) for c, e in clubs.items()}, live.all_lines(),
                        Method.MATCHPOINTS, Across.YES)
    assert stale.rankings != whole.rankings
    assert live.prepare((1,)).rank().rankings == whole.rankings


def test_two_clubs_fouled_groups_are_not_compared_with_each_other() -> None:
    """Club c1's group B and club c2's group B are each club's own fouled deal (nothing says they are the
    same cards): each is scored on its own, while group A, the hand record, is compared across the field."""
    clubs = {c: _entry(c, 2) for c in ("c1", "c2")}
    f = Field((1,), clubs)
    f.apply("c1", _line(1, 1, 1, "4S", 10))
    f.apply("c1", _line(1, 2, 2, "4S", 8, group="B"))
    f.apply("c2", _line(1, 1, 1, "4S", 11))
    f.apply("c2", _line(1, 2, 2, "4S", 13, group="B"))
    board = f.score().sessions["field"].boards[0]
    by = {(f.local(ln.ns).section, f.local(ln.ns).pair.number): ln for ln in board.lines}
    assert {ln.group for ln in board.lines} == {"A", "c1/B", "c2/B"}
    assert by[("c2", 1)].ns_points > by[("c1", 1)].ns_points      # group A: c2's 11 tricks beat c1's 10
    # each club's B is alone in its group: the same (Neuberg) points whatever the other club's B scored
    assert by[("c1", 2)].ns_points == by[("c2", 2)].ns_points


def test_a_live_ranking_places_only_the_pairs_that_moved_and_its_check_can_fail() -> None:
    """One correction moves a few pairs: only they are placed again, and the rankings are a whole
    rescore's; a live ranking not told of the correction is caught by the same comparison."""
    clubs = {c: _entry(c, 4) for c in ("c1", "c2")}
    f = Field((1, 2), clubs)
    for c in clubs:
        for b in (1, 2):
            for t in range(1, 5):
                f.apply(c, _line(b, t, t, "4S", 6 + (t * 3 + b) % 7))
    first = f.prepare()
    kept, stale = first.live(), first.live()
    first.rank(kept)
    first.rank(stale)
    f.apply("c2", _line(2, 3, 3, "4S", 13))                 # a correction: c2's pair 3 makes 13 tricks
    now = f.prepare()
    whole = score_event({c: ((1, 2), e.due, e.fields) for c, e in clubs.items()}, f.all_lines(),
                        Method.MATCHPOINTS, Across.YES)
    moved = kept[0].update(now.tallies)
    assert 0 < moved < len(now.tallies)                    # some pairs moved, not all
    assert now.rank(kept).rankings == whole.rankings
    assert first.rank(stale).rankings != whole.rankings    # not told: the comparison fails


def test_a_view_of_a_field_makes_its_pairs_names_once() -> None:
    """Every view of the field used to number all its pairs again (the whole field's fields and each club's,
    about 4,000 pairs at 1,000 tables) and to name a pair afresh for each board it played when a board's field
    was released: the largest part of a view's cost once the ranking was kept pair by pair. A field's clubs
    never change (an entry makes a new field), so each is made once; the answers stay the same."""
    f = Field((1, 2), {"c1": _entry("c1", 3), "c2": _entry("c2", 3)})
    for club in ("c1", "c2"):
        for b in (1, 2):
            f.apply(club, _line(b, 1, 2, "3NT", 9))
    made = []
    real_global = f._global
    f._global = lambda pair, k: made.append(pair) or real_global(pair, k)  # type: ignore[method-assign]
    first = f.prepare()
    before = len(made)
    assert before >= 2 * 12                 # 12 pairs in the field, numbered for both kinds of field
    f.apply("c1", _line(1, 1, 2, "3NT", 10))
    second = f.prepare()
    assert len(made) - before <= 2 * 2      # only board 1's line scored again, no pair numbered again
    assert second.event_fields == first.event_fields and second.club_fields == first.club_fields
    second.event_fields.clear()             # a caller's copy: the field keeps its own
    assert f.prepare().event_fields == first.event_fields
    local = f.namer()
    pair = f.board(1).lines[0].ns
    assert local(pair) is f.namer()(pair) and local(pair).section in ("c1", "c2")


def test_a_new_field_never_gives_the_stamp_of_the_field_before_it() -> None:
    """A club's entry makes a new field, its stamps counted from the start again: a service that kept the
    old field's ranking by its stamp showed the old ranking (without the new club's pairs) for the new
    field's figures (the small scale run: "c00 EW: published 0 rows, a whole rescore gives 2")."""
    one = Field((1,), {"c1": _entry("c1", 3)})
    for t in (1, 2, 3):
        one.apply("c1", _line(1, t, t % 3 + 1, "4S", 8 + t))
    before = one.prepare((1,))
    two = Field((1,), {"c1": _entry("c1", 3), "c2": _entry("c2", 3)}, lines=dict(one.lines))
    two.apply("c2", _line(1, 1, 2, "4S", 10))
    after = two.prepare((1,))
    assert after.tallies != before.tallies
    assert after.stamp != before.stamp


def test_a_board_scored_outside_is_kept_only_if_its_lines_did_not_change_meanwhile() -> None:
    """The service scores a public board outside its lock (``dirty``) and gives the score back (``keep``):
    a score made from lines that changed meanwhile is refused, so the field is always a whole rescore's."""
    clubs = {c: _entry(c, 3) for c in ("c1", "c2")}
    f = Field((1,), clubs)
    for c in clubs:
        for t in (1, 2, 3):
            f.apply(c, _line(1, t, t % 3 + 1, "4S", 7 + t))
    (version, job), = f.dirty((1,)).values()
    stale = job()
    f.apply("c2", _line(1, 1, 2, "4S", 12))               # a correction while the board was being scored
    assert not f.keep(1, version, stale)
    (version, job), = f.dirty((1,)).values()
    assert f.keep(1, version, job()) and f.dirty((1,)) == {}
    whole = score_event({c: ((1,), e.due, e.fields) for c, e in clubs.items()}, f.all_lines(),
                        Method.MATCHPOINTS, Across.YES)
    assert f.score().rankings == whole.rankings
    assert Field((1,), clubs, lines=dict(f.lines)).score().rankings == whole.rankings


def test_the_adjusted_score_forms_the_docstring_gives_are_what_the_code_writes_and_reads() -> None:
    """The adjusted score forms the messages module's docstring gives are what ``line_to_dict`` writes, and
    read back as those results (an artificial score was once given there as fractions of the top,
    "3/5", while the code, and docs/federation.md, send percentages, "60")."""
    import json
    import re

    import laws.federation.messages as messages
    from laws.federation.messages import line_from_dict, line_to_dict
    from laws.scoring.session_values import Artificial, Assigned

    doc = " ".join((messages.__doc__ or "").split())
    given = {next(iter(f)): f for f in (json.loads(m) for m in re.findall(r'``(\{"(?:assigned|artificial)".*?\}\})``', doc))}
    results = {"assigned": Assigned(420), "artificial": Artificial(60, 40)}
    assert sorted(given) == sorted(results)
    for kind, form in given.items():
        line = Line(1, Pair(1, "NS"), Pair(2, "EW"), results[kind])
        assert line_to_dict(line)["result"] == form
        assert line_from_dict(line_to_dict(line) | {"result": form}).result == results[kind]


def test_the_field_refuses_what_its_board_s_scoring_would_refuse_with_the_scoring_s_words() -> None:
    """An audit's run: a pair on both sides of a line, or one pair on two lines of a board, was taken and
    then stopped the board (and every release) being scored, for good. The field now refuses them when
    they come, in the scoring's own words (``check_lines``, one implementation with ``score_boards``)."""
    from laws.scoring.session import SessionError, check_lines, score_boards

    howell = ClubEntry("c1", {Pair(i, None): "one field" for i in range(1, 5)}, 2)
    f = Field((1, 2), {"c1": _entry("c1", 2), "c2": howell})
    both = Line(1, Pair(1, "NS"), Pair(1, "NS"), Played(parse_contract("3NT"), Seat.N, 9))
    assert f.problem("c1", both) == "board 1, line 1: pair 1 NS is on both sides"
    f.apply("c1", _line(1, 1, 1, "4S", 10))
    again = _line(1, 1, 2, "4S", 9)                 # 1 NS v 1 EW, then 1 NS v 2 EW
    assert f.problem("c1", again) == ("board 1: a second result for pair 1 NS (lines 1 and 2) (line 2 is this "
                                      "one; line 1 the club's lines of board 1 taken so far, in pair order)")
    played = Played(parse_contract("3NT"), Seat.N, 9)
    f.apply("c2", Line(1, Pair(2, None), Pair(3, None), played))
    moved = Line(1, Pair(3, None), Pair(4, None), played)   # a Howell's pair 3 on two lines of a board
    assert "board 1: result for pair 3 which the board's traveller lists twice" in f.problem("c2", moved)
    assert f.problem("c1", _line(1, 1, 1, "4S", 11)) == ""  # a correction of the same line is taken
    for club, line in (("c1", both), ("c1", again), ("c2", moved)):
        try:
            f.apply(club, line)
        except FieldError as exc:
            assert str(exc) == f"club {club}: {f.problem(club, line)}"
        else:
            raise AssertionError(f"{line} was taken")
    f.score()                                       # every board still scores
    # one implementation: the check refuses exactly as the scoring does, in its words
    fields = {Pair(1, "NS"): "NS", Pair(1, "EW"): "EW"}
    for lines in ([both], [_line(1, 1, 1, "4S", 10), _line(1, 1, 1, "4S", 9)]):
        words = []
        for scores in (False, True):
            try:
                if scores:
                    score_boards((1,), lines, None, Method.MATCHPOINTS, fields)
                else:
                    check_lines((1,), lines, Method.MATCHPOINTS, fields)
            except SessionError as exc:
                words.append(str(exc))
        assert len(words) == 2 and words[0] == words[1]


def test_the_field_refuses_a_line_of_a_board_the_club_s_entry_does_not_play() -> None:
    f = Field((1, 2, 3), {"c1": ClubEntry("c1", {Pair(1, "NS"): "NS", Pair(1, "EW"): "EW"}, 1, frozenset({1, 2}))})
    assert f.problem("c1", _line(3, 1, 1, "4S", 10)) == \
        "board 3 is not one of the club's boards (its entry gives 1, 2)"
    assert f.problem("c1", _line(2, 1, 1, "4S", 10)) == ""
