"""PBN as people and other programs read it (issue 21): bridgebots reads our files without a warning
(no "Malformed record" for the header, the last board not lost); ``export pbn`` of a euchre journal says
PBN holds bridge deals and exits 2; the demo's PBN and ``export pbn`` of its journal carry the same Event
and Site tags (one source, ``pbn.session_tags``)."""

from __future__ import annotations

import logging
import random
import re
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.records.pbn import PbnDeal, pbn_text, write_pbn
from laws.cards import SEATS, full_pack


def _deals(n: int) -> list[PbnDeal]:
    rng = random.Random(5)
    out = []
    for b in range(1, n + 1):
        pack = list(full_pack())
        rng.shuffle(pack)
        out.append(PbnDeal(board=b, dealer=SEATS[(b - 1) % 4], vulnerable="None",
                           hands={s: pack[i * 13:(i + 1) * 13] for i, s in enumerate(SEATS)},
                           event="Club night", site="Table 1", date="2026.12.01", contract="4H",
                           declarer=SEATS[b % 4], result=10))
    return out


def test_bridgebots_reads_every_board_without_a_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    bridgebots = pytest.importorskip("bridgebots")
    path = tmp_path / "night.pbn"
    write_pbn(path, _deals(3))
    with caplog.at_level(logging.WARNING):
        records = bridgebots.parse_pbn(path)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert len(records) == 3


def test_the_file_starts_with_the_header_then_the_first_board() -> None:
    text = pbn_text(_deals(2))
    assert text.startswith('% PBN 2.1\n% EXPORT\n[Event "Club night"]\n')
    assert text.endswith('[Result "10"]\n\n')  # a blank line after every board, the last one too
    assert "\n\n\n" not in text


def _demo_and_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    assert main(["demo", "--quick", "--out", str(tmp_path / "demo")]) == 0
    capsys.readouterr()
    out = tmp_path / "export.pbn"
    assert main(["export", "pbn", "--data-dir", str(tmp_path / "demo" / "contract-bridge"), "--out", str(out)]) == 0
    return (tmp_path / "demo" / "bridge.pbn").read_text(), out.read_text()


def test_the_demo_and_export_pbn_give_the_same_event_and_site(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    demo, exported = _demo_and_export(tmp_path, capsys)

    def tags(text: str, tag: str) -> set[str]:
        return set(re.findall(rf'^\[{tag} "(.*)"\]$', text, re.M))

    assert tags(demo, "Event") and tags(demo, "Event") == tags(exported, "Event")
    assert tags(demo, "Site") == tags(exported, "Site")


def test_export_pbn_of_a_euchre_journal_says_pbn_holds_bridge(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--quick", "--out", str(tmp_path / "demo")]) == 0
    capsys.readouterr()
    out = tmp_path / "euchre.pbn"
    rc = main(["export", "pbn", "--data-dir", str(tmp_path / "demo" / "euchre"), "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert "PBN holds bridge deals" in err and "export jsonl" in err and "Traceback" not in err
    assert not out.exists()
