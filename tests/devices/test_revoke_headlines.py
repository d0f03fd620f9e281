"""A revoke ruling that moves no trick is not headed "TRICKS TRANSFERRED": at a duplicate table a
``demand`` ``revoke`` the tricks do not prove, and an established revoke law 64B exempts (both sides
revoked, 64B7), were headed with the transfer's words, so players read that tricks had moved when none
had. The terminal's and the dashboard's words are the same (``club.words`` rebuilds the ruling from what
the table published)."""

from __future__ import annotations

from firmware_host.club.words import headline as dashboard_headline
from firmware_host.devices.display_text import headline, title
from laws.cards import Seat
from laws.events import DemandMade
from laws.rulings import Ruling
from tests.laws.bridge_table import feed
from tests.laws.test_bridge_engine_play import BOTH_REVOKE, P, dup_four_hearts, four_hearts
from tests.laws.test_duplicate_play_raised import east_revokes_then_plays_out, physical_board


def _heads(rulings: list[Ruling], clause: str) -> list[str]:
    """Each ``clause`` ruling's headline, checked to read the same on the dashboard."""
    out = [headline(r) for r in rulings if r.clause == clause]
    assert [dashboard_headline(r.to_dict()) for r in rulings if r.clause == clause] == \
        [title(r) for r in rulings if r.clause == clause]
    return out


def test_a_revoke_alleged_that_the_tricks_do_not_prove_says_none_was_found() -> None:
    eng = physical_board()
    east_revokes_then_plays_out(eng)
    none = feed(eng, DemandMade(Seat.E, "revoke"))           # East alleges one by North-South: none
    assert _heads(none, "BP-64") == ["NO REVOKE FOUND IN THE TRICKS"]
    found = feed(eng, DemandMade(Seat.S, "revoke"))          # South alleges East's: found, one trick moves
    assert _heads(found, "BP-63") == ["REVOKE ESTABLISHED"]
    assert _heads(found, "BP-64") == ["TRICKS TRANSFERRED"]


def test_revokes_by_both_sides_at_a_duplicate_table_say_no_trick_moved() -> None:
    """2017 law 64B7: neither revoke moves a trick; at a rubber table each does (its own headline kept)."""
    dup, rubber = dup_four_hearts(), four_hearts()
    plays = [P(Seat(i[0]), i[2:]) for i in BOTH_REVOKE.split()]
    assert _heads(feed(dup, *plays), "BP-64") == ["REVOKE: NO TRICKS TRANSFERRED"] * 2
    assert _heads(feed(rubber, *plays), "BP-64") == ["TRICKS TRANSFERRED"] * 2
