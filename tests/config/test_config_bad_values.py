"""`cardtable check-config` refuses values that parse but cannot be right: table ids the MQTT topic tree
forbids, a file where a device or folder belongs, baud rates no UART runs at, non-finite or absurd numbers.
Each is one message naming the file and the key, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.config import ConfigError, load_config


def _check(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *extra: str) -> tuple[int, str]:
    cfg = tmp_path / "table.toml"
    cfg.write_text(text)
    rc = main(["check-config", "--config", str(cfg), *extra])
    return rc, capsys.readouterr().err


@pytest.mark.parametrize("table_id", ["table 1", "a/b", "t+", "t#", "dashboard", "x" * 65, "tāble"])
def test_table_ids_the_docs_forbid(tmp_path: Path, capsys: pytest.CaptureFixture[str], table_id: str) -> None:
    rc, err = _check(tmp_path, capsys, f'[table]\nid = "{table_id}"\n[shoe]\nport = "loop://"\n')
    assert rc == 2 and "table.id" in err and str(tmp_path / "table.toml") in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("table_id", ["table-1", "T_07", "a", "x" * 64])
def test_table_ids_the_docs_allow(tmp_path: Path, table_id: str) -> None:
    (tmp_path / "t.toml").write_text(f'[table]\nid = "{table_id}"\n')
    assert load_config(tmp_path / "t.toml", env={}, check_devices=False).table.id == table_id


@pytest.mark.parametrize("name", ['Table\\n[Result \\"9\\"]', "Tab\\u0000le", "x" * 61])
def test_table_names_with_a_control_character_or_too_long(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          name: str) -> None:
    """``[table] name`` with a line break or NUL, or 5,000 characters, was taken: it is written as the PBN
    [Site] (a line break ended the tag mid-value, the rest a tag of its own) and on the display."""
    rc, err = _check(tmp_path, capsys, f'[table]\nname = "{name}"\n[shoe]\nport = "loop://"\n')
    assert rc == 2 and "table.name" in err and "1 to 60 printable characters" in err, err
    assert str(tmp_path / "table.toml") in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("name", ["Table 1", "Salle Émile-Zola", "x" * 60])
def test_table_names_the_docs_allow(tmp_path: Path, name: str) -> None:
    (tmp_path / "t.toml").write_text(f'[table]\nname = "{name}"\n')
    assert load_config(tmp_path / "t.toml", env={}, check_devices=False).table.name == name


def test_a_regular_file_is_not_a_serial_port(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    port = tmp_path / "ttyUSB0"
    port.write_text("not a device")
    rc, err = _check(tmp_path, capsys, f'[shoe]\nport = "{port}"\n')
    assert rc == 2 and "shoe.port" in err and "not a serial device" in err and str(port) in err
    rc, err = _check(tmp_path, capsys, f'[shoe]\nport = "{tmp_path}"\n')
    assert rc == 2 and "shoe.port" in err and "not a serial device" in err
    # a real character device is accepted (/dev/null stands in for a tty here)
    rc, err = _check(tmp_path, capsys, '[shoe]\nport = "/dev/null"\n')
    assert rc == 0, err


@pytest.mark.parametrize("baud", ["100000000000000000000", "0", "-9600", "12345", "115201"])
def test_only_real_baud_rates(tmp_path: Path, capsys: pytest.CaptureFixture[str], baud: str) -> None:
    rc, err = _check(tmp_path, capsys, f'[shoe]\nport = "loop://"\nbaudrate = {baud}\n')
    assert rc == 2 and "shoe.baudrate" in err and str(tmp_path / "table.toml") in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("baud", [9600, 57600, 115200, 230400, 921600, 1000000])
def test_standard_baud_rates_pass(tmp_path: Path, baud: int) -> None:
    (tmp_path / "t.toml").write_text(f'[shoe]\nport = "loop://"\nbaudrate = {baud}\n')
    assert load_config(tmp_path / "t.toml", env={}, check_devices=False).shoe.baudrate == baud


def test_baud_from_the_environment_is_checked_too() -> None:
    with pytest.raises(ConfigError, match="CARDTABLE_SHOE_BAUDRATE.*shoe.baudrate"):
        load_config(None, env={"CARDTABLE_SHOE_BAUDRATE": str(10**20)}, check_devices=False)


@pytest.mark.parametrize(("key", "value"), [("long_press", "inf"), ("long_press", "nan"), ("long_press", "-1.5"),
                                            ("long_press", "1e300"), ("double_press", "inf"),
                                            ("bounce_time", "inf"), ("bounce_time", "-0.0")])
def test_seconds_are_positive_finite_and_sane(tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str,
                                              value: str) -> None:
    rc, err = _check(tmp_path, capsys, f'[shoe]\nport = "loop://"\n[pins]\n{key} = {value}\n')
    assert rc == 2 and f"pins.{key}" in err and str(tmp_path / "table.toml") in err
    assert len(err.strip().splitlines()) == 1


def test_a_regular_file_is_not_a_data_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    data.write_text("")
    rc, err = _check(tmp_path, capsys, f'[table]\ndata_dir = "{data}"\n[shoe]\nport = "loop://"\n')
    assert rc == 2 and "table.data_dir" in err and "not a directory" in err and str(data) in err
    rc, err = _check(tmp_path, capsys, '[shoe]\nport = "loop://"\n', "--data-dir", str(data))
    assert rc == 2 and "table.data_dir" in err and "command-line" in err


@pytest.mark.parametrize(("text", "key"), [
    ("[camera]\nwidth = 100000000000000000000\n", "camera.width"),
    ("[camera]\nheight = 1000000\n", "camera.height"),
    ("[camera]\nsource = 100000000000000000000\n", "camera.source"),
])
def test_camera_numbers_a_camera_can_have(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                                          key: str) -> None:
    rc, err = _check(tmp_path, capsys, '[shoe]\nport = "loop://"\n' + text)
    assert rc == 2 and key in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("text", ["[camera]\nwidth = 1" + "0" * 5000 + "\n", "[vision]\nx = " + "[" * 5000 + "]" * 5000 + "\n"])
def test_toml_python_cannot_hold_is_one_message(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    rc, err = _check(tmp_path, capsys, text, "--no-devices")
    assert rc == 2 and str(tmp_path / "table.toml") in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("mqtt", "says"), [
    ('host = "clüb..local"', "mqtt.host: 'clüb..local' is not a host name or address"),
    ('host = "club local"', "mqtt.host: 'club local' is not a host name or address"),
    ('host = "' + "x" * 64 + '.local"', "mqtt.host: "),
    ('password_file = "binary.pw"', "binary.pw is not UTF-8 text (byte 1)"),
    ('password_file = "empty.pw"', "empty.pw is empty"),
    ('password_file = "huge.pw"', "huge.pw is over 4096 bytes"),
    ('tls = true\nca_file = "binary.pw"', "mqtt.ca_file: "),
    ('tls = true\nca_file = "table.toml"', "mqtt.ca_file: "),
])
def test_mqtt_host_and_files_a_table_cannot_use(tmp_path: Path, capsys: pytest.CaptureFixture[str], mqtt: str,
                                                says: str) -> None:
    """``[mqtt] host = "clüb..local"`` passed check-config and, at ``run``, the link's thread printed the
    idna codec's traceback while the table went on without its broker; a password file of bytes that are
    not UTF-8 stopped ``run`` with "'utf-8' codec can't decode byte 0xd2 in position 2" (neither file nor
    key named), an empty one was sent as an empty password, and a CA file that is no PEM was "[X509:
    NO_CERTIFICATE_OR_CRL_FOUND]". Now check-config names the key, the file and what is wrong."""
    (tmp_path / "binary.pw").write_bytes(b"\xd2\xff\x00secret")
    (tmp_path / "empty.pw").write_text("\n")
    (tmp_path / "huge.pw").write_text("x" * 5000)
    rc, err = _check(tmp_path, capsys, f'[shoe]\nport = "loop://"\n[mqtt]\n{mqtt}\n')
    assert rc == 2 and says in err and str(tmp_path / "table.toml") in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("host", ["localhost", "club.local", "clüb.local", "192.168.1.10", "::1"])
