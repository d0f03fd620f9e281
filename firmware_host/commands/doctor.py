"""``cardtable doctor --config FILE``: check that this machine can run its table; one line per check,
OK or the fix. Exit 0 when every check passes, 1 when one fails, 2 when the configuration is wrong.

``cardtable doctor --club [--club-env FILE] [--session NAME]``: the same for the club's machine (its
broker, dashboard, TLS files, disk, clock, the session's folder and a backup of its journal), described
by the options file its services read (``/etc/cardtable/club.env``), parsed here with the broker's and
the dashboard's own command-line parsers.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firmware_host.doctor_club import ClubSetup

CLUB_ENV = "/etc/cardtable/club.env"
CLUB_KEYS = ("BROKER_ARGS", "DASHBOARD_ARGS", "SESSIONS", "BACKUPS")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from firmware_host.doctor import CHECKS
    from firmware_host.doctor_club import CLUB_CHECKS

    p = sub.add_parser("doctor", help="check camera, shoe port, GPIO, data folder, clock, broker and service "
                       "(--club: the club's machine)")
    p.add_argument("--config", default="/etc/cardtable/table.toml",
                   help="the table's configuration (default /etc/cardtable/table.toml)")
    p.add_argument("--skip", action="extend", default=[], type=_checks, metavar="CHECK[,CHECK...]",
                   help=f"leave checks out (a comma list, or repeated): {', '.join(CHECKS)}; with --club: "
                        f"{', '.join(CLUB_CHECKS)}")
    p.add_argument("--club", action="store_true", help="check the club's machine instead of a table")
    p.add_argument("--club-env", metavar="FILE",
                   help=f"with --club: the services' options file (default {CLUB_ENV})")
    p.add_argument("--session", metavar="NAME",
                   help="with --club: the session folder (under SESSIONS) to check and back up (default: "
                        "the newest)")
    p.set_defaults(func=_run)


def _checks(text: str) -> list[str]:
    """``camera,clock`` -> the checks named, each one we know (else a message naming it)."""
    import difflib

    from firmware_host.doctor import CHECKS
    from firmware_host.doctor_club import CLUB_CHECKS

    known = list(dict.fromkeys([*CHECKS, *CLUB_CHECKS]))
    names = [n.strip() for n in text.split(",") if n.strip()]
    for name in names:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise argparse.ArgumentTypeError(f"no check {name!r}{hint} (checks: {', '.join(CHECKS)}; with "
                                             f"--club: {', '.join(CLUB_CHECKS)})")
    return names


def _run(args: argparse.Namespace) -> int:
    import os

    from firmware_host.config import ConfigError, load_config
    from firmware_host.doctor import doctor_exit, run_checks
    from firmware_host.resources import this_program

    if args.club:
        args.club_env = args.club_env or CLUB_ENV
        args.session = args.session or ""
        return _run_club(args)
    wrong = [o for o, v in (("--club-env", args.club_env), ("--session", args.session)) if v is not None]
    if wrong:   # checked the table and its configuration instead, saying nothing of the option
        print(f"cardtable doctor: {' and '.join(wrong)} go{'es' if len(wrong) == 1 else ''} with --club (the club's "
              "machine); a table's doctor takes --config", file=sys.stderr)
        return 2
    from vision.watcher import from_sections
    from vision.zones import ConfigError as VisionConfigError

    try:
        cfg = load_config(args.config, env=os.environ, check_devices=False)
        from_sections(cfg.vision, cfg.zones, cfg.source, cfg.camera.decoder)   # [vision], [zones], the homography
    except (ConfigError, VisionConfigError) as exc:
        program = this_program()
        print(f"FAIL  config  {exc} -- fix: edit it and check it with sudo -u cardtable {program} check-config "
              f"--config {args.config}, or write a new one with sudo {program} config init {args.config} "
              "--force --id ID --name NAME", flush=True)
        return 2
    print(f"OK    config  {cfg.source}", flush=True)
    checks = run_checks(cfg, args.skip)
    for check in checks:
        print(check.line(), flush=True)
    rc = doctor_exit(checks)
    if rc:
        print(f"{sum(not c.ok for c in checks)} check(s) failed", file=sys.stderr)
    return rc


# --- the club's machine ---------------------------------------------------------------------------------

class ClubEnvError(ValueError):
    """The options file is missing, unreadable or wrong; the message names the file, the line and what."""


class _Raising(argparse.ArgumentParser):
    """A parser that raises instead of printing usage and exiting (club.env is not a command line)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise ClubEnvError(message)


