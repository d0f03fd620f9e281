"""A password or token file that cannot be used (missing, a folder, not UTF-8, empty): one line naming
the option and the file, exit 2, before anything connects or serves (the house rule for bad input)."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.cli import main


@pytest.mark.parametrize("kind", ["missing", "folder", "not-utf8", "empty"])
@pytest.mark.parametrize("line", [
    ["event", "run", "{EV}", "--users", "{U}", "--password-file", "{F}"],
    ["euchre", "serve", "--session", "{EV}", "--password-file", "{F}"],
    ["euchre", "serve", "--session", "{EV}", "--password-file", "{U}", "--token-file", "{F}"],
])
def test_a_secret_file_that_cannot_be_used_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    line: list[str], kind: str) -> None:
    """``event run`` said only "'utf-8' codec can't decode byte 0x82 in position 2: invalid start byte"
    for a password file that is not text (no file, no option) and took an empty one; ``euchre serve``
    said "[Errno 2] No such file or directory: '...'" or the codec's words, naming no option."""
    secret = tmp_path / "secret"
    if kind == "folder":
        secret.mkdir()
    elif kind == "not-utf8":
        secret.write_bytes(b"\xff\xfe pass\n")
    elif kind == "empty":
        secret.write_text("\n")
    good = tmp_path / "good"
    good.write_text("a good password\n")
    argv = [a.replace("{F}", str(secret)).replace("{U}", str(good)).replace("{EV}", str(tmp_path / "none"))
            for a in line]
    option = argv[argv.index(str(secret)) - 1]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{option} {secret}: " in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert {"missing": "cannot be read (No such file", "folder": "cannot be read (Is a directory)",
            "not-utf8": "not UTF-8 text (byte 1)", "empty": "the file is empty"}[kind] in err, err


@pytest.mark.parametrize("line", [
    ["event", "run", "{EV}", "--users", "{U}", "--password-file", "{F}"],
    ["euchre", "serve", "--session", "{EV}", "--password-file", "{F}"],
    ["broadcast", "live", "--session", "{EV}", "--password-file", "{F}", "--spectator-password-file", "{U}"],
    ["broadcast", "live", "--session", "{EV}", "--password-file", "{U}", "--spectator-password-file", "{F}"],
    ["club", "dashboard", "--users", "{DIRECTORS}", "--mqtt-password-file", "{F}"],
])
def test_a_password_file_too_big_for_a_password_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           line: list[str]) -> None:
    """``broadcast live`` took a 30 MB file (a log named by mistake) as its password, read whole and sent
    to the broker; now at most 4 KiB, and the refusal names the option and the file."""
    import io

    from firmware_host.commands.guard import SECRET_AT_MOST

    secret = tmp_path / "secret"
    secret.write_text("x" * (SECRET_AT_MOST + 1))
    good = tmp_path / "good"
    good.write_text("a good password\n")
    directors = tmp_path / "directors"
    if "{DIRECTORS}" in line:
        monkeypatch.setattr("sys.stdin", io.StringIO("long-password-9\n"))
        assert main(["club", "adduser", "--users", str(directors), "alice", "--password-stdin"]) == 0
        capsys.readouterr()
    argv = [a.replace("{F}", str(secret)).replace("{U}", str(good)).replace("{EV}", str(tmp_path / "none"))
            .replace("{DIRECTORS}", str(directors)) for a in line]
    option = argv[argv.index(str(secret)) - 1]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{option} {secret}: over {SECRET_AT_MOST} bytes" in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err


def test_a_password_file_of_4_kib_is_taken(tmp_path: Path) -> None:
    """The limit is the file's size: a file of exactly ``SECRET_AT_MOST`` bytes is read."""
    from firmware_host.commands.guard import SECRET_AT_MOST, read_secret

    secret = tmp_path / "secret"
    secret.write_text("p" * SECRET_AT_MOST)
    assert read_secret(str(secret), "--password-file") == "p" * SECRET_AT_MOST
