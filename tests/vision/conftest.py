"""Shared helpers for the vision tests: small rendered scenes, decoded for real."""

from __future__ import annotations

import numpy as np
import pytest

from laws.cards import Card
from vision.render import Degrade, Scene, render

SMALL = (960, 540)
MILD = Degrade(blur=0.6, noise=3.0, contrast=0.85, jpeg=85)


def card(code: str) -> Card:
    return Card.parse(code)


def spread_scene(codes: list[str], pack: str = "B7", variant: str = "micro") -> Scene:
    """Cards on a grid across the table, at assorted angles."""
    scene = Scene()
    for i, code in enumerate(codes):
        r, c = divmod(i, 5)
        scene.place(card(code), pack, at=(85 + c * 158, 80 + r * 148), angle=(i * 47) % 360 - 180,
                    variant=variant)
    return scene


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)


def frame_of(scene: Scene, size: tuple[int, int] = SMALL, degrade: Degrade = MILD, seed: int = 0) -> np.ndarray:
    return render(scene, size, degrade, np.random.default_rng(seed))
