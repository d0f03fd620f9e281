"""A whole euchre night through real euchre tables on a local Mosquitto (``cardtable euchre demo``), judged
from its exports alone by the outsider scorer (written from docs/scoring.md and docs/euchre.md), which is
shown to fail on tampered exports."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from firmware_host.euchre_night.night_demo import EuchreDemo
from firmware_host.euchre_night.session import NightSession
from firmware_host.euchre_night.views import standings_export
from laws.euchre_night import formats
from tests.euchre_night.outsider import rescore


def _need_mosquitto() -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (Debian package mosquitto; `make test` installs it)")


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    _need_mosquitto()
    out = tmp_path_factory.mktemp("euchre") / "night1"
    result = EuchreDemo(out, tables=3, rounds=3, hands=4, seed=7, renege=0.3, wrong_count=0.08,
                        alone=0.7, misdeal=0.15).run(timeout=300)
    return {"result": result, "out": out,
            "standings": json.loads((out / "standings.json").read_text()),
            "hands": json.loads((out / "hands.json").read_text())}


def test_the_outsider_scorer_agrees_with_every_standing(night: dict[str, Any]) -> None:
    assert night["standings"]["finished"] is True
    assert len(night["standings"]["standings"]) == 12
    assert rescore(night["standings"], night["hands"]) == []


@pytest.mark.parametrize("tamper", ["tricks", "penalty", "points", "seat", "place"])
def test_the_outsider_scorer_fails_on_a_tampered_export(night: dict[str, Any], tamper: str) -> None:
    st, hd = copy.deepcopy(night["standings"]), copy.deepcopy(night["hands"])
    if tamper == "tricks":
        h = next(h for h in hd["hands"] if h["tricks"] == 3)
        h["tricks"] = 5
    elif tamper == "penalty":
        h = next(h for h in hd["hands"] if h["penalties"])
        h["penalties"] = []
    elif tamper == "points":
        st["standings"][0]["points"] = str(int(st["standings"][0]["points"].split("/")[0]) + 1)
    elif tamper == "seat":
        t = st["rounds"][0]["tables"][0]["seats"]
        t["N"], t["E"] = t["E"], t["N"]
    else:
        st["standings"][0]["place"], st["standings"][-1]["place"] = st["standings"][-1]["place"], st["standings"][0]["place"]
    assert rescore(st, hd) != []


def test_every_renege_made_is_in_the_record_with_its_law_and_penalty(night: dict[str, Any]) -> None:
    made = night["result"].made.get("renege", 0)
    reneges = [(h, r) for h in night["hands"]["hands"] for r in h["reneges"]]
    assert made > 0, "the seed makes reneges"
    # a renege in a hand the director's call cut short is never sent; every other one is in the record
    assert len(reneges) <= made and len(reneges) >= made - 3
    for h, r in reneges:
        assert r["clause"] == "EU-64" and r["law"] == "Euchre, law 64" and r["seat"] in "NESW"
        side = "NS" if r["seat"] in "NS" else "EW"
        pens = [p for p in h["penalties"] if p["clause"] == "EU-63" and p["offending"] == side]
        assert pens and pens[0]["law"] == "Euchre, law 63"
        assert pens[0]["points"] == (5 if h["alone"] else 3)
        other = "EW" if side == "NS" else "NS"
        for seat in ("NS" if other == "NS" else "EW"):
            assert h["points"][seat] >= pens[0]["points"]


def test_a_misdeal_comes_with_the_next_hand_with_its_law(night: dict[str, Any]) -> None:
    made = night["result"].made.get("misdeal", 0)
    assert made > 0, "the seed makes misdeals"
    found = [r for h in night["hands"]["hands"] for r in h["rulings"] if r["remedy"] == "misdeal"]
    assert made - 3 <= len(found) <= made
    for h in night["hands"]["hands"]:
        for r in h["rulings"]:
            if r["remedy"] == "misdeal":
                assert r["law"].startswith("Euchre, law") and r["deal"] < h["deal"]


def test_the_tricks_are_the_cards(night: dict[str, Any]) -> None:
    power_order = "AKQJT98"
    same = {"S": "C", "C": "S", "H": "D", "D": "H"}
    for h in night["hands"]["hands"]:
        trump = h["trump"]

        def suit(card: str, trump: str = trump) -> str:
            return trump if card[0] == "J" and card[1] == same[trump] else card[1]

        def power(card: str, led: str, trump: str = trump) -> int:
            if card[0] == "J" and card[1] == trump:
                return 100
            if card[0] == "J" and card[1] == same[trump]:
                return 99
            if card[1] == trump:
                return 90 - "AKQJT987".index(card[0])
            return 50 - "AKQJT987".index(card[0]) if suit(card) == led else 0

        size = 3 if h["alone"] else 4
        plays = h["plays"]
        assert len(plays) == 5 * size
        makers = 0
        for i in range(0, len(plays), size):
            trick = plays[i:i + size]
            led = suit(trick[0][1])
            winner = max(trick, key=lambda p: power(p[1], led))[0]
            makers += ("NS" if winner in "NS" else "EW") == h["makers"]
        assert h["tricks"] == makers, power_order


def test_progressive_seats_follow_the_winners_and_the_last_round_was_called(night: dict[str, Any]) -> None:
    rounds = night["standings"]["rounds"]
    hands = night["hands"]["hands"]
    for r in rounds[:-1]:
        current = formats.Round(r["round"], tuple(tuple(t["seats"][s]["player"] for s in "NSEW")
                                                   for t in r["tables"]))  # type: ignore[misc]
        ns_won = {}
        for t in r["tables"]:
            mine = [h for h in hands if h["round"] == r["round"] and h["table_number"] == t["table_number"]]
            ns = sum(max(h["points"]["N"], h["points"]["S"]) for h in mine)
            ew = sum(max(h["points"]["E"], h["points"]["W"]) for h in mine)
            hn = sum(max(h["points"]["N"], h["points"]["S"]) > 0 for h in mine)
            he = sum(max(h["points"]["E"], h["points"]["W"]) > 0 for h in mine)
            ns_won[t["table_number"]] = (ns, hn) >= (ew, he)
        nxt = formats.progressive_next(current, ns_won)
        got = tuple(tuple(t["seats"][s]["player"] for s in "NSEW") for t in rounds[r["round"]]["tables"])
        assert got == nxt.tables
    assert night["hands"]["calls"] == [3]
    last = [h for h in hands if h["round"] == 3]
    assert 3 <= len(last) <= 12


def test_the_session_reopens_to_the_same_night(night: dict[str, Any]) -> None:
    s = NightSession.open(night["out"] / "night")
    try:
        again = standings_export(s.night, s.head())
        assert again["standings"] == night["standings"]["standings"]
        assert s.journal.verify().ok
    finally:
        s.close()


def test_an_odd_rotating_night_credits_its_sit_outs(tmp_path: Path) -> None:
    _need_mosquitto()
    out = tmp_path / "odd"
    EuchreDemo(out, tables=2, rounds=3, hands=2, fmt="rotating", players=9, seed=3, call_last=False).run(timeout=300)
    st = json.loads((out / "standings.json").read_text())
    hd = json.loads((out / "hands.json").read_text())
    assert rescore(st, hd) == []
    outs = [p["player"] for r in st["rounds"] for p in r["out"]]
    assert len(outs) == 3 and len(set(outs)) == 3
    credited = {row["player"]: row for row in st["standings"]}
    assert all(credited[p]["rounds"] == 2 for p in outs)


def test_a_house_rules_night_is_scored_by_its_rules(tmp_path: Path) -> None:
    from laws.euchre_night.scoring import Rules, Scoring

    _need_mosquitto()
    out = tmp_path / "house"
    EuchreDemo(out, tables=2, rounds=2, hands=4, seed=11, alone=0.6, renege=0.2, call_last=False,
               rules=Rules(Scoring.HOUSE, loner=5, loner_partner=0, euchred=3)).run(timeout=300)
    st = json.loads((out / "standings.json").read_text())
    hd = json.loads((out / "hands.json").read_text())
    assert hd["scoring"] == {"scoring": "house", "loner": 5, "loner_partner": 0, "euchred": 3}
    assert rescore(st, hd) == []
    marches = [h for h in hd["hands"] if h["alone"] and h["tricks"] == 5 and not h["penalties"]]
    for h in marches:
        assert h["points"][h["alone"]] == 5 and sum(h["points"].values()) == 5
    somerset = copy.deepcopy(hd)
    somerset["scoring"] = {"scoring": "somerset", "loner": 4, "loner_partner": None, "euchred": 2}
    euchred = [h for h in hd["hands"] if h["tricks"] < 3 and not h["penalties"] and not h["void"]]
    assert euchred, "the seed gives euchres"
    for h in euchred:
        defenders = "EW" if h["makers"] == "NS" else "NS"
        assert h["points"][defenders[0]] == (6 if h["alone"] else 3)
    assert rescore(st, somerset) != []      # the outsider scorer reads the night's rules, and can fail on them


def test_a_table_s_configuration_loads_from_a_relative_out_folder(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Audit m28: ``cardtable euchre demo --out night`` (a relative folder, as a user types it) stopped
    with a traceback: ``mqtt.password_file: file .../night/tables/table-01/night/tables/table-01/
    mqtt.password does not exist``: the demo wrote its tables' paths relative, and the configuration reads
    them from its own folder."""
    from firmware_host.config import load_config
    from firmware_host.euchre_night.night_demo import write_config

    monkeypatch.chdir(tmp_path)
    folder = Path("night") / "tables" / "table-01"
    folder.mkdir(parents=True)
    cfg = load_config(write_config(folder, "table-01", 1, "127.0.0.1", 1883, "pw"), env={})
    assert cfg.mqtt.password_file is not None
    assert Path(cfg.mqtt.password_file) == (tmp_path / folder / "mqtt.password")
