"""``cardtable install-files``: put the systemd unit and the udev rule where systemd and udev read them.

The unit's ``ExecStart`` names the program that runs this command (``/opt/cardtable/venv/bin/cardtable``
when installed as hardware/SETUP.md says), so a venv elsewhere gets a unit that starts the right one.

``--club`` installs the club machine's units instead (``CLUB_UNITS``: the broker, the dashboard, the
evening's session) and, when it is not there yet, the options file they read (``/etc/cardtable/club.env``,
from ``config/club.env``); an existing options file is never replaced.

The udev rule is the installer's to edit (hardware/SETUP.md step 3: another adapter's id, one cable's
serial number), so an installed rule that is neither today's shipped rule nor one an earlier release
shipped (``EARLIER_RULES``) is kept, and said so, as ``club.env`` is; ``--force`` replaces it.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from firmware_host.resources import this_program

UNIT_DEST = "etc/systemd/system/cardtable.service"
RULE_DEST = "etc/udev/rules.d/99-cardtable-shoe.rules"
SHIPPED_EXEC = "/opt/cardtable/venv/bin/cardtable"
CONFIG_DEST = "etc/cardtable/table.toml"  # what the unit's ExecStart reads
CLUB_UNITS = ("cardtable-broker.service", "cardtable-dashboard.service", "cardtable-session@.service")
CLUB_ENV_DEST = "etc/cardtable/club.env"  # what the club's units read (EnvironmentFile=)
# SHA-256 of each udev rule an earlier release shipped: an installed rule that is one of these was not
# edited here and is replaced by today's (the Pico USB-port rule, 2e8a:0005, before the FTDI cable's).
EARLIER_RULES = frozenset({"7f7913e467d88831f9d158e449adcf87e6961050bce0a0654d6210cc95eb6ef3"})


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("install-files", help="install the systemd unit and the shoe's udev rule (as root)")
    p.add_argument("--root", default="/", help="install under this folder instead of / (for packaging, tests)")
    p.add_argument("--program", default=None,
                   help="the cardtable program the unit starts (default: the one running this command)")
    p.add_argument("--club", action="store_true",
                   help="the club's machine instead: units for its broker, dashboard and evening's session, "
                        "and /etc/cardtable/club.env if missing")
    p.add_argument("--force", action="store_true",
                   help="replace the udev rule even if it was edited here (by default an edited rule is kept)")
    p.set_defaults(func=_run)


def unit_text(program: str, name: str = "cardtable.service") -> str:
    from firmware_host.resources import resource

    text = resource("systemd", name).read_text(encoding="utf-8")
    return text.replace(f"ExecStart={SHIPPED_EXEC} ", f"ExecStart={program} ")


def _write(dest: Path, text: str) -> None:
    """Replace ``dest`` at once (a half-written unit is never read), mode 0644."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".new")
    tmp.write_text(text, encoding="utf-8")
    tmp.chmod(0o644)
    tmp.replace(dest)


def edited_rule(dest: Path, shipped: str) -> bool:
    """Whether the rule at ``dest`` was edited here: it is there, and is neither ``shipped`` nor a rule
    an earlier release shipped (so an upgrade still replaces an untouched old rule)."""
    try:
        data = dest.read_bytes()
    except FileNotFoundError:
        return False
    return data != shipped.encode("utf-8") and hashlib.sha256(data).hexdigest() not in EARLIER_RULES


def _run(args: argparse.Namespace) -> int:
    from firmware_host.resources import resource

    program = Path(args.program) if args.program else this_program()
    if not program.is_absolute() or " " in str(program):
        print(f"cardtable install-files: the program path must be absolute, without spaces: {program}",
              file=sys.stderr)
        return 2
    root = Path(args.root)
    if args.club:
        if args.force:
            print("cardtable install-files: --force is for the table's udev rule; --club keeps club.env as it "
                  "is (move it away to get the shipped one)", file=sys.stderr)
            return 2
        return _club(root, program)
    unit, rule = root / UNIT_DEST, root / RULE_DEST
    shipped = resource("udev", "99-cardtable-shoe.rules").read_text(encoding="utf-8")
    try:
        kept = not args.force and edited_rule(rule, shipped)
        _write(unit, unit_text(str(program)))
        if not kept:
            _write(rule, shipped)
    except OSError as exc:
        return _refused(exc, root)
    if kept:
        print(f"installed {unit} (starts {program}); {rule}: kept as it was (edited here; --force replaces it "
              "with the shipped rule)")
    else:
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


def _refused(exc: OSError, root: Path) -> int:
    hint = " (run it with sudo)" if isinstance(exc, PermissionError) else ""
    print(f"cardtable install-files: {exc.filename or root}: {exc.strerror or exc}{hint}", file=sys.stderr)
    return 2


def _club(root: Path, program: Path) -> int:
    """The club machine's three units, and its options file unless one is there already."""
    from firmware_host.resources import resource

    units = [root / "etc/systemd/system" / name for name in CLUB_UNITS]
    env = root / CLUB_ENV_DEST
    try:
        for dest, name in zip(units, CLUB_UNITS, strict=True):
            _write(dest, unit_text(str(program), name))
        kept = env.exists()
        if not kept:
            _write(env, resource("config", "club.env").read_text(encoding="utf-8"))
    except OSError as exc:
        return _refused(exc, root)
    print(f"installed {', '.join(str(u) for u in units)} (they start {program})")
    print(f"{env}: {'kept as it was' if kept else 'written'} (the services' options: tables, addresses, TLS "
          "files, sessions folder)")
    if not program.exists():
        print(f"note: {program} does not exist (yet)", file=sys.stderr)
    print(f"next: edit {env}, then sudo systemctl daemon-reload && sudo systemctl enable --now cardtable-broker; "
          "add a director (cardtable club adduser), then sudo systemctl enable --now cardtable-dashboard "
          "(hardware/SETUP.md, \"The club's machine\")")
    return 0
