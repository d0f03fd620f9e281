"""No table may have a reserved id (audit 64, F6): `spectate` is the topic level of what spectators read,
and a table's login writes `cardtable/<its id>/...`, so a table called `spectate` would write into the
spectators' feed. Every way a table id comes in refuses the reserved ones, and the three lists (the
table's configuration, the topics, the session's pure model) are one list."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from firmware_host.cli import main
from firmware_host.config import ConfigError, MqttConfig, load_config
from firmware_host.config.schema import RESERVED_IDS as CONFIG_RESERVED
from firmware_host.tablelink.publisher import MqttPublisher
from firmware_host.wire.topics import RESERVED_IDS, SPECTATE
from laws.session.duplicate.spec import RESERVED_IDS as SESSION_RESERVED


def test_the_reserved_lists_are_one_list_with_spectate() -> None:
    assert SPECTATE in RESERVED_IDS
    assert set(RESERVED_IDS) == set(CONFIG_RESERVED) == set(SESSION_RESERVED)


@pytest.mark.parametrize("tid", RESERVED_IDS)
def test_config_init_refuses_a_reserved_id_in_one_line_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], tid: str) -> None:
    assert main(["config", "init", str(tmp_path / "table.toml"), "--id", tid]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and repr(tid) in err and "and not" in err, err
    assert list(tmp_path.iterdir()) == []  # it left its half-made `table.toml.new` behind


@pytest.mark.parametrize("tid", RESERVED_IDS)
def test_the_table_and_its_publisher_refuse_a_reserved_id(tmp_path: Path, tid: str) -> None:
    conf = tmp_path / "table.toml"
    conf.write_text(f'[table]\nid = "{tid}"\n')
    with pytest.raises(ConfigError, match="cannot be a table id"):
        load_config(conf, env={}, check_devices=False)
    journal: Any = None  # refused before the journal is touched
    with pytest.raises(ValueError, match="and not"):
        MqttPublisher(MqttConfig(host="127.0.0.1"), tid, journal)


def test_club_broker_refuses_spectate_as_a_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["club", "broker", "--dir", str(tmp_path / "b"), "--table", "t1", "--table", SPECTATE]) == 2
    assert "'spectate' is not allowed" in capsys.readouterr().err
