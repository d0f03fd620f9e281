"""The cardtable law engine: table events in, rulings out.

Standard library only: no I/O, no clock, no threads. See ``docs/events.md`` for the event format.
"""
