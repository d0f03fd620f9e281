"""`cardtable replay` as a user runs it: a real subprocess on real files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"


def replay(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware_host.cli", "replay", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_replay_prints_one_json_ruling_per_line() -> None:
    p = replay(str(DATA / "bridge-irregularities.jsonl"))
    assert p.returncode == 0, p.stderr
    rulings = [json.loads(line) for line in p.stdout.splitlines()]
    assert {"remedy", "law", "clause", "reason"} <= set(rulings[0])
    assert any(r["remedy"] == "redeal" and r["dealer"] == "N" for r in rulings)
    assert "events" in p.stderr and "rulings" in p.stderr


def test_replay_twice_is_identical() -> None:
    a = replay(str(DATA / "euchre-irregularities.jsonl"))
    b = replay(str(DATA / "euchre-irregularities.jsonl"))
    assert a.stdout == b.stdout and a.returncode == b.returncode == 0


def test_malformed_line_exits_2_after_earlier_rulings(tmp_path: Path) -> None:
    good = (DATA / "bridge-irregularities.jsonl").read_text().splitlines()[:5]
    f = tmp_path / "bad.jsonl"
    f.write_text("\n".join([*good, '{"type": "card_dealt", "seat": "X", "card": "AS"}', *good]) + "\n")
    p = replay(str(f))
    assert p.returncode == 2
    assert f"{f}:6: field 'seat': unknown seat 'X'" in p.stderr
    assert len(p.stdout.splitlines()) == 2  # formation + new shuffle and cut from lines 3 and 5


def test_bad_json_unknown_type_unknown_card(tmp_path: Path) -> None:
    cases = {'{"type": "game", "game": "euchre"}\n{"type": oops}\n': ":2: bad JSON",
             '{"type": "game", "game": "euchre"}\n{"type": "teleport"}\n': ":2: unknown event type",
             '{"type": "game", "game": "euchre"}\n{"type": "card_played", "seat": "N", "card": "ZZ"}\n':
                 ":2: field 'card': unknown rank 'Z'",
             '{"type": "game", "game": "whist"}\n': ":1: unknown game 'whist'",
             '{"type": "shuffle", "seat": "N"}\n': ":1: the log does not start with a 'game' line"}
    for i, (text, message) in enumerate(cases.items()):
        f = tmp_path / f"case{i}.jsonl"
        f.write_text(text)
        p = replay(str(f))
        assert p.returncode == 2 and message in p.stderr, (text, p.stderr)


def test_stdin_and_game_flag_and_text_format() -> None:
    text = '{"type": "shuffle", "seat": "N"}\n{"type": "card_faced", "card": "AS", "where": "pack"}\n'
    p = replay("-", "--game", "contract-bridge", "--format", "text", stdin=text)
    assert p.returncode == 0, p.stderr
    assert "NEW SHUFFLE AND CUT" in p.stdout and "[CB-redeal-faced]" in p.stdout
    assert "<stdin>" in p.stderr


def test_missing_file_is_a_clear_message(tmp_path: Path) -> None:
    p = replay(str(tmp_path / "nope.jsonl"))
    assert p.returncode == 2 and "nope.jsonl: cannot open" in p.stderr and "Traceback" not in p.stderr


def test_a_bridge_hand_replays_and_a_card_nobody_holds_exits_2(tmp_path: Path) -> None:
    lines = (DATA / "bridge-hand.jsonl").read_text().splitlines()
    p = replay(str(DATA / "bridge-hand.jsonl"))
    assert p.returncode == 0, p.stderr
    remedies = [json.loads(line)["remedy"] for line in p.stdout.splitlines()]
    assert "contract" in remedies and remedies[-1] == "score"
    first_card = next(i for i, x in enumerate(lines) if '"card_played"' in x)
    f = tmp_path / "bad.jsonl"
    f.write_text("\n".join([*lines[:first_card], '{"type": "card_played", "seat": "W", "card": "JS"}']) + "\n")
    p = replay(str(f))
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert f"{f}:{first_card + 1}: West does not hold jack of spades" in p.stderr, p.stderr


def test_each_json_ruling_names_the_event_it_answers(tmp_path: Path) -> None:
    """docs/events.md, "Rulings": `event` is the index of the event (0: the game line; blank lines are not
    events) whose feeding gave the ruling, so a reader places each ruling without replaying twice."""
    src = (DATA / "bridge-irregularities.jsonl").read_text().splitlines()
    f = tmp_path / "blank.jsonl"
    f.write_text("\n".join([src[0], "", *src[1:]]) + "\n")        # a blank line is not an event
    p = replay(str(f))
    assert p.returncode == 0, p.stderr
    events = [json.loads(line) for line in src if line.strip()]
    rulings = [json.loads(line) for line in p.stdout.splitlines()]
    assert rulings and all(isinstance(r["event"], int) for r in rulings)
    assert [r["event"] for r in rulings] == sorted(r["event"] for r in rulings)
    redeal = next(r for r in rulings if r["remedy"] == "redeal")
    assert events[redeal["event"]]["type"] in ("card_dealt", "card_faced", "demand", "deal_end")
    formation = next(r for r in rulings if r["remedy"] == "formation")
    assert events[formation["event"]]["type"] == "draw"


def test_replay_help_names_every_game() -> None:
    p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "replay", "--help"], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0
    from laws.games import GAMES
    for game in GAMES:
        assert game in p.stdout, game


def test_a_text_headline_is_in_capitals_save_a_packs_id() -> None:
    """docs/events.md, "Example": the headline is in capitals, but a pack's id is the club's own string
    and is written as the club wrote it (an outside reader checking "all capitals" met
    ``REPLACE THE PACK (pack red)``; outside audit p2), and ` — North deals` follows where the ruling
    says who deals next (a redeal), not on THE TABLE IS FORMED, whose ruling has a ``dealer`` too."""
    p = replay(str(DATA / "bridge-irregularities.jsonl"), "--format", "text")
    assert p.returncode == 0, p.stderr
    heads = [line.split("] ", 1)[1] for line in p.stdout.splitlines() if line.startswith("[line ")]
    assert "REPLACE THE PACK (pack red)" in heads and "THE TABLE IS FORMED" in heads
    assert "REDEAL — North deals" in heads
    for head in heads:
        base = head.split(" — ")[0].replace("(pack red)", "")
        assert base == base.upper(), head
