"""``cardtable soak``: an evening at a real table, measured.

The real ``cardtable run`` process plays rubbers of bridge and euchre against the virtual shoe (two packs
in turn), while a driver plays the people (legal random play entered as the director would) and makes
mistakes the laws remedy, and the world fails around the table (kill -9, journal stalls, a full disk, the
shoe unplugged). Afterwards the journal alone is checked against what physically happened.

* ``schedule``: what will go wrong and when (seeded), and the remedy the laws give for each mistake.
* ``player``: legal random play of one hand, as law events.
* ``driver``: the run process, the shoe, the director's input, the faults.
* ``checker``: the invariants, from the driver's record and the journal (no I/O).
* ``report``: the table of figures.
"""
