"""A stand-in for MicroPython's ``neopixel`` module: remembers what was last written."""

INSTANCES = []


class NeoPixel:
    def __init__(self, pin, n):
        self.pixels = [(0, 0, 0)] * n
        self.shown = list(self.pixels)
        INSTANCES.append(self)

    def __setitem__(self, i, rgb):
        self.pixels[i] = rgb

    def __getitem__(self, i):
        return self.pixels[i]

    def write(self):
        self.shown = list(self.pixels)
