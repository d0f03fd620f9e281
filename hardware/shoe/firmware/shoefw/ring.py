"""The ring buffer of numbered messages the host has not acknowledged yet (PROTOCOL.md section 5)."""


class Ring:
    """A fixed number of slots holding ``(seq, frame bytes)``, oldest first, numbers consecutive.

    When every slot is full the oldest message is overwritten and counted in ``overwritten``: the host
    learns of the loss from the ``oldest_held`` field of the HELLO the shoe sends.
    """

    def __init__(self, size):
        self.size = size
        self.slots = [None] * size
        self.head = 0        # index of the oldest entry
        self.count = 0
        self.overwritten = 0

    def push(self, seq, frame):
        """Keep a message; True when this overwrote the oldest unacknowledged one."""
        lost = False
        if self.count == self.size:
            self.head = (self.head + 1) % self.size
            self.count -= 1
            self.overwritten += 1
            lost = True
        self.slots[(self.head + self.count) % self.size] = (seq, frame)
        self.count += 1
        return lost

    def oldest_seq(self):
        """Sequence number of the oldest message held, 0 when empty."""
        if self.count == 0:
            return 0
        return self.slots[self.head][0]

    def get(self, seq):
        """The frame numbered ``seq``, or None when it is not held."""
        oldest = self.oldest_seq()
        if self.count == 0 or seq < oldest or seq >= oldest + self.count:
            return None
        return self.slots[(self.head + seq - oldest) % self.size][1]

    def ack(self, upto):
        """Forget every message numbered ``upto`` or lower."""
        while self.count and self.slots[self.head][0] <= upto:
            self.slots[self.head] = None
            self.head = (self.head + 1) % self.size
            self.count -= 1

    def since(self, first):
        """The frames numbered ``first`` or higher, oldest first."""
        out = []
        for i in range(self.count):
            seq, frame = self.slots[(self.head + i) % self.size]
            if seq >= first:
                out.append(frame)
        return out

    def free(self):
        return self.size - self.count
