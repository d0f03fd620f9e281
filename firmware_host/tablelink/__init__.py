"""The table's side of the club link, on each table's Raspberry Pi: the publisher (its delivery core
and the paho shell around it), the outbox in the journal's file, the secrecy of an open deal's cards, the
checks a command from the dashboard passes (``checks.py``), and a duplicate table's results out and
seating in (``duplicate_results.py``). Nothing here runs on the club's machine."""
