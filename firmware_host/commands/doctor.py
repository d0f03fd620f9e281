"""``cardtable doctor --config FILE``: check that this machine can run its table; one line per check,
OK or the fix. Exit 0 when every check passes, 1 when one fails, 2 when the configuration is wrong."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from firmware_host.doctor import CHECKS

    p = sub.add_parser("doctor", help="check camera, shoe port, GPIO, data folder, clock, broker and service")
    p.add_argument("--config", default="/etc/cardtable/table.toml",
                   help="the table's configuration (default /etc/cardtable/table.toml)")
    p.add_argument("--skip", action="extend", default=[], type=_checks, metavar="CHECK[,CHECK...]",
                   help=f"leave checks out (a comma list, or repeated): {', '.join(CHECKS)}")
    p.set_defaults(func=_run)


def _checks(text: str) -> list[str]:
    """``camera,clock`` -> the checks named, each one we know (else a message naming it)."""
    import difflib

    from firmware_host.doctor import CHECKS

    names = [n.strip() for n in text.split(",") if n.strip()]
    for name in names:
        if name not in CHECKS:
            close = difflib.get_close_matches(name, CHECKS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise argparse.ArgumentTypeError(f"no check {name!r}{hint} (checks: {', '.join(CHECKS)})")
    return names


def _run(args: argparse.Namespace) -> int:
    import os

    from firmware_host.config import ConfigError, load_config
    from firmware_host.doctor import doctor_exit, run_checks

    try:
        cfg = load_config(args.config, env=os.environ, check_devices=False)
    except ConfigError as exc:
        print(f"FAIL  config  {exc} -- fix: cardtable config init, or edit it and run cardtable check-config",
              flush=True)
        return 2
    print(f"OK    config  {cfg.source}", flush=True)
    checks = run_checks(cfg, args.skip)
    for check in checks:
        print(check.line(), flush=True)
    rc = doctor_exit(checks)
    if rc:
        print(f"{sum(not c.ok for c in checks)} check(s) failed", file=sys.stderr)
    return rc
