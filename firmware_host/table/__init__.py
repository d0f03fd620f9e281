"""The table's heart: the controller and the promises it keeps (``ordering``), what goes in
(``inputs``, ``adapters`` from the devices, ``director_input``) and out (``outputs``, ``observer``),
one fact one ruling (``facts``), the players' choices (``choices``) and the lamp policy (``lamps``).

May import ``laws``, ``vision``, the shoe, the records, the devices and the configuration; never the
club, the commands or the composition root (``firmware_host.live``).
"""
