"""Duplicate bridge as values: boards (number, dealer, vulnerability), hand records, movements.

Pure like the rest of ``laws/``: standard library only, no I/O, no clock, no randomness. Reading and
writing hand-record files and running a session live in ``firmware_host/duplicate/``; scoring a
session lives in ``laws/scoring/``.
"""
