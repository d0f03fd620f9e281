"""``cardtable install-files``: put the systemd unit and the udev rule where systemd and udev read them.

The unit's ``ExecStart`` names the program that runs this command (``/opt/cardtable/venv/bin/cardtable``
when installed as hardware/SETUP.md says), so a venv elsewhere gets a unit that starts the right one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

UNIT_DEST = "etc/systemd/system/cardtable.service"
RULE_DEST = "etc/udev/rules.d/99-cardtable-shoe.rules"
SHIPPED_EXEC = "/opt/cardtable/venv/bin/cardtable"
CONFIG_DEST = "etc/cardtable/table.toml"  # what the unit's ExecStart reads


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("install-files", help="install the systemd unit and the shoe's udev rule (as root)")
    p.add_argument("--root", default="/", help="install under this folder instead of / (for packaging, tests)")
    p.add_argument("--program", default=None,
                   help="the cardtable program the unit starts (default: the one running this command)")
    p.set_defaults(func=_run)


def this_program() -> Path:
    """The ``cardtable`` script next to the running interpreter (the venv's ``bin``)."""
    return Path(sys.executable).parent / "cardtable"


def unit_text(program: str) -> str:
    from firmware_host.resources import resource

    text = resource("systemd", "cardtable.service").read_text(encoding="utf-8")
    return text.replace(f"ExecStart={SHIPPED_EXEC} ", f"ExecStart={program} ")


def _run(args: argparse.Namespace) -> int:
    from firmware_host.resources import resource

    program = Path(args.program) if args.program else this_program()
    if not program.is_absolute() or " " in str(program):
        print(f"cardtable install-files: the program path must be absolute, without spaces: {program}",
              file=sys.stderr)
        return 2
    root = Path(args.root)
    unit, rule = root / UNIT_DEST, root / RULE_DEST
    try:
        files = [(unit, unit_text(str(program))),
                 (rule, resource("udev", "99-cardtable-shoe.rules").read_text(encoding="utf-8"))]
        for dest, text in files:
            dest.parent.mkdir(parents=True, exist_ok=True)
            tmp = dest.with_name(dest.name + ".new")
            tmp.write_text(text, encoding="utf-8")
            tmp.chmod(0o644)
            tmp.replace(dest)
    except OSError as exc:
        hint = " (run it with sudo)" if isinstance(exc, PermissionError) else ""
        print(f"cardtable install-files: {exc.filename or root}: {exc.strerror or exc}{hint}", file=sys.stderr)
        return 2
    print(f"installed {unit} (starts {program}) and {rule}")
    if not program.exists():
        print(f"note: {program} does not exist (yet)", file=sys.stderr)
    print("then: sudo systemctl daemon-reload && sudo udevadm control --reload-rules && "
          "sudo udevadm trigger --subsystem-match=tty")
    config = root / CONFIG_DEST
    if config.exists():
        print(f"{config} is there: check it (cardtable check-config), then sudo systemctl enable --now cardtable")
    else:  # starting the service now would fail at once: it has nothing to run with
        print(f"next: write the configuration (sudo {program} config init /{CONFIG_DEST} --id table-01 "
              "--name \"Table 1\", hardware/SETUP.md step 5); enable the service only after that (step 7)")
    return 0
