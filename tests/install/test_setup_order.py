"""hardware/SETUP.md run in order (issue 21): each step's own checks pass when the steps before it were
done, and no step tells the volunteer to do something that fails because a later step is not done yet."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.cli import main

ROOT = Path(__file__).resolve().parents[2]
SETUP = (ROOT / "hardware" / "SETUP.md").read_text(encoding="utf-8")


def test_install_files_does_not_say_enable_before_a_configuration_exists(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install-files", "--root", str(tmp_path), "--program", "/opt/cardtable/venv/bin/cardtable"]) == 0
    out = capsys.readouterr().out
    assert "enable --now" not in out, out
    assert "config init" in out
    conf = tmp_path / "etc" / "cardtable" / "table.toml"
    conf.parent.mkdir(parents=True)
    conf.write_text("[table]\n")
    assert main(["install-files", "--root", str(tmp_path), "--program", "/opt/cardtable/venv/bin/cardtable"]) == 0
    assert "enable --now cardtable" in capsys.readouterr().out


def _steps() -> list[tuple[str, str]]:
    """(heading, text) of each numbered section."""
    parts = re.split(r"^## ", SETUP, flags=re.M)[1:]
    return [(p.splitlines()[0], p) for p in parts]


def test_the_state_folder_is_made_before_doctor_runs() -> None:
    text = SETUP
    made = text.find("install -d -o cardtable -g cardtable -m 0750 /var/lib/cardtable")
    doctor = text.find("cardtable doctor --config")
    assert 0 <= made < doctor, "the state folder must exist before `doctor` checks it"


def test_setup_says_the_unit_takes_the_login_prompt_off_the_screen() -> None:
    assert "Conflicts=getty@tty1" in SETUP
    assert "login prompt" in SETUP


def test_the_contract_tests_step_gives_lgpio_a_folder() -> None:
    step = next(t for h, t in _steps() if h.startswith("6."))
    assert "LG_WD" in step


def test_setup_says_auto_prefers_lgpio_on_every_model() -> None:
    assert "RPi.GPIO on a Pi 4" not in SETUP
    assert "lgpio on every model" in SETUP or "lgpio first" in SETUP


# --- issue 31: both releases, what each step prints, the club's machine ----------------------------------

def test_every_step_says_what_it_prints_when_it_worked() -> None:
    steps = [(h, t) for h, t in _steps() if re.match(r"(\d+[ab]?|C\d+)\. ", h)]
    assert len(steps) >= 18, [h for h, _ in steps]
    silent = [h for h, t in steps if "When it worked" not in t]
    assert not silent, f"steps that do not say what they print when they worked: {silent}"


def test_the_numpy_each_release_gets_is_the_one_constraints_pins() -> None:
    """SETUP's table of releases and constraints.txt agree, read as pip on that Python reads it."""
    from tests.install.test_aarch64 import constraints_for

    text = (ROOT / "constraints.txt").read_text()
    for release, python in (("Trixie", "3.13"), ("Bookworm", "3.11")):
        row = next(line for line in SETUP.splitlines() if line.startswith(f"| **{release}**"))
        pinned = next(line for line in constraints_for(python, "aarch64", text).splitlines()
                      if line.startswith("numpy=="))
        assert row.split("|")[3].strip() == python and row.split("|")[4].strip() == pinned.split("==")[1], row
        assert f"`numpy {pinned.split('==')[1]}`" in SETUP


def test_the_club_doctor_example_shows_every_check_in_order() -> None:
    from firmware_host.doctor_club import CLUB_CHECKS

    step = next(t for h, t in _steps() if h.startswith("C8."))
    example = step.split("```text", 1)[1].split("```", 1)[0]
    names = [line.split()[1] for line in example.strip().splitlines()]
    assert names == ["config", *CLUB_CHECKS]
    table = [m for m in re.findall(r"^\| `(\w+)` \|", step, flags=re.M)]
    assert table == list(CLUB_CHECKS)