def test_mqtt_hosts_the_docs_allow(tmp_path: Path, host: str) -> None:
    (tmp_path / "pw").write_text("secret\n")
    (tmp_path / "t.toml").write_text(f'[mqtt]\nhost = "{host}"\npassword_file = "pw"\n')
    assert load_config(tmp_path / "t.toml", env={}, check_devices=False).mqtt.host == host  # type: ignore[union-attr]


@pytest.mark.parametrize(("text", "key"), [
    ('[table]\ndata_dir = "journal\\u0000s"\n', "table.data_dir"),
    ('[shoe]\nport = "/dev/ttyUSB0\\u0000"\n', "shoe.port"),
    ('[camera]\nsource = "/dev/video0\\u0000"\n', "camera.source"),
    ('[table]\ngame = "duplicate-bridge"\n[duplicate]\nrecords = "boards\\u0000.pbn"\n', "duplicate.records"),
])
def test_a_nul_character_in_a_name_or_path_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      text: str, key: str) -> None:
    """``data_dir = "journal\\u0000s"`` passed check-config, and ``run`` then stopped on "cardtable:
    embedded null byte", naming neither the file nor the key."""
    rc, err = _check(tmp_path, capsys, text, "--no-devices")
    assert rc == 2 and f"{key}: holds a NUL character" in err and str(tmp_path / "table.toml") in err, err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("text", "says"), [
    ('[camera]\nv4l2_gain = -5\n', "camera.v4l2_gain: want -1 (leave the camera's own) or a gain from 0 to"),
    ('[camera]\nv4l2_gain = 9223372036854775807\n', "camera.v4l2_gain: want -1"),
    ('[camera]\nsource = ""\n', "camera.source: must not be empty"),
    ('[table]\ngame = "duplicate-bridge"\n[duplicate]\nrecords = "r.pbn"\nns = "3"\new = "3"\n',
     "duplicate.ew: the same pair as ns ('3'): a pair cannot play against itself"),
    ('[table]\ngame = "duplicate-bridge"\n[duplicate]\nrecords = "r.pbn"\nsection = "A\\nB"\n',
     "duplicate.section: 'A\\nB' holds a line break"),
])
def test_values_a_table_cannot_use_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                                               says: str) -> None:
    """Each passed check-config: a V4L2 gain of -5 or 2**63 (a driver's control is a 32-bit number and -1
    the only word for "leave it"), an empty camera source (the camera then offline at ``run``), a table
    alone whose NS and EW pair are one pair, a section with a line break (written into the board's
    record)."""
    (tmp_path / "r.pbn").write_text('[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                                    '[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 654.8765.876.876 32.432.5432.5432"]\n')
    rc, err = _check(tmp_path, capsys, text, "--no-devices")
    assert rc == 2 and says in err and str(tmp_path / "table.toml") in err, err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("item", ["=5", " =5", "nokey"])
def test_a_set_without_a_key_names_the_option(tmp_path: Path, capsys: pytest.CaptureFixture[str], item: str) -> None:
    """``--set =5`` said "command-line option : unknown key": no option, no key, nothing to go on."""
    rc, err = _check(tmp_path, capsys, '[shoe]\nport = "loop://"\n', "--set", item)
    assert rc == 2 and f"command-line option --set {item!r}: want SECTION.KEY=VALUE" in err, err