@dataclass(frozen=True)
class ClubOptions:
    """club.env read: the broker's and the dashboard's options as their commands parse them."""

    broker: argparse.Namespace
    dashboard: argparse.Namespace
    sessions: Path
    backups: Path
    raw: Mapping[str, str]

    @classmethod
    def parse(cls, text: str, source: str) -> ClubOptions:
        """Read ``KEY=VALUE`` lines as systemd's ``EnvironmentFile=`` does (comments, blank lines, a
        value in double quotes), then each value with the command it is for.

        Raises:
            ClubEnvError: naming ``source``, the line or key, and what is wrong.
        """
        from firmware_host.commands import club

        raw: dict[str, str] = {}
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith(("#", ";")):
                continue
            key, eq, value = line.partition("=")
            if not eq or not key.strip().isidentifier():
                raise ClubEnvError(f"{source}, line {number}: not KEY=VALUE: {line[:60]!r}")
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] == '"':
                value = value[1:-1]
            raw[key.strip()] = value
        missing = [k for k in CLUB_KEYS if not raw.get(k)]
        if missing:
            raise ClubEnvError(f"{source}: no {', '.join(missing)} (config/club.env in the program shows each)")
        parser = _Raising(prog="cardtable", add_help=False)
        club.register(parser.add_subparsers(dest="command"))
        spaces = [k for k in ("SESSIONS", "BACKUPS") if len(_words(source, k, raw[k])) != 1]
        if spaces:
            raise ClubEnvError(f"{source}: {spaces[0]} must be one folder, without spaces: {raw[spaces[0]]!r}")
        parsed = {}
        for key, verb in (("BROKER_ARGS", "broker"), ("DASHBOARD_ARGS", "dashboard")):
            words = _words(source, key, raw[key])
            if {"-h", "--help"} & set(words):  # argparse would print the help and exit
                raise ClubEnvError(f"{source}: {key}: --help is not an option a service can run with")
            try:
                parsed[key] = parser.parse_args(["club", verb, *words])
            except (ClubEnvError, ValueError) as exc:
                raise ClubEnvError(f"{source}: {key}: {exc} (the options of cardtable club {verb})") from None
        return cls(parsed["BROKER_ARGS"], parsed["DASHBOARD_ARGS"], Path(raw["SESSIONS"]), Path(raw["BACKUPS"]), raw)

    def setup(self, session: str = "") -> ClubSetup:
        """The values the checks need (``firmware_host.doctor_club.ClubSetup``)."""
        from firmware_host.doctor_club import ClubSetup

        b, d = self.broker, self.dashboard
        tls_files: list[tuple[str, Path, bool]] = []
        for what, name, is_cert in (("broker certificate", b.certfile, True), ("broker key", b.keyfile, False),
                                    ("club CA", d.ca_file, True), ("dashboard certificate", d.certfile, True),
                                    ("dashboard key", d.keyfile, False)):
            if name:
                tls_files.append((what, Path(name), is_cert))
        return ClubSetup(
            broker_host=d.broker_host, broker_port=d.broker_port, broker_tls=bool(d.tls),
            ca_file=Path(d.ca_file) if d.ca_file else None, mqtt_user=d.mqtt_user,
            password_file=Path(d.mqtt_password_file), dashboard_host=d.host, dashboard_port=d.port,
            dashboard_https=bool(d.certfile), tls_files=tuple(tls_files), sessions=self.sessions,
            backups=self.backups, session=session)


def _words(source: str, key: str, value: str) -> list[str]:
    try:
        return shlex.split(value)
    except ValueError as exc:  # a quote left open
        raise ClubEnvError(f"{source}: {key}: {exc} in {value[:60]!r}") from None


def _run_club(args: argparse.Namespace) -> int:
    from firmware_host.doctor import doctor_exit
    from firmware_host.doctor_club import CLUB_CHECKS, run_club_checks
    from firmware_host.resources import this_program

    not_club = [n for n in args.skip if n not in CLUB_CHECKS]
    if not_club:
        print(f"cardtable doctor: --skip {not_club[0]} is a table's check; with --club the checks are "
              f"{', '.join(CLUB_CHECKS)}", file=sys.stderr)
        return 2
    if "/" in args.session or args.session in (".", ".."):
        print(f"cardtable doctor: --session names a folder under SESSIONS, not a path: {args.session!r}",
              file=sys.stderr)
        return 2
    try:
        try:
            text = Path(args.club_env).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            why = getattr(exc, "strerror", None) or exc
            raise ClubEnvError(f"{args.club_env}: cannot read it ({why}); sudo {this_program()} "
                               "install-files --club writes it") from None
        options = ClubOptions.parse(text, args.club_env)
    except ClubEnvError as exc:
        print(f"FAIL  config  {exc}", flush=True)
        return 2
    print(f"OK    config  {args.club_env}", flush=True)
    checks = run_club_checks(options.setup(args.session), args.skip)
    for check in checks:
        print(check.line(), flush=True)
    rc = doctor_exit(checks)
    if rc:
        print(f"{sum(not c.ok for c in checks)} check(s) failed", file=sys.stderr)
    return rc
