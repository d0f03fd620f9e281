"""The table's side of the club link, on each table's Raspberry Pi: the publisher (its delivery core
and the paho shell around it), the outbox in the journal's file, the secrecy of an open deal's cards, the
checks a command from the dashboard passes (``checks.py``), a duplicate table's results out and
seating in (``duplicate_results.py``), and a euchre table's hands out and seats in at a euchre night
(``euchre_night.py``). Nothing here runs on the club's machine."""
