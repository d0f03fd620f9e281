"""Sessions as pure models: what a kind of session (a duplicate pairs session; later a euchre night,
teams, Swiss) is, as data and folds, with no I/O, clock or threads. The service that journals and answers
is ``firmware_host/session/``; the seam between them is ``kind.py``."""
