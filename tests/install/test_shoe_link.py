"""The shoe's link to the Pi, as the table-side documents and the shoe's own describe it (audit 64): the
reference firmware speaks the protocol on the Pico's UART0 only, through an FTDI TTL-232R-3V3 cable, so
the udev rule, hardware/WIRING.md, hardware/BOM.md and SETUP step 3 must name that cable's USB id, as
hardware/shoe/WIRING.md and hardware/shoe/BOM.md do. They named the Pico's own USB port (2e8a:0005,
/dev/ttyACM0), which is MicroPython's REPL: a table set up from them put its host at a Python prompt."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_host.config.schema import ShoeConfig

ROOT = Path(__file__).resolve().parents[2]
HW = ROOT / "hardware"
RULE = (HW / "udev" / "99-cardtable-shoe.rules").read_text(encoding="utf-8")


def _section(path: Path, heading: str) -> str:
    """The text under ``heading`` (a whole heading line) up to the next heading of any level."""
    text = path.read_text(encoding="utf-8")
    start = text.index(f"\n{heading}\n")
    nxt = re.search(r"^#{1,6} ", text[start + len(heading) + 2:], flags=re.M)
    return text[start:start + len(heading) + 2 + (nxt.start() if nxt else len(text))]


def _ids(line: str) -> str:
    vendor = re.search(r'ATTRS\{idVendor\}=="([0-9a-f]{4})"', line)
    product = re.search(r'ATTRS\{idProduct\}=="([0-9a-f]{4})"', line)
    assert vendor and product, line
    return f"{vendor.group(1)}:{product.group(1)}"


def _rule_id() -> str:
    active = [ln for ln in RULE.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    assert len(active) == 1, active
    assert 'SYMLINK+="cardtable-shoe"' in active[0]
    return _ids(active[0])


def test_the_firmware_speaks_on_uart0_through_the_cable() -> None:
    """The premise of the documents below: if the firmware moves to USB CDC, they all change."""
    main = (HW / "shoe" / "firmware" / "main.py").read_text(encoding="utf-8")
    hal = (HW / "shoe" / "firmware" / "shoefw" / "rp2040.py").read_text(encoding="utf-8")
    assert "UartPort()" in main and "machine.UART(0," in hal
    assert "TTL-232R-3V3" in _section(HW / "shoe" / "WIRING.md", "## Connections (Raspberry Pi Pico, pin numbers "
                                                                  "are GPIO numbers)")


def test_the_udev_rule_matches_the_ftdi_cable_and_names_the_configured_port() -> None:
    assert _rule_id() == "0403:6001"
    assert ShoeConfig().port == "/dev/cardtable-shoe"
    # the serial-number line to pin one cable is the same rule with ATTRS{serial}
    pinned = [ln for ln in RULE.splitlines() if "ATTRS{serial}" in ln and "idVendor" in ln]
    assert len(pinned) == 1 and _ids(pinned[0]) == _rule_id()
    assert 'SYMLINK+="cardtable-shoe"' in pinned[0]


def test_table_side_and_shoe_documents_name_the_rules_usb_id() -> None:
    usb_id = _rule_id()
    table_side = {
        "hardware/WIRING.md, The shoe": _section(HW / "WIRING.md", "## The shoe"),
        "hardware/BOM.md, Shoe link": _section(HW / "BOM.md", "## Shoe link"),
        "hardware/SETUP.md step 3": _section(HW / "SETUP.md", "## 3. The unit and the shoe's udev rule"),
    }
    shoe_side = {
        "hardware/shoe/WIRING.md, On the Pi": _section(HW / "shoe" / "WIRING.md", "## On the Pi"),
        "hardware/shoe/BOM.md": (HW / "shoe" / "BOM.md").read_text(encoding="utf-8"),
    }
    for where, text in {**table_side, **shoe_side}.items():
        assert usb_id in text, f"{where} does not name the cable's USB id {usb_id}"
        assert "TTL-232R-3V3" in text, f"{where} does not name the cable"
    for where, text in table_side.items():
        assert "2e8a" not in text and "ttyACM" not in text, f"{where} still sends the host to the Pico's USB port"
        assert "ttyUSB" in text or "cardtable-shoe" in text, where


def _install(root: Path, *more: str) -> int:
    from firmware_host.cli import main

    return main(["install-files", "--root", str(root), "--program", "/opt/cardtable/venv/bin/cardtable", *more])


def test_install_files_keeps_a_rule_edited_here_and_force_replaces_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """SETUP step 3 tells the installer to edit the rule (another id, one cable's serial number): a second
    install-files replaced it without a word (audit 64, F3); it keeps it now, as --club keeps club.env."""
    rule = tmp_path / "etc/udev/rules.d/99-cardtable-shoe.rules"
    assert _install(tmp_path) == 0 and rule.read_text() == RULE
    capsys.readouterr()
    pinned = RULE.replace('ATTRS{idProduct}=="6001", SYMLINK', 'ATTRS{idProduct}=="6001", ATTRS{serial}=="FT9Z9Z9Z", '
                          'SYMLINK', 1)
    assert pinned != RULE
    rule.write_text(pinned)
    assert _install(tmp_path) == 0
    out = capsys.readouterr().out
    assert rule.read_text() == pinned
    assert f"{rule}: kept as it was" in out and "--force" in out, out
    assert _install(tmp_path, "--force") == 0
    assert rule.read_text() == RULE and "kept" not in capsys.readouterr().out
    assert _install(tmp_path, "--club", "--force") == 2
    assert "--force" in capsys.readouterr().err


def test_install_files_replaces_a_rule_an_earlier_release_shipped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An untouched rule of an earlier release (the Pico's USB port, 2e8a:0005) is not an edit: an upgrade
    replaces it with the FTDI cable's."""
    earlier = (ROOT / "tests/data/udev/99-cardtable-shoe.rules.2e8a").read_bytes()
    rule = tmp_path / "etc/udev/rules.d/99-cardtable-shoe.rules"
    rule.parent.mkdir(parents=True)
    rule.write_bytes(earlier)
    assert _install(tmp_path) == 0
    assert rule.read_text() == RULE and "kept" not in capsys.readouterr().out
