"""A section may play the club's own ``.ASC`` movement file (``--sections A:4:asc --asc A=FILE``): the file's
text is kept in the event's setup (the journal needs no other file), its tables must be the section's, and
what cannot be used is one line and exit 2 with nothing made."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from firmware_host.cli import main
from laws.competition.event import EventState
from laws.competition.event_spec import EventError, EventKind, EventSpec, SectionSpec
from laws.duplicate.movement import howell, mitchell, to_asc


def test_an_asc_section_is_seated_as_its_file_says_and_round_trips() -> None:
    text = to_asc(howell(4, 1))
    spec = EventSpec(EventKind.SECTIONS, 16, 7, 1, sections=(SectionSpec("A", 4, "asc", asc=text),
                                                             SectionSpec("B", 4, "howell")))
    assert spec.to_dict()["sections"][0] == {"name": "A", "tables": 4, "movement": "asc", "asc": text}
    assert EventSpec.from_dict(spec.to_dict()) == spec
    first = [(t.pairs, t.boards) for t in EventState.opened(spec).draws[1].tables if t.section == "A"]
    assert first == [(("8", "1"), (1,)), (("7", "2"), (3,)), (("3", "6"), (5,)), (("4", "5"), (2,))]


@pytest.mark.parametrize("section, said", [
    (SectionSpec("A", 4, "asc"), "section A: an asc section needs its .ASC movement's text"),
    (SectionSpec("A", 4, "asc", asc=to_asc(mitchell(5, 1))), "section A: its .ASC movement has 5 tables, the section 4"),
    (SectionSpec("A", 4, "howell", asc=to_asc(howell(4, 1))), "only an asc section carries an .ASC movement's text"),
    (SectionSpec("A", 4, "asc", (2,), asc=to_asc(howell(4, 1))), "(not offered for an .ASC movement)"),
    (SectionSpec("A", 4, "asc", asc="8 4 7 7 1\n"), "individual"),
    # it reads, but a round is played twice over: the checker's words (docs/movements.md, "The checker")
    (SectionSpec("A", 4, "asc", asc="8 4 2 2 0\n1-2 A 3-4 B 5-6 A 7-8 B\n1-2 A 3-4 B 5-6 A 7-8 B\n"),
     "section A: its .ASC movement cannot be played as it stands: pair 1 plays board 1 2 times"),
])
def test_an_asc_section_that_cannot_be_played_is_refused(section: SectionSpec, said: str) -> None:
    with pytest.raises(EventError, match=said.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        EventSpec(EventKind.SECTIONS, 16, 7, 1, sections=(section, SectionSpec("B", 4, "howell")))


def test_the_command_reads_the_file_and_refuses_what_does_not_fit(tmp_path: Path, capsys: Any) -> None:
    asc = tmp_path / "howell4.asc"
    asc.write_text(to_asc(howell(4, 1)), encoding="utf-8")
    tables = ",".join(f"t{k}" for k in range(1, 9))
    args = ["event", "open", "FOLDER", "--kind", "pairs-sections", "--entrants", "16", "--rounds", "7",
            "--boards", "1", "--tables", tables]

    def run(folder: str, *extra: str) -> int:
        return main([(str(tmp_path / folder) if a == "FOLDER" else a) for a in args] + list(extra))

    assert run("ev", "--sections", "A:4:asc,B:4:howell", "--asc", f"A={asc}") == 0
    assert "section A:" in capsys.readouterr().out
    for folder, extra, said in (
            ("e2", ["--sections", "A:4:asc,B:4:howell"], "an asc section needs its .ASC movement's text"),
            ("e3", ["--sections", "A:4:howell,B:4:howell", "--asc", f"A={asc}"],
             "--asc: no section 'A' with the movement asc in --sections"),
            ("e4", ["--sections", "A:4:asc,B:4:howell", "--asc", f"A={tmp_path / 'none.asc'}"], "cannot read"),
            ("e5", ["--sections", "A:4:asc,B:4:howell", "--asc", "A"], "--asc: give SECTION=FILE")):
        assert run(folder, *extra) == 2, folder
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1 and "Traceback" not in err, (folder, err)
        assert not (tmp_path / folder).exists()
