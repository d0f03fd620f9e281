"""`cardtable replay` and text that is not text (issue 20, item 2; issue 25): a lone surrogate escape
(``"\\ud800"``) anywhere in a line, in a name, a seat or a field no one reads, is refused as that line's
``FILE:LINE`` message, exit 2, after the rulings of the lines before it; on main the ruling that named the
player was printed into a traceback (stdout cannot hold the character). Run as a process, so that
stdout is a real UTF-8 stream."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EUCHRE = '{"type":"game","game":"euchre"}'


@pytest.mark.parametrize(("line", "where"), [
    ('{"type":"draw","cuts":[["\\ud800","JS"],["Bob","AH"],["Cy","9D"],["Di","8C"]]}', "field 'cuts'"),
    ('{"type":"candidate","name":"Ed\\udfff"}', "field 'name'"),
    ('{"type":"shuffle","seat":"N","note":"\\ud83d"}', "field 'note'"),
    ('{"type":"shuffle","seat":"N","\\ud800":1}', "the name of field '\\ud800'"),
])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_lone_surrogate_is_the_lines_message_not_a_traceback(tmp_path: Path, line: str, where: str,
                                                               fmt: str) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text(f"{EUCHRE}\n{line}\n", encoding="ascii")
    proc = subprocess.run([sys.executable, "-m", "firmware_host.cli", "replay", str(log), "--format", fmt],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == f"{log}:2: {where} holds a lone surrogate escape (such as \\ud800), which is not text\n"
    assert "Traceback" not in proc.stderr