def test_the_club_options_the_setup_explains_are_the_files() -> None:
    from firmware_host.commands.doctor import CLUB_KEYS

    step = next(t for h, t in _steps() if h.startswith("C4."))
    assert re.findall(r"^\| `([A-Z_]+)` \|", step, flags=re.M) == list(CLUB_KEYS)
    env = (ROOT / "config" / "club.env").read_text()
    assert [line.split("=")[0] for line in env.splitlines() if line and not line.startswith("#")] == list(CLUB_KEYS)


def test_a_session_table_names_no_hand_records_file() -> None:
    step = next(t for h, t in _steps() if h.startswith("5b."))
    toml = step.split("```toml", 1)[1].split("```", 1)[0]
    assert "session = true" in toml and 'game = "duplicate-bridge"' in toml
    assert not re.search(r"^records\s*=", toml, flags=re.M)


def _block(heading: str) -> str:
    """The first ```sh block of the section whose heading starts with ``heading``."""
    step = SETUP.split(f"\n## {heading}", 1)[1].split("\n## ", 1)[0]
    return step.split("```sh\n", 1)[1].split("```", 1)[0]


def _venv_lines(block: str, venv: Path) -> list[str]:
    """The block's lines that make /opt/cardtable/venv, run here: ``venv`` for its path, this Python for
    ``python3``, no sudo, and ``--without-pip`` so that nothing is downloaded or installed."""
    lines = [ln.split("   #", 1)[0] for ln in block.splitlines() if "-m venv" in ln]
    assert lines, block
    return [ln.replace("sudo ", "").replace("/opt/cardtable/venv", str(venv))
            .replace("python3 -m venv", f"{sys.executable} -m venv --without-pip") for ln in lines]


def test_a_club_machine_that_is_also_a_table_keeps_the_tables_venv(tmp_path: Path) -> None:
    """C1 after step 1 on the same machine (audit 64): `python3 -m venv` again on step 1's venv turned
    include-system-site-packages off, and the table lost apt's picamera2 and lgpio."""
    venv = tmp_path / "venv"
    for line in _venv_lines(_block("1. "), venv) + _venv_lines(_block("C1. "), venv):
        subprocess.run(["sh", "-c", line], check=True, capture_output=True)
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    # a machine that is only the club's gets a venv of its own from C1
    alone = tmp_path / "club"
    for line in _venv_lines(_block("C1. "), alone):
        subprocess.run(["sh", "-c", line], check=True, capture_output=True)
    assert "include-system-site-packages = false" in (alone / "pyvenv.cfg").read_text()


def test_config_init_names_the_program_by_its_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Step 5: `config init` says how to check the file. It said `cardtable check-config ...`, and the
    venv's bin (/opt/cardtable/venv/bin) is not on the admin's PATH: copied as printed, "command not
    found". It names the `cardtable` it was run as, as `install-files` does in step 3."""
    conf = tmp_path / "table.toml"
    assert main(["config", "init", str(conf), "--id", "table-01", "--name", "Table 1"]) == 0
    wrote, check = capsys.readouterr().out.splitlines()
    program = Path(sys.executable).parent / "cardtable"
    assert wrote.startswith(f"wrote {conf}: edit it")
    assert check.split() == [str(program), "check-config", "--config", str(conf)], check
    step = SETUP.split("\n## 5. ", 1)[1].split("\n## ", 1)[0]
    assert "/opt/cardtable/venv/bin/cardtable check-config --config /etc/cardtable/table.toml`" in step


