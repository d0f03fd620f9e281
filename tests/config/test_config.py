"""Configuration: the shipped file, precedence, and one clear error per kind of mistake."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.config import (
    Config,
    ConfigError,
    add_config_arguments,
    format_config,
    load_config,
    overrides_from_args,
)

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "config" / "table.toml"


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "table.toml"
    p.write_text(text)
    return p


def test_shipped_file_equals_builtin_defaults() -> None:
    from_file = load_config(SHIPPED, env={}, check_devices=False)
    defaults = load_config(None, env={}, check_devices=False)
    assert from_file.table == defaults.table
    assert from_file.shoe == defaults.shoe and from_file.camera == defaults.camera
    assert dict(from_file.pins.lamps) == dict(defaults.pins.lamps)
    assert dict(from_file.pins.buttons) == dict(defaults.pins.buttons)
    assert from_file.mqtt is None and dict(from_file.vision) == {}


def test_dataclasses_are_frozen() -> None:
    cfg = load_config(None, env={}, check_devices=False)
    with pytest.raises(AttributeError):
        cfg.table.game = "euchre"  # type: ignore[misc]
    with pytest.raises(TypeError):
        cfg.pins.lamps["redeal"] = 3  # type: ignore[index]


def test_precedence_file_then_env_then_cli(tmp_path: Path) -> None:
    p = write(tmp_path, '[table]\ngame = "euchre"\ndata_dir = "data"\n[shoe]\nport = "loop://"\nbaudrate = 9600\n')
    cfg = load_config(p, env={})
    assert cfg.table.game == "euchre" and cfg.shoe.baudrate == 9600
    assert cfg.table.data_dir == tmp_path / "data"  # relative to the file
    env = {"CARDTABLE_GAME": "contract-bridge", "CARDTABLE_SHOE_BAUDRATE": "57600",
           "CARDTABLE_CAMERA_SOURCE": "2", "CARDTABLE_MQTT_TLS": "yes"}
    cfg = load_config(p, env=env)
    assert cfg.table.game == "contract-bridge" and cfg.shoe.baudrate == 57600
    assert cfg.camera.source == 2
    assert cfg.mqtt is not None and cfg.mqtt.tls is True and cfg.mqtt.port == 1883
    cfg = load_config(p, env=env, overrides={"table.game": "euchre", "shoe.baudrate": "1200",
                                             "camera.source": "synthetic", "shoe.port": None})
    assert cfg.table.game == "euchre" and cfg.shoe.baudrate == 1200 and cfg.camera.source == "synthetic"
    assert cfg.shoe.port == "loop://"
    assert load_config(p, env={}, overrides={"table.data_dir": "here"}).table.data_dir == Path.cwd() / "here"
    cfg = load_config(p, env={}, overrides={"pins.lamps.redeal": "4", "pins.buttons.seat_W": 5})
    assert cfg.pins.lamps["redeal"] == 4 and cfg.pins.buttons["seat_W"] == 5
    with pytest.raises(ConfigError, match=r"seat_N: BCM pin 24 is used twice, by pins\.lamps\.attention_N \(from command-line option"):
        load_config(p, env={}, overrides={"pins.lamps.attention_N": 24})


def test_cli_arguments_become_overrides() -> None:
    parser = argparse.ArgumentParser()
    add_config_arguments(parser)
    args = parser.parse_args(["--game", "euchre", "--data-dir", "/tmp/x", "--set", "camera.width=640"])
    assert overrides_from_args(args) == {"table.game": "euchre", "table.data_dir": "/tmp/x",
                                         "camera.width": "640"}
    args = parser.parse_args(["--set", "camera.width"])
    with pytest.raises(ConfigError, match="SECTION.KEY=VALUE"):
        overrides_from_args(args)


@pytest.mark.parametrize(("text", "expected"), [
    ('[table]\ngame = "bridge"\n', r"table\.game: unknown value 'bridge'.*contract-bridge, euchre"),
    ('[table]\ngmae = "euchre"\n', r"unknown key table\.gmae \(did you mean 'game'\?\)"),
    ('[shoe]\nbaudrate = "fast"\n', r"shoe\.baudrate: want a whole number, got 'fast'"),
    ('[tabel]\nid = "x"\n', r"unknown section \[tabel\] \(did you mean 'table'\?\)"),
    ('[pins.lamps]\nreddeal = 5\n', r"unknown key pins\.lamps\.reddeal \(did you mean 'redeal'\?\)"),
    ('[pins.buttons]\nseat_N = 17\n', r"pins\.buttons\.seat_N: BCM pin 17 is used twice, by "
                                      r"pins\.lamps\.attention_N and by pins\.buttons\.seat_N"),
    ('[pins]\nbuzzer = 40\n', r"pins\.buzzer: BCM pin 40 is not a GPIO"),
    ('[pins]\nfactory = "gpio"\n', r"pins\.factory: unknown value 'gpio'"),
    ('[camera]\ndecoder = "zbar"\n', r"camera\.decoder: unknown value 'zbar'"),
    ('[camera]\nsource = true\n', r"camera\.source: want a camera index"),
    ('[mqtt]\nport = 0\n', r"mqtt\.port: want a TCP port"),
    ('[mqtt]\npassword_file = "nope.txt"\n', r"mqtt\.password_file: file .*nope\.txt does not exist"),
    ('[shoe]\nport = "/dev/does-not-exist-cardtable"\n', r"shoe\.port: serial port /dev/does-not-exist"),
])
def test_each_error_names_file_key_and_problem(tmp_path: Path, text: str, expected: str) -> None:
    p = write(tmp_path, text + ('[shoe]\nport = "loop://"\n' if "[shoe]" not in text else ""))
    with pytest.raises(ConfigError, match=expected) as info:
        load_config(p, env={})
    assert str(p) in str(info.value)


def test_syntax_error_gives_line(tmp_path: Path) -> None:
    p = write(tmp_path, '[table]\nid = "a"\nname = \n')
    with pytest.raises(ConfigError, match=r"TOML syntax error.*line 3"):
        load_config(p, env={})


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="configuration file not found"):
        load_config(tmp_path / "absent.toml", env={})


def test_urls_are_not_checked_but_device_paths_are(tmp_path: Path) -> None:
    for url in ("socket://localhost:7000", "loop://", "rfc2217://pi:4000"):
        assert load_config(None, env={"CARDTABLE_SHOE_PORT": url}).shoe.port == url
    assert load_config(None, env={"CARDTABLE_SHOE_PORT": "/dev/null"}).shoe.port == "/dev/null"
    assert load_config(None, env={"CARDTABLE_SHOE_DRIVER": "none"}).shoe.driver == "none"
    assert load_config(None, env={"CARDTABLE_PINS_FACTORY": "mock", "CARDTABLE_SHOE_DRIVER": "none",
                                  "CARDTABLE_UNRELATED": "x"}).pins.factory == "mock"
    with pytest.raises(ConfigError, match=r"environment variable CARDTABLE_SHOE_PORT: shoe\.port"):
        load_config(None, env={"CARDTABLE_SHOE_PORT": str(tmp_path / "ttyACM9")})


def test_env_errors_name_the_variable() -> None:
    with pytest.raises(ConfigError, match=r"CARDTABLE_SHOE_BAUDRATE \(shoe\.baudrate\): want a whole number"):
        load_config(None, env={"CARDTABLE_SHOE_BAUDRATE": "fast"}, check_devices=False)
    with pytest.raises(ConfigError, match=r"command-line option tabel\.game: unknown key"):
        load_config(None, env={}, overrides={"tabel.game": "euchre"}, check_devices=False)


def test_vision_table_passes_through(tmp_path: Path) -> None:
    p = write(tmp_path, '[shoe]\nport = "loop://"\n[vision]\nzones = 4\nanything = {a = 1}\n')
    cfg = load_config(p, env={})
    assert dict(cfg.vision) == {"zones": 4, "anything": {"a": 1}}


def test_format_config_reloads_to_the_same_config(tmp_path: Path) -> None:
    cfg = load_config(SHIPPED, env={"CARDTABLE_MQTT_HOST": "broker"}, check_devices=False)
    p = tmp_path / "again.toml"
    p.write_text(format_config(cfg))
    again = load_config(p, env={}, check_devices=False)
    assert isinstance(again, Config)
    assert again.table == cfg.table and again.shoe == cfg.shoe and again.mqtt == cfg.mqtt
    assert dict(again.pins.lamps) == dict(cfg.pins.lamps)


def test_check_config_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, '[shoe]\nport = "loop://"\n')
    assert main(["check-config", "--config", str(good)]) == 0
    assert '[pins.lamps]\nredeal = 5' in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text('[table]\ngame = "whist"\n')
    old = os.environ.pop("CARDTABLE_SHOE_PORT", None)
    try:
        assert main(["check-config", "--config", str(bad), "--no-devices"]) == 2
    finally:
        if old is not None:
            os.environ["CARDTABLE_SHOE_PORT"] = old
    err = capsys.readouterr().err
    assert "table.game" in err and "whist" in err and err.count("\n") == 1
