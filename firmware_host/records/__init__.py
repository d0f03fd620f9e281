"""The table's records: the hash-chained SQLite journal (``journal``, its rules in ``chain``), event
logs read and ruled on again (``replay``), and what is exported for others (``pbn``).

Imports only ``laws`` and the standard library (and SQLite): every other room may read records, the
records read nobody.
"""
