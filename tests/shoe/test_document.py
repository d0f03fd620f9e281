"""PROTOCOL.md is a contract: its field names are the vectors', its session listing is the stored
session, and that session is what the reference firmware and host do, byte for byte."""

from __future__ import annotations

import re

import pytest

from firmware_host.shoe.firmware import FIRMWARE_DIR
from firmware_host.shoe.scanner import parse_code
from tests.shoe.session_example import render, replay_host, session_example
from tests.shoe.vectors import load

DOC = load()
PROTOCOL = (FIRMWARE_DIR.parent / "PROTOCOL.md").read_text()


def _body_names(mtype: str) -> list[str]:
    """Field names of ``mtype``'s body in section 4's tables (``n`` of ``sizes`` left out)."""
    row = re.search(rf"^\| `0x[0-9A-F]{{2}}` \| {mtype} \|(.*)$", PROTOCOL, re.M)
    assert row, f"{mtype} has no row in PROTOCOL.md section 4"
    cells = [c.strip() for c in row.group(1).split("|")]
    body = cells[1] if mtype.startswith(("HOST_", "START_", "PAUSE", "RESUME", "ABORT", "SET_", "PING",
                                          "RESEND", "ACK", "DEAL_BOARD")) else cells[0]
    body = re.sub(r"\(.*?\)", "", body).replace("`", "").strip()
    return [part.split()[0] for part in body.split(", ") if part not in ("", "—") and part.split()[0] != "n"]


@pytest.mark.parametrize("vec", DOC["valid"], ids=[v["name"] for v in DOC["valid"]])
def test_vector_field_names_are_the_documents(vec: dict) -> None:
    names = _body_names(vec["type"])
    keys = list(vec["fields"])
    assert keys == names[:len(keys)], f"{vec['type']}: vector {keys}, document {names}"
    assert len(names) - len(keys) <= (1 if vec["type"] in ("HOST_HELLO", "RESEND") else 0)   # 1.0 forms


def test_the_session_is_what_firmware_and_host_do() -> None:
    assert session_example() == DOC["session"]


def test_a_host_fed_the_sessions_shoe_frames_writes_its_host_frames() -> None:
    want = [dict(t=s["t"], hex=s["hex"]) for s in DOC["session"]["steps"] if s["from"] == "host"]
    assert sorted(replay_host(DOC["session"]), key=lambda s: s["t"]) == want


def test_the_document_shows_the_stored_session() -> None:
    assert render(DOC["session"]) in PROTOCOL
    lost = [s for s in DOC["session"]["steps"] if s.get("lost")]
    assert len(lost) == 1 and "CARD_OUT" in lost[0]["note"]


def test_the_board_session_is_what_firmware_and_host_do_and_what_the_document_shows() -> None:
    from tests.shoe.board_example import board_session
    from tests.shoe.board_example import replay_host as replay_board

    assert board_session() == DOC["board_session"]
    assert render(DOC["board_session"]) in PROTOCOL.split("### 12.1", 1)[1]
    want = [dict(t=s["t"], hex=s["hex"]) for s in DOC["board_session"]["steps"] if s["from"] == "host"]
    got, results = replay_board(DOC["board_session"])
    assert sorted(got, key=lambda s: s["t"]) == want
    assert [type(r).__name__ for r in results if type(r).__name__.startswith("Board")][-3:] == [
        "BoardIncomplete", "BoardStarted", "BoardDealt"]
    # The 47 cards placed before the session were never seen by this host: whole, but not verified
    # card by card (the tracker says so); the five it saw went to the record's seats.
    assert not results[-1].verified
    placed = [r for r in results if type(r).__name__ == "CardPlaced"]
    assert [r.card.code for r in placed] == ["AS", "TH", "QC", "4D", "2C"]


def test_the_worked_board_examples_are_vectors() -> None:
    import re

    valid = {v["name"]: v["hex"] for v in DOC["valid"]}
    for title in ('"deal board 7 from its record, pack B7"', '"rejected: a card of another pack"',
                  '"board 7 not whole: the pack ran out"'):
        block = PROTOCOL.split(f"Example (1.2) — {title}", 1)[1].split("```", 2)[1]
        tokens = []
        for line in block.splitlines():
            for tok in line.split():
                if not re.fullmatch(r"[0-9a-f]{2}", tok):
                    break
                tokens.append(tok)
        assert "".join(tokens) == valid[title.strip('"')], title


@pytest.mark.parametrize("code", DOC["card_codes"], ids=[c["payload"] for c in DOC["card_codes"]])
def test_card_code_vectors_agree_with_the_hosts_reader(code: dict) -> None:
    pack, card = parse_code(code["payload"])
    assert (pack, card.code if card else None) == (code["pack"], code["card"])


def test_the_worked_check_character_is_the_vectors() -> None:
    assert "the code is 1B7TDY" in PROTOCOL
    assert {"payload": "1B7TDY", "pack": "B7", "card": "TD"} in DOC["card_codes"]
