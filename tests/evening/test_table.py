"""A real table of the evening (``firmware_host.evening.table``) through a real Mosquitto: built from its
own configuration as ``cardtable run`` builds one, and stopping, with one clear message, when it refuses
what its people enter; the demo then stops every table and says which refused what, and the command exits
2 without a traceback."""

from __future__ import annotations

import random
import shutil
import tomllib
from pathlib import Path

import pytest

from firmware_host.evening.boards import BoardRoom
from firmware_host.evening.duplicate_evening import DuplicateDemo, real_table
from firmware_host.evening.people import People
from firmware_host.evening.table import ClubLink, TablePlace, write_config
from firmware_host.table.inputs import LawInput
from laws.events import FoulRuled
from laws.games.duplicate_board import board_of


def _need_mosquitto() -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (Debian package mosquitto; `make test` installs it)")


def test_the_tables_configuration_is_a_checked_cardtable_run_configuration(tmp_path: Path) -> None:
    from firmware_host.config import load_config

    records = tmp_path / "boards.pbn"
    records.write_text("")
    place = TablePlace("table-03", 3, tmp_path / "tables" / "table-03", records, "boards")
    place.folder.mkdir(parents=True)
    path = write_config(place, ClubLink("127.0.0.1", 18830, tmp_path), "s3cret", None)
    data = tomllib.loads(path.read_text())
    assert data["table"]["game"] == "duplicate-bridge" and data["duplicate"]["session"] is True
    assert (tmp_path / "table-03.password").read_text().strip() == "s3cret"
    assert (tmp_path / "table-03.password").stat().st_mode & 0o077 == 0
    cfg = load_config(path, env={})
    assert cfg.mqtt is not None and cfg.mqtt.username == "table-03" and cfg.duplicate is not None
    assert (cfg.duplicate.table, cfg.duplicate.deal, cfg.shoe.driver, cfg.pins.factory) == (3, "boards", "none", "mock")
    assert cfg.table.data_dir == place.folder


class _Stubborn(People):
    """People who enter the director's decision on a board before any card is against its record."""

    def next_input(self, state):  # type: ignore[no-untyped-def]
        if board_of(state) is not None:
            return LawInput(FoulRuled("fouled"), "director")
        return super().next_input(state)


def test_a_table_that_refuses_its_peoples_input_stops_the_demo_with_its_words(tmp_path: Path) -> None:
    _need_mosquitto()

    def factory(place: TablePlace, link: ClubLink, password: str, room: BoardRoom, rng: random.Random):  # type: ignore[no-untyped-def]
        t = real_table(place, link, password, room, rng)
        if place.number == 2:
            t.people = _Stubborn(t.people.held, rng)
        return t

    demo = DuplicateDemo(tmp_path / "out", 3, 3, "mitchell", seed=1, table_factory=factory, analyse=False)
    with pytest.raises(RuntimeError) as err:
        demo.run(timeout=60)
    words = str(err.value)
    assert words.startswith("a table stopped: table-02: the table did not take foul_ruled") and "(director)" in words
    assert "has been played against its record" in words             # the table's own reason, from its journal
    assert (tmp_path / "out" / "tables" / "table-02" / "journal.sqlite3").exists()
    assert not (tmp_path / "out" / "results.pbn").exists()


def test_the_command_says_it_in_one_line_and_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _need_mosquitto()
    import firmware_host.evening.duplicate_evening as demo_mod
    from firmware_host.cli import main

    def stubborn(place, link, password, room, rng):  # type: ignore[no-untyped-def]
        t = real_table(place, link, password, room, rng)
        t.people = _Stubborn(t.people.held, rng)
        return t

    monkeypatch.setattr(demo_mod, "real_table", stubborn)
    assert main(["duplicate", "demo", "--tables", "3", "--boards", "3", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cardtable duplicate demo: a table stopped: table-0")
    assert "Traceback" not in err


def test_fouls_that_do_not_check_out_are_printed_and_the_command_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    _need_mosquitto()
    import firmware_host.evening.duplicate_evening as demo_mod
    from firmware_host.cli import main

    monkeypatch.setattr(demo_mod, "check_fouls", lambda *a: ["board 1 was played ... and no foul was ruled"])
    assert main(["duplicate", "demo", "--tables", "3", "--boards", "3", "--out", str(tmp_path / "o")]) == 1
    said = capsys.readouterr().out
    assert "problem: board 1 was played ... and no foul was ruled" in said and "no false alarm" not in said
    assert (tmp_path / "o" / "results.pbn").exists()                  # the results are written all the same
