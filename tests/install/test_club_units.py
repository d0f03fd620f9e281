"""The club machine's units (issue 31): `cardtable install-files --club` puts the broker's, the
dashboard's and the evening session's units in place with the options file they read; each restarts on
failure (not on a configuration error), starts after the network and the clock, and passes `systemd-analyze
verify` and `security --offline` against a root holding the system's units, as the table's unit does."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.commands.install_files import CLUB_UNITS

ROOT = Path(__file__).resolve().parents[2]
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
PROGRAM = "/srv/club/venv/bin/cardtable"


def _keys(text: str, section: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    here = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            here = line
        elif line and not line.startswith(("#", ";")) and here == section:
            key, _, value = line.partition("=")
            out.setdefault(key, []).append(value)
    return out


def _install(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware_host.cli", "install-files", "--club", "--root", str(root),
                           "--program", PROGRAM], capture_output=True, text=True, timeout=60, cwd=ROOT)


@pytest.fixture
def club_root(tmp_path: Path) -> Path:
    """A root with the system's units, the program where --program says, and the club's files installed."""
    root = tmp_path / "root"
    if Path("/usr/lib/systemd/system").is_dir():
        shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    exe = root / PROGRAM.lstrip("/")
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    proc = _install(root)
    assert proc.returncode == 0, proc.stderr
    return root


def test_install_files_club_writes_three_units_and_the_options_file(club_root: Path) -> None:
    for name in CLUB_UNITS:
        text = (club_root / "etc/systemd/system" / name).read_text()
        (exec_start,) = _keys(text, "[Service]")["ExecStart"]
        assert exec_start.startswith(f"{PROGRAM} club "), exec_start
        assert _keys(text, "[Service]")["EnvironmentFile"] == ["/etc/cardtable/club.env"]
    env = club_root / "etc/cardtable/club.env"
    assert env.read_text() == (ROOT / "config/club.env").read_text()
    # the options file is the volunteer's once written: a second install keeps an edited one
    env.write_text(env.read_text().replace("--tables 12", "--tables 7"))
    again = _install(club_root)
    assert again.returncode == 0 and "kept as it was" in again.stdout, again.stdout
    assert "--tables 7" in env.read_text()


@pytest.mark.parametrize("name", CLUB_UNITS)
def test_restart_on_failure_after_the_network_and_the_clock(name: str) -> None:
    text = (ROOT / "hardware/systemd" / name).read_text()
    unit, svc = _keys(text, "[Unit]"), _keys(text, "[Service]")
    after = " ".join(unit["After"]).split()
    assert {"network-online.target", "time-sync.target"} <= set(after)
    # network-online.target is pulled in; time-sync.target only ordered after (systemd.special(7): a unit
    # that needs the right time orders itself after it and does not pull it in; SETUP C7 makes it wait)
    wants = set(" ".join(unit["Wants"]).split())
    assert "network-online.target" in wants and "time-sync.target" not in wants
    assert svc["Restart"] == ["on-failure"] and svc["RestartPreventExitStatus"] == ["2"]
    assert svc["ReadWritePaths"] == ["/var/lib/cardtable-club"] and svc["ProtectSystem"] == ["strict"]
    if name != "cardtable-broker.service":
        assert "cardtable-broker.service" in after


def test_the_session_runs_in_the_dashboard_in_its_place() -> None:
    """The evening's session is the dashboard with --session: the two units share a port, so they
    conflict, and the session's folder is the instance's name under SESSIONS."""
    text = (ROOT / "hardware/systemd/cardtable-session@.service").read_text()
    assert _keys(text, "[Unit]")["Conflicts"] == ["cardtable-dashboard.service"]
    (exec_start,) = _keys(text, "[Service]")["ExecStart"]
    assert exec_start.endswith("club dashboard $DASHBOARD_ARGS --session ${SESSIONS}/%i")


def test_the_options_file_parses_as_the_commands_read_them() -> None:
    """Each line of club.env is what the CLI accepts: the broker's and the dashboard's options parse with
    the commands' own parsers, and SESSIONS lies where the units may write."""
    from firmware_host.commands.doctor import ClubOptions

    opts = ClubOptions.parse((ROOT / "config/club.env").read_text(), "club.env")
    assert opts.broker.port == 8883 and opts.broker.certfile and opts.dashboard.tls
    assert str(opts.sessions).startswith("/var/lib/cardtable-club/")
    assert shlex.split(opts.raw["BROKER_ARGS"])[0] == "--dir"


@needs_analyze
@pytest.mark.parametrize("unit", ["cardtable-broker.service", "cardtable-dashboard.service",
                                  "cardtable-session@2026-12-02.service"])
def test_verify_and_security_offline(club_root: Path, unit: str) -> None:
    verify = subprocess.run([ANALYZE, "verify", "--man=no", f"--root={club_root}", unit],
                            capture_output=True, text=True, timeout=60)
    assert verify.returncode == 0 and not verify.stderr.strip(), verify.stderr
    security = subprocess.run([ANALYZE, "security", "--offline=true", "--threshold=40", f"--root={club_root}",
                               unit], capture_output=True, text=True, timeout=60)
    assert security.returncode == 0, security.stdout[-1500:] + security.stderr


@needs_analyze
def test_verify_fails_on_a_broken_unit(club_root: Path) -> None:
    """The check above can fail: a misspelt value and a program that is not there are reported."""
    unit = club_root / "etc/systemd/system/cardtable-broker.service"
    unit.write_text(unit.read_text().replace("Restart=on-failure", "Restart=on-failur")
                    .replace(PROGRAM, "/nowhere/cardtable"))
    verify = subprocess.run([ANALYZE, "verify", "--man=no", f"--root={club_root}", unit.name],
                            capture_output=True, text=True, timeout=60)
    assert verify.returncode != 0 or verify.stderr.strip()
    assert "on-failur" in verify.stderr or "/nowhere/cardtable" in verify.stderr, verify.stderr
