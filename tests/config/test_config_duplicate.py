"""The [duplicate] section: read, defaulted and refused with one message naming the key, like the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.config import ConfigError, load_config

BASE = """[table]
game = "duplicate-bridge"
data_dir = "data"
[shoe]
driver = "{driver}"
[camera]
source = "none"
"""


def _cfg(tmp_path: Path, body: str, driver: str = "none") -> Path:
    (tmp_path / "boards.pbn").write_text("% PBN\n", encoding="utf-8")
    p = tmp_path / "table.toml"
    p.write_text(BASE.format(driver=driver) + body, encoding="utf-8")
    return p


def test_a_duplicate_table_alone(tmp_path: Path) -> None:
    cfg = load_config(_cfg(tmp_path, '[duplicate]\nrecords = "boards.pbn"\nboards = "1-3, 7"\ntable = 4\n'))
    d = cfg.duplicate
    assert d is not None and d.records == tmp_path / "boards.pbn" and d.boards == (1, 2, 3, 7)
    assert (d.deal, d.session, d.section, d.table, d.round, d.ns, d.ew) == ("boards", False, "A", 4, 1, "1", "2")
    env = load_config(_cfg(tmp_path, '[duplicate]\nrecords = "boards.pbn"\n', driver="shoe"),
                      env={"CARDTABLE_DUPLICATE_DEAL": "shoe", "CARDTABLE_DUPLICATE_BOARDS": "5,6"},
                      check_devices=False)
    assert env.duplicate is not None and env.duplicate.deal == "shoe" and env.duplicate.boards == (5, 6)
    assert load_config(None, check_devices=False).duplicate is None


@pytest.mark.parametrize("body, driver, message", [
    ("", "none", "duplicate.records: a duplicate-bridge table that plays alone needs its hand records"),
    ('[duplicate]\ntable = 2\n', "none", "or session = true (the club's session sends them)"),
    ('[duplicate]\nsession = true\ncommitment = "abc"\n', "none", "duplicate.commitment: 'abc' is not a commitment"),
    ('[duplicate]\nrecords = "none.pbn"\n', "none", "hand records file"),
    ('[duplicate]\nrecords = "boards.pbn"\ndeal = "pockets"\n', "none", "unknown value 'pockets'"),
    ('[duplicate]\nrecords = "boards.pbn"\ndeal = "shoe"\n', "scanner", 'deal = "shoe" needs a shoe'),
    ('[duplicate]\nrecords = "boards.pbn"\nsession = true\n', "none", "add an [mqtt] section"),
    ('[duplicate]\nrecords = "boards.pbn"\nboards = "3-1"\n', "none", "the range 3-1 goes down"),
    ('[duplicate]\nrecords = "boards.pbn"\nboards = [1, 1]\n', "none", "board 1 is named twice"),
    ('[duplicate]\nrecords = "boards.pbn"\nboards = "1, x"\n', "none", "'x' is not a board number"),
    ('[duplicate]\nrecords = "boards.pbn"\ntable = 0\n', "none", "duplicate.table: want 1 to 999, got 0"),
    ('[duplicate]\nrecords = "boards.pbn"\nns = "' + "x" * 17 + '"\n', "none", "duplicate.ns: at most 16"),
    ('[duplicate]\nrecords = "boards.pbn"\ntabel = 3\n', "none", "unknown key duplicate.tabel (did you mean 'table'?)"),
])
def test_a_bad_duplicate_section_is_refused_by_name(tmp_path: Path, body: str, driver: str, message: str) -> None:
    with pytest.raises(ConfigError, match=None) as info:
        load_config(_cfg(tmp_path, body, driver), check_devices=False)
    assert message in str(info.value) and "table.toml" in str(info.value)


def test_a_session_table_needs_no_records(tmp_path: Path) -> None:
    """Issue 29: a duplicate table in a club session is sent its boards' records by the session."""
    body = '[mqtt]\nhost = "127.0.0.1"\nusername = "table-01"\n[duplicate]\nsession = true\ncommitment = " ' + "AB" * 32 + ' "\n'
    d = load_config(_cfg(tmp_path, body), check_devices=False).duplicate
    assert d is not None and d.records is None and d.session and d.commitment == "ab" * 32


def test_a_duplicate_section_at_a_table_of_another_game_is_refused(tmp_path: Path) -> None:
    p = _cfg(tmp_path, '[duplicate]\nrecords = "boards.pbn"\n')
    p.write_text(p.read_text().replace("duplicate-bridge", "contract-bridge"), encoding="utf-8")
    with pytest.raises(ConfigError, match='is for table.game = "duplicate-bridge"; this table plays contract-bridge'):
        load_config(p)
