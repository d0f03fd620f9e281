"""``cardtable doctor`` over fakes: a pseudo-terminal as the shoe's port, the synthetic camera, a
temporary data folder, a fake /dev, a local Mosquitto and a closed port, an injected clock state and
systemctl answers (issue 14, item 4)."""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.config import load_config
from firmware_host.doctor import (
    check_broker,
    check_camera,
    check_clock,
    check_data,
    check_gpio,
    check_serial,
    check_unit,
    doctor_exit,
    run_checks,
    unit_state,
)

SETUP = (Path(__file__).resolve().parents[2] / "hardware" / "SETUP.md").read_text(encoding="utf-8")


@pytest.fixture
def pty_port() -> Iterator[str]:
    master, slave = os.openpty()
    try:
        yield os.ttyname(slave)
    finally:
        os.close(master)
        os.close(slave)


def _config(tmp_path: Path, port: str, *, camera: str = '"synthetic"', factory: str = "mock",
            mqtt: str = "") -> Path:
    """A configuration whose data folder is ``tmp_path/data`` (not made here: SETUP makes it in step 2,
    the tests that need it make it)."""
    path = tmp_path / "table.toml"
    path.write_text(f'[table]\ndata_dir = "{tmp_path / "data"}"\n[shoe]\nport = "{port}"\n'
                    f'[camera]\nsource = {camera}\nwidth = 640\nheight = 480\n[pins]\nfactory = "{factory}"\n'
                    + mqtt, encoding="utf-8")
    return path


def test_a_ready_table_passes_every_check(tmp_path: Path, pty_port: str) -> None:
    (tmp_path / "data").mkdir()
    cfg = load_config(_config(tmp_path, pty_port), env={}, check_devices=False)

    def systemctl(argv: Sequence[str]) -> tuple[int, str]:
        return (0, "enabled") if argv[1] == "is-enabled" else (0, "active")

    checks = run_checks(cfg, clock=lambda: 0, run=systemctl)
    assert [c.name for c in checks] == ["camera", "serial", "gpio", "data", "clock", "broker", "service"]
    assert all(c.ok for c in checks), [c.line() for c in checks]
    assert doctor_exit(checks) == 0
    assert "640x480" in checks[0].text
    assert all(len(c.line().splitlines()) == 1 for c in checks)


def test_camera_that_cannot_open_names_the_fix(tmp_path: Path) -> None:
    cfg = load_config(_config(tmp_path, "loop://", camera=str(tmp_path / "no-such.mp4").join('""')), env={},
                      check_devices=False)
    check = check_camera(cfg)
    assert not check.ok and "cannot open" in check.text and "fix:" in check.text


def test_missing_serial_port_says_plug_in_and_udev(tmp_path: Path) -> None:
    cfg = load_config(_config(tmp_path, str(tmp_path / "cardtable-shoe")), env={}, check_devices=False)
    check = check_serial(cfg)
    assert not check.ok and "does not exist" in check.text and "install-files" in check.text
    # the shoe's link is its FTDI cable (/dev/ttyUSB*), not the Pico's own USB port (MicroPython's REPL)
    assert "0403:6001" in check.text and "/dev/ttyUSB*" in check.text and "ttyACM" not in check.text


@pytest.mark.skipif(os.geteuid() == 0, reason="root may open any file")
def test_serial_port_without_permission_says_dialout(tmp_path: Path) -> None:
    port = tmp_path / "ttyACM0"
    port.write_text("")
    port.chmod(0)
    cfg = load_config(_config(tmp_path, str(port)), env={}, check_devices=False)
    check = check_serial(cfg)
    assert not check.ok and "dialout" in check.text


def test_serial_pty_opens(tmp_path: Path, pty_port: str) -> None:
    cfg = load_config(_config(tmp_path, pty_port), env={}, check_devices=False)
    assert check_serial(cfg).ok


def test_gpio_without_chips_or_without_backend(tmp_path: Path) -> None:
    cfg = load_config(_config(tmp_path, "loop://", factory="lgpio"), env={}, check_devices=False)
    dev = tmp_path / "dev"
    dev.mkdir()
    none = check_gpio(cfg, str(dev))
    assert not none.ok and "gpiochip" in none.text
    (dev / "gpiochip0").write_text("")
    have = check_gpio(cfg, str(dev))
    if not any(_has(m) for m in ("lgpio", "RPi.GPIO")):
        assert not have.ok and "python3-lgpio" in have.text and "--system-site-packages" in have.text
    else:
        assert have.ok


