"""``cardtable event open --kind individual --individual published``: the club plays the published card for
its number (16 players: Ted's Bridge World's 12 rounds, docs/movements.md), its round 1 printed as the
card gives it; a wrong number of rounds, or the choice for an event that is not an individual, is one
line and exit 2, and nothing is made."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware_host.cli import main


def test_the_command_plays_the_published_card_and_refuses_what_does_not_fit(tmp_path: Path, capsys: Any) -> None:
    args = ["event", "open", str(tmp_path / "ev"), "--kind", "individual", "--entrants", "16", "--boards", "2",
            "--tables", "a,b,c,d", "--individual", "published"]
    assert main([*args, "--rounds", "12"]) == 0
    out = capsys.readouterr().out
    assert "a: N 16 S 1 E 2 W 7" in out and "d: N 13 S 10 E 12 W 3" in out
    bad = [*args[:2], str(tmp_path / "ev2"), *args[3:]]
    assert main([*bad, "--rounds", "15"]) == 2
    err = capsys.readouterr().err
    assert "the published individual for 16 players has 12 rounds, got 15" in err and err.count("\n") == 1
    assert main(["event", "open", str(tmp_path / "ev3"), "--kind", "swiss-teams", "--entrants", "6", "--rounds",
                 "3", "--boards", "2", "--tables", "a,b,c,d,e,f", "--individual", "published"]) == 2
    assert "--individual published is for an individual's movement, not swiss-teams" in capsys.readouterr().err
    assert not (tmp_path / "ev2").exists() and not (tmp_path / "ev3").exists()
