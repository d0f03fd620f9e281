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
