"""``cardtable shoe-sim``: the virtual shoe on a pseudo-terminal; ``cardtable shoe-listen``: a host
console for a shoe or a plain scanner (prints every event, can ask for deals)."""

from __future__ import annotations

import argparse
import sys

from firmware_host.commands.guard import whole


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("shoe-sim", help="run the virtual dealing shoe on a pseudo-terminal")
    p.add_argument("--game", default="contract-bridge", help="contract-bridge or euchre")
    p.add_argument("--seed", type=int, default=0, help="shuffles and faults follow this seed")
    p.add_argument("--inject", action="append", default=[], metavar="FAULT[@CARD]",
                   help="fault in the first deal: face_up, duplicate, surplus, missing, unreadable, foreign, stray, "
                        "garbage, drop, jam; optionally @N for card N (repeatable)")
    p.add_argument("--pace", type=whole(0, 60000), default=250, metavar="MS", help="milliseconds between cards")
    p.add_argument("--link", metavar="DIR",
                   help="an existing folder for the stable symlink, DIR/shoe (replaced if there; removed on "
                        "stop); default: a temporary folder. The link's path is printed on stdout")
    p.set_defaults(func=_sim)

    q = sub.add_parser("shoe-listen", help="talk to a shoe (or a plain scanner) and print its events")
    q.add_argument("url", help="serial port or pyserial URL: /dev/ttyUSB0, a pty path, socket://host:port")
    q.add_argument("--scanner", action="store_true", help="the device is a plain barcode scanner")
    q.add_argument("--game", default="contract-bridge", help="game whose deals to ask for")
    q.add_argument("--deals", type=whole(0, 100000), default=0, help="ask for this many deals, then stop (0: just listen)")
    q.add_argument("--dealer", default="N", choices="NESW", help="dealer of the first deal")
    q.add_argument("--baud", type=whole(50, 4000000), default=None, help="line speed (default 115200, scanner 9600)")
    q.set_defaults(func=_listen)


