"""Euchre scenarios an outside audit wrote from docs/laws.md and docs/events.md (logs in ``tests/laws/logs``),
each run by ``cardtable replay`` as a tester would: what the documents say the table rules."""

from __future__ import annotations

import json
from pathlib import Path

from tests.contract.outsider import replay

LOGS = Path(__file__).parent / "logs"


def _run(name: str):  # type: ignore[no-untyped-def]
    return replay((LOGS / f"euchre_{name}.jsonl").read_text(encoding="utf-8"))


def test_EU_89_call_highest_on_a_dealer_void_in_the_suit_led_is_ruled_not_a_traceback() -> None:
    """The lone hand calls for the dealer's highest card of the suit led, and the dealer has none: any card
    of his is lawful. It crashed (IndexError) with exit 1."""
    run = _run("eu89")
    assert run.code == 0 and "Traceback" not in run.err, run.err
    assert ("attention", "EU-89") in run.remedies()


def test_EU_42_a_misdeal_names_the_seat_as_every_ruling_does() -> None:
    run = _run("eu42_short")
    [misdeal] = [r for r in run.rulings if r.get("remedy") == "misdeal"]
    assert "West (Di) received 2 cards" in misdeal["reason"], misdeal["reason"]


def test_EU_30_the_cutter_shuffling_after_his_cut_is_ruled() -> None:
    run = _run("eu30_shuffle_after_cut")
    assert run.code == 0 and ("deal_stands", "EU-30") in run.remedies(), run.out


def test_EU_33_a_card_no_euchre_pack_holds_turned_up_or_played_is_an_incorrect_pack() -> None:
    for name, how in (("bad_turn_2C", "turned up"), ("bad_play_2C", "played by East (Cy)")):
        run = _run(name)
        [new] = [r for r in run.rulings if r.get("clause") == "EU-33"]
        assert new["remedy"] == "replace_pack" and f"two of clubs {how}" in new["reason"], json.dumps(new)
