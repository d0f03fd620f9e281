"""The dealing shoe: protocol codec, serial link, plain-scanner driver and the virtual shoe.

The protocol is ``hardware/shoe/PROTOCOL.md``. Import the submodules directly to keep imports light::

    from firmware_host.shoe.link import ShoeLink            # a shoe speaking the protocol
    from firmware_host.shoe.scanner import ScannerLink      # a plain barcode scanner, same interface
    from firmware_host.shoe.virtual import VirtualShoe      # the firmware on a pty, for demo and tests
    from firmware_host.shoe.games import start_deal         # START_DEAL for a game
    from firmware_host.shoe.laws_map import to_law_event    # shoe message -> laws.events.Event | None
    from firmware_host.shoe import messages as m            # CardOut, DealBegan, LinkStatus, ...
    from firmware_host.shoe.boards import deal_board, start_board   # protocol 1.2: a board from a record

    shoe = VirtualShoe("euchre", seed=3, inject=["face_up@7"])
    link = ShoeLink(shoe.open(), on_event)                  # on_event(ev) runs in the reader thread
    link.start()
    link.send(start_deal("euchre", Seat.N, pack="A"))
    ...
    link.stop(); shoe.close()

Modules: ``codec`` (bytes <-> messages, sans-I/O), ``session`` (handshake, exactly-once delivery,
resends, silence; sans-I/O), ``boards`` (dealing a board from a hand record and checking every card of
it; sans-I/O), ``port`` (the reader thread and reconnects), ``link``, ``scanner``, ``virtual`` + ``simhw``
(simulated hardware, pockets and reject exit included), ``firmware`` (loads the reference firmware); its
benchmarks are ``firmware_host.bench.shoe_link``, ``firmware_host.bench.backlog`` and
``firmware_host.bench.board``. Imports ``laws``, ``vision.codes``
(the plain scanner reads card codes) and ``resources``; never the table, the club or the commands.
"""