def _sim(args: argparse.Namespace) -> int:
    import os

    from firmware_host.commands.stopping import stop_event, wait
    from firmware_host.shoe.virtual import VirtualShoe

    if args.link is not None and not os.path.isdir(args.link):
        print(f"cardtable shoe-sim: --link {args.link}: no such folder (make it first, or leave --link out "
              "for a temporary one)", file=sys.stderr)
        return 2
    try:
        shoe = VirtualShoe(args.game, args.seed, args.inject, gap_ms=max(1, args.pace - 20), pass_ms=20,
                           directory=args.link)
    except ValueError as exc:
        print(f"cardtable shoe-sim: {exc}", file=sys.stderr)
        return 2
    stop = stop_event()  # SIGTERM as Ctrl-C: the link and the pty are removed either way
    try:
        path = shoe.open()
    except OSError as exc:
        print(f"cardtable shoe-sim: cannot make the port's link in {args.link}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    print(path, flush=True)
    print(f"virtual shoe ({args.game}, seed {args.seed}) on {shoe.tty}; waiting for a host, e.g. "
          f"`cardtable shoe-listen {path} --game {args.game} --deals 1`. Ctrl-C (or SIGTERM) stops.",
          file=sys.stderr)
    try:
        wait(stop)
    finally:
        shoe.close()
    return 0


def _listen(args: argparse.Namespace) -> int:
    import queue

    from firmware_host.shoe import messages as m
    from firmware_host.shoe.games import deal_plan, start_deal
    from firmware_host.shoe.link import ShoeLink
    from firmware_host.shoe.scanner import ScannerLink
    from laws.cards import Seat

    try:
        deal_plan(args.game)
    except ValueError as exc:
        print(f"cardtable shoe-listen: {exc}", file=sys.stderr)
        return 2
    from firmware_host.commands.stopping import exit_on_sigterm

    exit_on_sigterm()  # the link is stopped (finally) on SIGTERM as on Ctrl-C
    events: queue.Queue[object] = queue.Queue()
    if args.scanner:
        link: ShoeLink | ScannerLink = ScannerLink(args.url, events.put, baudrate=args.baud or 9600)
    else:
        link = ShoeLink(args.url, events.put, baudrate=args.baud or 115200)
    link.start()
    dealer = Seat(args.dealer)
    asked = done = 0
    ours: set[int] = set()          # ids of the START_DEALs this run sent and the shoe has not refused
    seen_online = waiting = False

    def ask() -> None:
        nonlocal asked
        ours.add(link.send(start_deal(args.game, dealer, variant=asked)).cmd)
        asked += 1

    try:
        while True:
            ev = events.get()
            if isinstance(ev, m.LinkStatus) and ev.refused:
                # The link keeps offering HOST_HELLO (PROTOCOL.md section 9): a reflashed shoe is taken.
                if not waiting:
                    print(f"cardtable shoe-listen: {ev.reason}; waiting for a shoe speaking protocol "
                          f"{m.PROTO_MAJOR}.x (reflash it; Ctrl-C stops)", file=sys.stderr, flush=True)
                    waiting = True
                continue
            if isinstance(ev, m.LinkStatus) and not ev.online and not seen_online and not waiting:
                print(f"cardtable shoe-listen: {ev.reason}", file=sys.stderr)
                return 2
            print(_show(ev), flush=True)
            if isinstance(ev, m.LinkStatus):
                seen_online = seen_online or ev.online
                if ev.online and asked == 0 < args.deals:
                    # at once: a pack already in the well (its PACK_LOADED acknowledged by an earlier run of a
                    # host) sends none; with no pack the shoe says bad state, and the next PACK_LOADED asks again
                    ask()
            elif isinstance(ev, m.Reply) and ev.cmd in ours and ev.status != m.Status.OK:
                ours.discard(ev.cmd)        # refused (busy: a deal of an earlier run): ask at the next pack
                asked -= 1
            elif isinstance(ev, m.PackLoaded) and asked == done < args.deals:
                ask()
            elif isinstance(ev, m.DealFinished) and ev.answers in ours:
                # Only the end of a deal this run asked for counts: a replayed deal of an earlier run
                # of the host (PROTOCOL.md section 6.3) is shown but is not ours.
                done += 1
                dealer = dealer.left
                if done >= args.deals > 0:
                    print(_counters(link.counters()), file=sys.stderr)
                    return 0
                if asked == done:
                    # the next deal at once: a host must not wait for PACK_LOADED between deals (PROTOCOL.md
                    # section 7: euchre's kitty stays in the well); with no pack the shoe says bad state and
                    # the next PACK_LOADED asks again
                    ask()
    finally:
        link.stop()


def _show(ev: object) -> str:
    from firmware_host.shoe import messages as m

    if isinstance(ev, m.CardOut):
        where = "table (turn-up)" if ev.turn_up else (ev.seat or "no deal")
        if ev.board:
            where = f"{where}'s pocket (board {ev.board})"
        card = ev.card.code if ev.card else "unreadable"
        return f"#{ev.seq:<4} card {ev.index:>2} {card:<10} -> {where}  {str(getattr(ev.orientation, 'name', ev.orientation)).lower()}  pack {ev.pack or '?'}"
    if isinstance(ev, m.LinkStatus):
        return f"link {'online' if ev.online else 'OFFLINE'}: {ev.reason}"
    if isinstance(ev, m.ShoeRestarted):
        return f"shoe restarted (boot {ev.old_boot:08x} -> {ev.boot_id:08x}): no deal is going on"
    if isinstance(ev, m.BoardBegan):
        return f"#{ev.seq:<4} board {ev.board} started ({len(ev.placed)} placed, pack {ev.pack or 'any'})"
    if isinstance(ev, m.CardRejected):
        why = {1: "unreadable", 2: "another pack", 3: "already placed"}.get(int(ev.reason), f"reason {int(ev.reason)}")
        return f"#{ev.seq:<4} rejected {ev.card.code if ev.card else 'unreadable card'} ({why}), pack {ev.pack or '?'}"
    if isinstance(ev, m.BoardFinished):
        from firmware_host.shoe.codec import PACK

        if ev.reason == m.FinishReason.COMPLETE and not ev.missing:
            return f"#{ev.seq:<4} board {ev.board} whole, {ev.rejected} rejected"
        missing = " ".join(c.code for c in PACK if c in ev.missing)
        return f"#{ev.seq:<4} board {ev.board} NOT whole (reason {int(ev.reason)}): missing {missing}"
    return f"#{getattr(ev, 'seq', 0):<4} {_words(ev)}"


def _name(value: object) -> str:
    """An enum member as a word ("bad state"); a number no name is known for, as itself."""
    name = getattr(value, "name", None)
    return name.lower().replace("_", " ") if isinstance(name, str) else f"code {value}"


def _words(ev: object) -> str:
    """The rest of the shoe's messages in words, for the installer watching `shoe-listen`: the line
    PROTOCOL.md's names give, never a Python repr (``DealFinished(seq=58, reason=<FinishReason...>)``)."""
    from firmware_host.shoe import messages as m

    if isinstance(ev, m.PackLoaded):
        return f"pack loaded ({f'pack {ev.pack}' if ev.pack else 'no pack mark'})"
    if isinstance(ev, m.DealBegan):
        p = ev.pattern
        packets = f"{len(p)} packets of {p[0]}" if p and len(set(p)) == 1 else "packets " + ",".join(map(str, p))
        turn_up = f"turn-up after card {ev.turn_up}" if ev.turn_up else "no turn-up"
        return f"deal began: dealer {ev.dealer.value}, {packets}, {turn_up}, {f'pack {ev.pack}' if ev.pack else 'any pack'}"
    if isinstance(ev, m.DealFinished):
        left = ", a card left in the shoe" if ev.left_in_shoe else ""
        return f"deal finished: {_name(ev.reason)}, {ev.dealt} cards dealt{left}"
    if isinstance(ev, m.Reply):
        detail = f": {ev.detail}" if ev.detail else ""
        return f"reply to command {ev.cmd}: {_name(ev.status)}{detail}{' (stale)' if ev.stale else ''}"
    if isinstance(ev, m.Jam):
        return f"jam at card {ev.index}{' cleared' if ev.cleared else ''}"
    if isinstance(ev, m.Empty):
        return f"shoe empty after {ev.dealt} cards"
    if isinstance(ev, m.ButtonPressed):
        return f"{_name(ev.kind)} button pressed at {ev.seat.value}"
    if isinstance(ev, m.ShoeError):
        return f"shoe error, {_name(ev.code)}{f': {ev.detail}' if ev.detail else ''}"
    if isinstance(ev, m.Heartbeat):
        flags = "".join((", paused" if ev.paused else "", ", a pack in" if ev.loaded else ""))
        return f"heartbeat: {_name(ev.state)}{flags}, {ev.ring_used} held for resend"
    if isinstance(ev, m.Hello):
        return f"hello: shoe {ev.shoe_id} firmware {ev.firmware} protocol {ev.major}.{ev.minor}"
    if isinstance(ev, m.Pong):
        return f"pong {ev.token}"
    if isinstance(ev, m.Skipped):
        return f"a message of type {ev.mtype} skipped: {ev.reason}"
    return type(ev).__name__


def _counters(counters: dict[str, int]) -> str:
    """The link's counters as one line in words (``resend_requests`` 1: "resend requests 1")."""
    return "counters: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in counters.items())
