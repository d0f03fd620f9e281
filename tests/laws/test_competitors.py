"""The one competitor type (issue 36, "names that say what they are"): a movement's pair is the scoring's
pair, teams and players are the same type of another kind, and no module defines a second ``Pair`` or
gives ``Seating`` a second meaning."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import laws.duplicate.movement as movement
import laws.scoring as scoring
from laws.cards import Side
from laws.competitors import Competitor, CompetitorError, Kind, Pair, player, team
from laws.errors import MovementError, SessionError

ROOT = Path(__file__).resolve().parents[2]

# type names that must each be defined once in the product: what a newcomer reads must mean one thing
ONE_MEANING = ("Pair", "Competitor", "Seating", "DuplicateSeating", "EuchreSeating", "Player", "Team")
# names of who competes: each is the one competitor type (``Competitor``, or a name for it), never a class
COMPETITOR_NAMES = ("Pair", "Team", "Player", "Individual", "Competitor")


def test_the_movement_and_the_scoring_share_one_pair() -> None:
    assert movement.Pair is scoring.Pair is Pair is Competitor
    a, b = movement.Pair(3, "NS"), scoring.Pair(3, Side.NS)
    assert a == b and hash(a) == hash(b) and {a: 1}[b] == 1
    assert a.direction is Side.NS and a.direction == "NS" and movement.NS == "NS"
    assert a != movement.Pair(3, "EW") and a != movement.Pair(3)
    assert str(a) == a.label == "3 NS" and str(Pair(5)) == Pair(5).label == "5"
    assert a.key == (3, "NS") and Pair(5).key == (5, "")


def test_a_mitchell_fields_are_plain_strings_keyed_by_the_scoring_pair() -> None:
    m = movement.mitchell(3, 2)
    fields = m.fields()
    assert {type(f) for f in fields.values()} == {str} and set(fields.values()) == {"NS", "EW"}
    assert fields[scoring.Pair(2, Side.EW)] == "EW"


def test_pairs_sort_by_number_then_direction() -> None:
    given = [Pair(3, "NS"), Pair(1, "EW"), Pair(3, "EW"), Pair(2, "NS")]
    assert [p.label for p in sorted(given)] == ["1 EW", "2 NS", "3 EW", "3 NS"]


def test_kinds_are_told_apart_and_members_are_not_identity() -> None:
    assert team(4) != Pair(4) and player(4) != team(4) and team(4).kind is Kind.TEAM
    assert team(4, ("Ann", "Bo")) == team(4) and team(4, ("Ann", "Bo")).members == ("Ann", "Bo")
    assert player(7, "Cy").members == ("Cy",) and player(7).label == "7"
    assert Competitor(2, kind="team").kind is Kind.TEAM  # type: ignore[arg-type]


@pytest.mark.parametrize(("args", "words"), [
    ((0,), "a pair number is a whole number from 1, got 0"),
    ((True,), "a pair number is a whole number from 1, got True"),
    ((3, "N"), "pair 3: direction must be NS, EW or None, got 'N'"),
    ((3, None, "club"), "a competitor is a pair, team or player, got 'club'"),
])
def test_what_is_refused_is_refused_as_both_rooms_caught_it(args: tuple[object, ...], words: str) -> None:
    with pytest.raises(CompetitorError, match=f"^{words}$") as caught:
        Competitor(*args)  # type: ignore[arg-type]
    assert isinstance(caught.value, MovementError) and isinstance(caught.value, SessionError)
    assert movement.MovementError is MovementError and scoring.SessionError is SessionError


def defined_twice(sources: dict[str, str], names: tuple[str, ...] = ONE_MEANING) -> dict[str, list[str]]:
    """Each of ``names`` defined as a class (or assigned at module level) in more than one source."""
    where: dict[str, list[str]] = {}
    for path, text in sources.items():
        for node in ast.parse(text).body:
            if isinstance(node, ast.ClassDef) and node.name in names:
                where.setdefault(node.name, []).append(path)
    return {n: ps for n, ps in where.items() if len(ps) > 1}


def test_the_checker_finds_a_second_pair() -> None:
    broken = {"a.py": "class Pair:\n    pass\n", "b.py": "class Pair:\n    number: int\n", "c.py": "Pair = 1\n"}
    assert defined_twice(broken) == {"Pair": ["a.py", "b.py"]}
    assert defined_twice({"a.py": "class Pair:\n    pass\n"}) == {}


def competitor_classes(sources: dict[str, str]) -> list[str]:
    """``path:Name`` of each class of who competes other than the one ``Competitor``, at any depth."""
    return [f"{p}:{node.name}" for p, text in sources.items() for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.ClassDef) and node.name in COMPETITOR_NAMES
            and not (node.name == "Competitor" and p == "laws/competitors.py")]


def test_the_checker_finds_a_second_competitor_class() -> None:
    broken = {"laws/competitors.py": "class Competitor:\n    pass\n",
              "laws/x.py": "class Player:\n    name: str\n",
              "firmware_host/y.py": "class Team:\n    pass\n",
              "firmware_host/z.py": "def f():\n    class Competitor:\n        pass\n"}
    assert competitor_classes(broken) == ["laws/x.py:Player", "firmware_host/y.py:Team", "firmware_host/z.py:Competitor"]
    assert defined_twice({"a.py": "class Player:\n    pass\n", "b.py": "class Player:\n    n: int\n"}) == {
        "Player": ["a.py", "b.py"]}
    assert competitor_classes({"laws/competitors.py": "class Competitor:\n    pass\n"}) == []


def test_no_type_name_means_two_things_in_the_product() -> None:
    sources = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
               for d in ("laws", "firmware_host", "vision") for p in sorted((ROOT / d).rglob("*.py"))}
    assert defined_twice(sources) == {}
    # ``Pair``, ``Player`` and ``Team`` are the one competitor type's names, never classes of their own
    assert competitor_classes(sources) == []


def test_a_player_is_a_competitor_whoever_names_him() -> None:
    from firmware_host.duplicate.results.export import Player as ResultsPlayer
    from laws.euchre_night.night import Format, NightSetup
    from laws.euchre_night.night import Player as NightPlayer
    ann = NightPlayer(3, "Ann", "M12")
    assert type(ann) is Competitor and ann.kind is Kind.PLAYER and (ann.number, ann.name, ann.member) == (3, "Ann", "M12")
    bob = ResultsPlayer("Bob", "M7", "1001")
    assert type(bob) is Competitor and bob.kind is Kind.PLAYER and bob.number == 0
    assert (bob.name, bob.member, bob.federation) == ("Bob", "M7", "1001") and ResultsPlayer().name == ""
    setup = NightSetup("n", (ann,), Format.SWISS, 1, 1, ("t1",))
    assert NightSetup.from_dict(setup.to_dict()).players == (ann,)
    with pytest.raises(CompetitorError, match="^a pair number is a whole number from 1, got 0$"):
        Competitor(0)
