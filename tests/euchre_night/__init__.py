"""Tests of the euchre night: the pure night, the session, the demo through real tables, the outsider scorer."""
