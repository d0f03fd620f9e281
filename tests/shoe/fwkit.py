"""Running the reference firmware in-process for tests: a fake millisecond clock, a memory port."""

from __future__ import annotations

from typing import Any

from firmware_host.shoe import codec
from firmware_host.shoe.firmware import load_firmware
from firmware_host.shoe.games import deal_plan
from firmware_host.shoe.simhw import SimHardware, shuffled_pack

shoe_mod, wire = load_firmware()


class Clock:
    def __init__(self) -> None:
        self.ms = 0

    def __call__(self) -> int:
        return self.ms


class MemPort:
    """The firmware's port: what the host sends waits in ``inbox``; what the shoe writes lands in ``out``."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.out = bytearray()

    def read(self) -> bytes | None:
        data, self.inbox = bytes(self.inbox), bytearray()
        return data or None

    def write(self, data: bytes) -> None:
        self.out += data

    def take(self) -> bytes:
        data, self.out = bytes(self.out), bytearray()
        return data


class Bench:
    """Firmware + simulated hardware + fake clock; ``run(ms)`` steps the physics like the virtual shoe."""

    def __init__(self, game: str = "contract-bridge", seed: int = 1, **kw: Any) -> None:
        import random

        self.clock = Clock()
        self.hw = SimHardware(self.clock, pass_ms=2, gap_ms=2, jam_ms=kw.pop("hw_jam_ms", 400))
        self.port = MemPort()
        self.shoe = shoe_mod.Shoe(self.hw, self.port, 0xB007, **kw)
        self.rng = random.Random(seed)
        self.plan = deal_plan(game)
        self.decoder = codec.Decoder()

    def load(self, pack: str = "A1") -> None:
        self.hw.load(shuffled_pack(self.plan.pack, pack, self.rng))

    def host(self, *cmds: Any) -> None:
        for cmd in cmds:
            self.port.inbox += codec.encode(cmd)

    def run(self, ms: int) -> list[Any]:
        """Advance ``ms`` milliseconds one at a time; returns the decoded messages the shoe wrote."""
        for _ in range(ms):
            self.hw.step(self.clock.ms, self.shoe.dealing and not self.shoe.paused)
            self.shoe.poll()
            self.clock.ms += 1
        return self.decoder.feed(self.port.take())
