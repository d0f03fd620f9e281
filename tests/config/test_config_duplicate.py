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


def test_the_templates_empty_commitment_is_its_default_and_check_configs_output_reads_back(tmp_path: Path) -> None:
    """config/table.toml shows ``commitment = ""`` as the default (the session's), and ``check-config`` prints it
    so; that value was refused as empty, so a key shown in the template, or the validated output, could not be
    read back in."""
    from firmware_host.config import format_config

    body = '[mqtt]\nhost = "127.0.0.1"\nusername = "table-01"\n[duplicate]\nsession = true\ncommitment = ""\n'
    cfg = load_config(_cfg(tmp_path, body), check_devices=False)
    assert cfg.duplicate is not None and cfg.duplicate.commitment == ""
    again = tmp_path / "again.toml"
    again.write_text(format_config(cfg), encoding="utf-8")
    assert load_config(again, check_devices=False).duplicate == cfg.duplicate


def test_the_templates_duplicate_block_uncommented_is_accepted(tmp_path: Path) -> None:
    """Every line of the template's ``[duplicate]`` comments, uncommented as written (a table alone)."""
    root = Path(__file__).resolve().parents[2]
    text = (root / "config" / "table.toml").read_text(encoding="utf-8")
    block = text.split("\n# [duplicate]", 1)[1].split("\n# See docs/events.md", 1)[0]
    keys = [ln[2:].split("#")[0].rstrip() for ln in block.splitlines() if ln.startswith("# ") and "=" in ln]
    assert any(k.startswith("commitment") for k in keys) and any(k.startswith("section") for k in keys)
    (tmp_path / "boards.pbn").write_text("")
    keys = [f'records = "{tmp_path / "boards.pbn"}"' if k.startswith("records") else k for k in keys]
    p = _cfg(tmp_path, "[duplicate]\n" + "\n".join(keys) + "\n")
    d = load_config(p, check_devices=False).duplicate
    assert d is not None and d.commitment == "" and d.section == "A" and d.table == 1


GOOD_DEAL = "N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84"


@pytest.mark.parametrize("file, text, boards, message", [
    ("twelve.pbn", f'[Board "1"]\n[Deal "{GOOD_DEAL.replace("AK93", "AK9")}"]\n', "1",
     "duplicate.records: DIR/twelve.pbn: board 1 [Deal]: North holds 12 cards; the three of clubs is in no hand"),
    ("x.lin", "qx|o1|md|3SAJ9HK9542DQCAK93|\n", "1", "duplicate.records: DIR/x.lin: unknown extension '.lin'"),
    ("one.pbn", f'[Board "1"]\n[Deal "{GOOD_DEAL}"]\n', "1-40",
     "duplicate.boards: board 2 is not in the hand records DIR/one.pbn (boards 1-1)"),
])
def test_check_config_refuses_the_records_run_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str], file: str,
                                                     text: str, boards: str, message: str) -> None:
    """Audit 70, F3: check-config passed records that ``cardtable run`` refused at start with exit 2 (a
    12-card hand, a .lin file, more boards than the file has): both now read them with one function."""
    from firmware_host.cli import main
    from firmware_host.live import duplicate_procedure

    (tmp_path / file).write_text(text, encoding="utf-8")
    p = _cfg(tmp_path, f'[duplicate]\nrecords = "{file}"\nboards = "{boards}"\n')
    assert main(["check-config", "--config", str(p), "--no-devices"]) == 2
    out, err = capsys.readouterr()
    message = message.replace("DIR/", f"{tmp_path}/")   # the file as the configuration names it, from its folder
    assert out == "" and err.startswith(f"cardtable: configuration error: {p}: {message}")
    assert err.count("\n") == 1 and "Traceback" not in err
    with pytest.raises(ConfigError) as at_start:   # what `run` meets at start, word for word
        duplicate_procedure(load_config(p, check_devices=False), None, None)  # type: ignore[arg-type]
    assert err == f"cardtable: configuration error: {at_start.value}\n"