def _has(module: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def test_data_folder_unwritable_or_full(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    cfg = load_config(_config(tmp_path, "loop://"), env={}, check_devices=False)
    (tmp_path / "data").mkdir()
    assert check_data(cfg).ok
    bad = load_config(_config(tmp_path, "loop://"), env={"CARDTABLE_DATA_DIR": str(blocker / "data")},
                      check_devices=False)
    check = check_data(bad)
    assert not check.ok and "does not exist" in check.text
    full = check_data(cfg, min_free=1 << 62)
    assert not full.ok and "MB free" in full.text


def test_clock_states() -> None:
    assert check_clock(lambda: 0).ok
    unsynced = check_clock(lambda: 5)
    assert not unsynced.ok and "timedatectl" in unsynced.text
    assert not check_clock(lambda: -1).ok


def test_unit_states() -> None:
    assert check_unit(("enabled", "active")).ok
    assert "install-files" in check_unit(("not-found", "inactive")).text
    assert "enable --now" in check_unit(("disabled", "inactive")).text
    failed = check_unit(("enabled", "failed"))
    assert not failed.ok and "journalctl" in failed.text
    assert not check_unit(("", "")).ok
    assert unit_state(lambda argv: (127, "")) == ("", "")


def test_device_failure_while_the_service_runs_says_it_may_hold_it(tmp_path: Path) -> None:
    cfg = load_config(_config(tmp_path, str(tmp_path / "gone")), env={}, check_devices=False)
    checks = run_checks(cfg, skip=("camera", "gpio", "data", "clock", "broker"),
                        run=lambda argv: (0, "enabled" if argv[1] == "is-enabled" else "active"))
    serial = checks[0]
    assert not serial.ok and "systemctl stop cardtable" in serial.text


def test_broker_closed_port_fails_with_the_reason(tmp_path: Path) -> None:
    from firmware_host.club.broker import free_port

    (tmp_path / "pw").write_text("secret\n")
    mqtt = f'[mqtt]\nhost = "127.0.0.1"\nport = {free_port()}\nusername = "t1"\npassword_file = "{tmp_path / "pw"}"\n'
    cfg = load_config(_config(tmp_path, "loop://", mqtt=mqtt), env={}, check_devices=False)
    check = check_broker(cfg, timeout=3)
    assert not check.ok and "refused" in check.text.lower() and "fix:" in check.text


def test_broker_with_right_and_wrong_credentials(tmp_path: Path) -> None:
    from firmware_host.club.broker import DASHBOARD_USER, LocalBroker

    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (`make test` installs it)")
    broker = LocalBroker(tmp_path / "broker", {DASHBOARD_USER: "d-pw", "table-01": "t-pw"})
    broker.start()
    try:
        for password, ok in (("t-pw", True), ("wrong", False)):
            pw = tmp_path / f"pw-{ok}"
            pw.write_text(password + "\n")
            mqtt = (f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\nusername = "table-01"\n'
                    f'password_file = "{pw}"\n')
            cfg = load_config(_config(tmp_path, "loop://", mqtt=mqtt), env={}, check_devices=False)
            check = check_broker(cfg)
            assert check.ok is ok, check.text
            if not ok:
                assert "refused user 'table-01'" in check.text
    finally:
        broker.stop()


def test_cli_exit_status(tmp_path: Path, pty_port: str, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "data").mkdir()
    path = _config(tmp_path, pty_port)
    rc = main(["doctor", "--config", str(path), "--skip", "clock", "--skip", "service"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert [ln.split()[0] for ln in out.splitlines()] == ["OK"] * 6
    bad = _config(tmp_path, str(tmp_path / "nothing-here"))
    assert main(["doctor", "--config", str(bad), "--skip", "clock", "--skip", "service"]) == 1
    assert "FAIL  serial" in capsys.readouterr().out
    (tmp_path / "broken.toml").write_text("[table\n")
    assert main(["doctor", "--config", str(tmp_path / "broken.toml")]) == 2
    assert capsys.readouterr().out.startswith("FAIL  config")


# --- issue 21: the pin backend with edge detection, the data folder left alone, comma lists ----------

def _probe(results: dict[str, tuple[bool, str]]):  # type: ignore[no-untyped-def]
    from firmware_host.devices.panel_retry import Probe

    def probe(pins, backends):  # type: ignore[no-untyped-def]
        return [Probe(b, *results[b]) for b in backends]
    return probe


def test_gpio_opens_a_pin_with_edge_detection_on_the_chosen_backend(tmp_path: Path) -> None:
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "gpiochip0").write_text("")
    auto = load_config(_config(tmp_path, "loop://", factory="auto"), env={}, check_devices=False)
    works = {"lgpio": (True, "GPIO 17 opens with edge detection"),
             "rpigpio": (False, "GPIO 17: Failed to add edge detection")}
    check = check_gpio(auto, str(dev), probe=_probe(works))
    assert check.ok, check.text
    assert "lgpio: GPIO 17 opens with edge detection" in check.text
    fallback = {"lgpio": (False, "GPIO 17: cannot open /dev/gpiochip0"),
                "rpigpio": (False, "GPIO 17: Failed to add edge detection")}
    neither = check_gpio(auto, str(dev), probe=_probe(fallback))
    assert "lgpio: GPIO 17: cannot open" in neither.text and "rpigpio: GPIO 17: Failed to add" in neither.text
    rpi = load_config(_config(tmp_path, "loop://", factory="rpigpio"), env={}, check_devices=False)
    bad = check_gpio(rpi, str(dev), probe=_probe(works))
    assert not bad.ok and "Failed to add edge detection" in bad.text and 'factory = "lgpio"' in bad.text
    none = {"lgpio": (False, "pin factory 'lgpio' cannot start (no module)"),
            "rpigpio": (False, "GPIO 17: Failed to add edge detection")}
    assert not check_gpio(auto, str(dev), probe=_probe(none)).ok


def test_gpio_on_trixie_names_only_the_backend_the_panel_uses(tmp_path: Path) -> None:
    """hardware/SETUP.md installs RPi.GPIO on Bookworm only. On a Trixie Pi whose lgpio works, doctor's OK
    line went on to RPi.GPIO and said "pin factory 'rpigpio' cannot start (No module named 'RPi'); on a Pi
    install the backend with apt ...": the installer was told to install what the step leaves out. `auto`
    uses the first backend that opens the pin; doctor now stops there too, as step 5a's example shows."""
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "gpiochip0").write_text("")
    (dev / "gpiochip4").write_text("")
    auto = load_config(_config(tmp_path, "loop://", factory="auto"), env={}, check_devices=False)
    trixie = {"lgpio": (True, "GPIO 19 opens with edge detection"),
              "rpigpio": (False, "pin factory 'rpigpio' cannot start (No module named 'RPi'); on a Pi install "
                                 "the backend with apt")}
    check = check_gpio(auto, str(dev), probe=_probe(trixie))
    assert check.ok
    assert check.text == "2 GPIO chip(s) usable; the panel uses lgpio: lgpio: GPIO 19 opens with edge detection"
    example = SETUP.split("\n## 5a.", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    assert f"OK    gpio    {check.text}" in example.splitlines()


def test_gpio_probe_sets_lgpio_working_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """lgpio makes its pipes where LG_WD says (else the working folder, which for `sudo -u cardtable`
    in the source checkout is not writable): doctor points it at the data folder."""
    monkeypatch.delenv("LG_WD", raising=False)
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "gpiochip0").write_text("")
    (tmp_path / "data").mkdir()
    cfg = load_config(_config(tmp_path, "loop://", factory="auto"), env={}, check_devices=False)
    seen: list[str | None] = []

    def probe(pins, backends):  # type: ignore[no-untyped-def]
        seen.append(os.environ.get("LG_WD"))
        return _probe({"lgpio": (True, "ok"), "rpigpio": (True, "ok")})(pins, backends)

    check_gpio(cfg, str(dev), probe=probe)
    assert seen == [str(tmp_path / "data")]


def test_data_folder_that_does_not_exist_is_not_made_by_doctor(tmp_path: Path) -> None:
    """Run as root, a doctor that made the folder would make it root's; it says what to run instead."""
    cfg = load_config(_config(tmp_path, "loop://"), env={}, check_devices=False)
    check = check_data(cfg)
    assert not check.ok and "does not exist" in check.text and "install -d" in check.text
    assert not (tmp_path / "data").exists()


def test_skip_takes_comma_lists_and_names_a_mistyped_check(tmp_path: Path, pty_port: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "data").mkdir()
    path = _config(tmp_path, pty_port)
    rc = main(["doctor", "--config", str(path), "--skip", "clock,service"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "clock" not in out and "service" not in out
    with pytest.raises(SystemExit) as exc:
        main(["doctor", "--config", str(path), "--skip", "camera,clok"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "'clok'" in err and "did you mean 'clock'" in err, err


def test_gpio_probe_folder_for_lgpio_is_removed_when_doctor_ends(tmp_path: Path) -> None:
    """A data folder this user cannot write sends lgpio's pipes to a temporary folder; doctor removed
    none, so each run left a ``cardtable-lg-*`` folder in /tmp."""
    import subprocess
    import sys

    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "gpiochip0").write_text("")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    cfg_file = _config(tmp_path, "loop://", factory="auto")   # its data folder does not exist
    code = ("import os, sys\n"
            "from firmware_host.config import load_config\n"
            "from firmware_host.doctor import check_gpio\n"
            "from firmware_host.devices.panel_retry import Probe\n"
            f"cfg = load_config({str(cfg_file)!r}, env={{}}, check_devices=False)\n"
            "seen = []\n"
            "def probe(pins, backends):\n"
            "    seen.append(os.environ['LG_WD'])\n"
            "    return [Probe(b, True, 'ok') for b in backends]\n"
            f"check_gpio(cfg, {str(dev)!r}, probe=probe)\n"
            "assert os.path.isdir(seen[0]), seen\n"
            "print(seen[0])\n")
    env = {k: v for k, v in os.environ.items() if k != "LG_WD"}
    env["TMPDIR"] = str(scratch)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith(str(scratch))
    assert list(scratch.iterdir()) == []


# A command a person copies from a fix must run as printed: hardware/SETUP.md installs the program as
# /opt/cardtable/venv/bin/cardtable, and that bin is not on the admin's PATH (commit 0cd8c37 for config init).
BARE = re.compile(r"(?<![\w/.-])cardtable (install-files|config|check-config|club|duplicate|doctor)\b")


def test_every_command_doctor_prints_names_the_program_by_its_path(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """doctor's fixes said `sudo cardtable install-files`, `cardtable config init`, ...: copied as printed,
    "command not found". Each names the `cardtable` it was run as, as `install-files` does."""
    program = str(Path(sys.executable).parent / "cardtable")
    cfg = load_config(_config(tmp_path, str(tmp_path / "cardtable-shoe")), env={}, check_devices=False)
    fixes = [check_serial(cfg).text, check_unit(("not-found", "inactive")).text,
             check_unit(("enabled", "failed")).text]
    (tmp_path / "broken.toml").write_text("[table\n")
    assert main(["doctor", "--config", str(tmp_path / "broken.toml")]) == 2
    fixes.append(capsys.readouterr().out)
    for text in fixes:
        assert program in text and not BARE.search(text), text
    assert f"sudo {program} install-files" in fixes[0] and f"sudo {program} install-files" in fixes[1]
    assert f"sudo -u cardtable {program} check-config" in fixes[2]
    assert f"check-config --config {tmp_path / 'broken.toml'}" in fixes[3]
    assert f"sudo {program} config init {tmp_path / 'broken.toml'} --force" in fixes[3]


@pytest.mark.parametrize("extra", [["--session", "2026-12-02"], ["--club-env", "club.env"],
                                   ["--club-env", "club.env", "--session", "x"]])
def test_club_options_without_club_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               extra: list[str]) -> None:
    """``doctor --session 2026-12-02`` (``--club`` forgotten) checked the table and its configuration
    instead, saying nothing of the option it left unused. One line naming it, exit 2."""
    assert main(["doctor", "--config", str(tmp_path / "none.toml"), *extra]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("cardtable doctor: --") and "with --club (the club's machine)" in err, err
    assert all(o in err for o in extra if o.startswith("--")) and out == "" and len(err.strip().splitlines()) == 1
