"""A simultaneous pairs across clubs, as pure models: each club's numbered results taken exactly once
(``ledger``), the field scored across every club (``field``), its rankings kept pair by pair (``ranking``),
each club's own ranking on the boards it has finished (``own``), and what a club may see of the field,
when (``release``). The services that move the messages are in ``firmware_host/federation/``.
"""