def test_setup_says_what_labels_prints_without_its_font(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`cardtable labels` needs DejaVu Sans Bold (fonts-dejavu-core, or matplotlib's copy the club's extra
    brings); no step said so. Step 6 prints a label and installs the package first, C1 says the club's
    machine has the font through its extra, and the line step 6 quotes is the one a machine without the
    font prints (the font hidden here, as on a minimal image)."""
    real = Path.is_file
    monkeypatch.setattr(Path, "is_file", lambda self: not self.name.endswith(".ttf") and real(self))
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(["labels", "--pack", "A1", "--out", str(tmp_path / "labels-A1")]) == 2
    err = capsys.readouterr().err.strip()
    six, c1 = (" ".join(t.split()) for h, t in _steps() if h.startswith(("6.", "C1.")))
    raw = SETUP.split("\n## 6. ", 1)[1].split("\n## ", 1)[0]
    assert "```sh\nsudo apt install -y fonts-dejavu-core\n/opt/cardtable/venv/bin/cardtable labels --pack" in raw
    assert f"`{err}`" in six, err
    assert "fonts-dejavu-core" in c1 and "matplotlib" in c1
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "`cardtable labels --pack B7" in readme and "sudo apt install fonts-dejavu-core" in readme


def _sh_blocks(heading: str) -> list[str]:
    """Every ```sh block of the section whose heading starts with ``heading``, continuation lines joined."""
    step = SETUP.split(f"\n## {heading}", 1)[1].split("\n## ", 1)[0]
    return [b.split("```", 1)[0].replace("\\\n", " ") for b in step.split("```sh\n")[1:]]


def test_the_evenings_hand_records_reach_duplicate_open_as_c9_says(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """C9 named /var/lib/cardtable-club/boards-2026-12-02.pbn and never said how it gets there: only
    `cardtable` may write that folder (C2), and `duplicate open` runs as `cardtable`, which may not read
    the admin's home folder. C9's `install` line puts it there, readable by `cardtable` alone, in the
    folder the session's unit has (StateDirectory), and its `duplicate open` line then makes the session
    from it (run here under a temporary root, without sudo or the user). A file it cannot read is the
    one line C9 quotes, and no session."""
    import shlex
    import stat

    put, show = _sh_blocks("C9. ")[0].strip().splitlines()
    opening = next(ln for ln in _sh_blocks("C9. ")[1].splitlines() if "duplicate open" in ln)
    install = shlex.split(put)
    assert install[:8] == ["sudo", "install", "-o", "cardtable", "-g", "cardtable", "-m", "0640"], put
    name, folder = install[8], install[9].rstrip("/")
    unit = (ROOT / "hardware/systemd/cardtable-session@.service").read_text()
    assert f"WorkingDirectory={folder}\n" in unit and "StateDirectory=cardtable-club\n" in unit
    argv = shlex.split(opening)
    assert argv[:4] == ["sudo", "-u", "cardtable", "/opt/cardtable/venv/bin/cardtable"], opening
    records = argv[argv.index("--hand-records") + 1]
    assert records == f"{folder}/{name}" and show.split()[-1] == records
    sessions = next(ln.split("=", 1)[1] for ln in (ROOT / "config/club.env").read_text().splitlines()
                    if ln.startswith("SESSIONS="))
    assert argv[argv.index("--dir") + 1].startswith(f"{sessions}/")

    root = tmp_path / "root"
    (root / folder.lstrip("/")).mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    assert main(["boards", "new", "--count", "14", "--out", name]) == 0
    mine = [install[1], *install[6:8], name, str(root / folder.lstrip("/")) + "/"]  # not root here: no -o, -g
    subprocess.run(mine, check=True)
    placed = root / records.lstrip("/")
    assert stat.S_IMODE(placed.stat().st_mode) == 0o640
    capsys.readouterr()
    ours = [a if not a.startswith("/var/lib/cardtable-club") else str(root) + a for a in argv[4:]]
    assert main(ours) == 0, capsys.readouterr()
    assert (root / argv[argv.index("--dir") + 1].lstrip("/") / "session.sqlite3").is_file()

    import firmware_host.duplicate.handrecords.handfiles as handfiles

    home = "/home/you/boards-2026-12-02.pbn"
    real_open = handfiles.os.open

    def denied(path: str, *a: int) -> int:
        if str(path) == home:
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, *a)

    monkeypatch.setattr(handfiles.os, "open", denied)
    again = list(ours)
    again[again.index("--hand-records") + 1], again[again.index("--dir") + 1] = home, str(tmp_path / "not-made")
    capsys.readouterr()
    assert main(again) == 2
    err = capsys.readouterr().err.strip()
    assert f"`{err}`" in " ".join(SETUP.split("\n## C9. ", 1)[1].split()), err
    assert not (tmp_path / "not-made").exists()
