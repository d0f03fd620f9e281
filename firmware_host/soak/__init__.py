"""``cardtable soak``: an evening at a real table, measured.

The real ``cardtable run`` process plays rubbers of bridge and euchre against the virtual shoe (two packs
in turn), while a driver plays the people (a real auction and legal play entered as the director would, some of
it through the club dashboard's commands) and makes mistakes the laws remedy, and the world fails around the
table (kill -9, journal stalls and locks past the busy timeout, a full disk, the shoe unplugged, camera
and broker outages, malformed director lines). Afterwards the journal alone is checked against what
physically happened.

* ``schedule``: what will go wrong and when (seeded), and the rulings the laws give for each mistake
  (``EXPECTED``, one ``Want`` per ruling, with the facts its fields must name).
* ``record``: what the driver knows happened (``Record``), and its JSON form.
* ``player``: legal random play of one euchre hand, as law events.
* ``bridge``: a bridge hand bid and played by the simulated players (``firmware_host.players``) through the
  table, with the auction's and play's irregularities made on purpose and settled, and the soak's own
  account of it (the contract, trick winners, BP-64's transfer, honours, the result).
* ``driver``: the run process, the shoe, the people, the end of the evening; ``world``: the faults and
  the restarts.
* ``sheet``: the soak's own account from the record alone: whose deal, the facts of each mistake, the
  score sheet, the lamp rules.
* ``checker``: the invariants, from the record and the journal (no I/O).
* ``report``: the table of figures.
"""
