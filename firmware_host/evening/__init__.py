"""A duplicate evening without a club (``cardtable duplicate demo``): the session on a local broker and a
real duplicate table for each table of the movement (built as ``cardtable run`` builds one), with
simulated people at each (``people``), the boards in the room and the ones misboarded (``boards``), and
where the tables' engines found them (``fouls``)."""
