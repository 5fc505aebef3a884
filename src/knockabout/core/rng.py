"""A small, seedable, cheaply copied random number generator.

Every random choice a game makes comes from the generator stored inside its state,
never from the :mod:`random` module's global state. The generator is SplitMix64:
its whole state is one 64-bit integer, so cloning a game state for search costs a
single integer copy instead of the ~100 µs a :class:`random.Random` copy costs.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def mix_seed(*parts: int | str) -> int:
    """Derive a 64-bit seed from several parts (a base seed, a game index, a label)."""
    h = 0x243F6A8885A308D3
    for part in parts:
        if isinstance(part, str):
            for ch in part.encode():
                h = ((h ^ ch) * 0x100000001B3) & _MASK
        else:
            h = ((h ^ (part & _MASK)) * 0x100000001B3) & _MASK
            h ^= h >> 29
        h = _splitmix_out((h + _GOLDEN) & _MASK)
    return h


def _splitmix_out(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """SplitMix64 generator. ``Rng(seed)``; ``state`` is a plain int and may be saved."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def copy(self) -> Rng:
        return Rng(self.state)  # state is already masked

    def next64(self) -> int:
        s = (self.state + _GOLDEN) & _MASK
        self.state = s
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (``n`` >= 1)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        s = (self.state + _GOLDEN) & _MASK
        self.state = s
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK
        return ((s ^ (s >> 31)) * n) >> 64

    def randint(self, lo: int, hi: int) -> int:
        """A uniform integer in ``[lo, hi]``."""
        return lo + self.below(hi - lo + 1)

    def random(self) -> float:
        """A uniform float in ``[0, 1)``."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates)."""
        # below() inlined: shuffles run at every deal and reshuffle
        s = self.state
        for i in range(len(seq) - 1, 0, -1):
            s = (s + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            seq[i], seq[j] = seq[j], seq[i]
        self.state = s

    def spawn(self, label: int | str = 0) -> Rng:
        """An independent generator derived from this one (advances this one once)."""
        return Rng(mix_seed(self.next64(), label))
