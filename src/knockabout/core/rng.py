"""A small, seedable, cheaply copied random number generator with two streams.

Every random choice a game makes comes from the generator stored inside its state,
never from the :mod:`random` module's global state. The seed picks the stream:

* **Fast** (a seed below ``2**64``): SplitMix64. Its whole state is one 64-bit integer,
  so cloning a game state for search costs a single integer copy instead of copying a
  :class:`random.Random` (thousands of words of state). Simulations, benchmarks, tests, golden
  records, bots' searches and every seed a person types use it. It is *not* secret:
  64 bits of state (31 in the old live tables) can be brute-forced from what a seat sees.
* **Secret** (a seed of :data:`SECRET_SEED_BITS` bits, ``2**64 <= seed < 2**256``, as
  :func:`fresh_seed` draws for every live table): keyed BLAKE2b in counter mode. Draw
  ``i`` is ``BLAKE2b(key=seed, person="knockabout-rng", data=i)``, a pseudo-random
  function of a 255-bit secret key, so what a seat observes (its cards, the order of
  its draws) tells it nothing about any other draw unless it can break BLAKE2b or
  guess the key (2**255 candidates). Bounded draws use 128 bits of output, so their
  bias is below ``2**-120``.

Both streams keep their whole state in the one integer :attr:`Rng.state`: a game copies
and saves its generator the same way whichever stream it runs (``Rng(rng.state)``
restores either). A secret state is ``_SECRET_TAG | key << 64 | counter``. Replay is
exact for both: the same seed gives the same draws.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import MutableSequence, Sequence
from typing import Any, Final, TypeVar

from mypy_extensions import i64

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15

SECRET_SEED_BITS: Final = 256
"""Seeds from ``2**64`` up to (not including) ``2**256`` select the secret stream."""

_KEY_MASK: Final = (1 << SECRET_SEED_BITS) - 1
_SECRET_TAG: Final = 1 << (SECRET_SEED_BITS + 64)  # marks a saved secret state (key and counter)
_PERSON: Final = b"knockabout-rng"


def fresh_seed() -> int:
    """A new secret seed (255 bits of :mod:`secrets` entropy) selecting the secret stream:
    what every live table deals from."""
    return secrets.randbits(SECRET_SEED_BITS - 1) | (1 << (SECRET_SEED_BITS - 1))


def is_secret_seed(seed: int) -> bool:
    """Whether ``seed`` selects the secret (cryptographic) stream."""
    return _MASK < seed < _SECRET_TAG << 1


def derive_seed(seed: int, label: str) -> int:
    """A seed for another stream derived from ``seed`` and a label: a secret seed gives a
    secret seed (keyed BLAKE2b), any other seed ``mix_seed(seed, label)`` (fast)."""
    if not is_secret_seed(seed):
        return mix_seed(seed, label)
    key = (seed >> 64) & _KEY_MASK if seed >= _SECRET_TAG else seed
    digest = hashlib.blake2b(b"derive:" + label.encode(), key=key.to_bytes(32, "little"),
                             person=_PERSON, digest_size=32).digest()
    return int.from_bytes(digest, "little") | (1 << (SECRET_SEED_BITS - 1))


def _secret_state(seed: int) -> int:
    if seed < _SECRET_TAG:
        if seed >> SECRET_SEED_BITS:
            raise ValueError(f"a seed has at most {SECRET_SEED_BITS} bits, got one of {seed.bit_length()}")
        return _SECRET_TAG | seed << 64
    if seed >= _SECRET_TAG << 1:
        raise ValueError("not a generator state: too large")
    return seed


def _draw(state: int, size: int) -> tuple[int, int]:
    """One block of the secret stream: (the new state, ``size`` bytes of output as an int)."""
    counter = state & _MASK
    key = ((state >> 64) & _KEY_MASK).to_bytes(32, "little")
    out = hashlib.blake2b(counter.to_bytes(8, "little"), key=key, person=_PERSON, digest_size=size).digest()
    nxt = (state & ~_MASK) | ((counter + 1) & _MASK)
    return nxt, int.from_bytes(out, "little")


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


# The fast stream's shuffle and draws on native 64-bit integers, for the compiled build. mypyc
# compiles ``i64`` arithmetic to C's, which wraps (it builds with -fwrapv), so SplitMix64
# runs on machine words instead of arbitrary-precision ints: about 4x faster than the loop
# in Rng.shuffle compiled. Every value it reads is masked to low bits, on which wrapping
# and unbounded arithmetic agree, so it gives the same draws in plain Python too, where
# it is half as fast as that loop and so not used. A known-answer check at import (below)
# makes sure the compiled code really does wrap before the compiled build uses it.
def _word(value: int) -> i64:
    """An unsigned 64-bit value as the signed machine word of the same bits."""
    return value - (1 << 64) if value >> 63 else value


# The constants as signed 64-bit words (same bits), made by a call: mypyc folds a constant
# expression to a literal, and a literal beyond 62 bits stays a boxed int converted at every
# use (three conversions in each step of the shuffle loop); a call's result it keeps as a
# machine word.
_G64: Final[i64] = _word(_GOLDEN)
_C64A: Final[i64] = _word(0xBF58476D1CE4E5B9)
_C64B: Final[i64] = _word(0x94D049BB133111EB)
_LOW: Final[i64] = (1 << 32) - 1
_WORD_BOUND: Final = 1 << 31  # bounds below this are drawn on words


def _mixed_words(state: int) -> int:
    """:meth:`Rng.next64`'s output from the already advanced state ``state``."""
    s: i64 = state - (1 << 64) if state >> 63 else state
    z: i64 = (s ^ ((s >> 30) & ((1 << 34) - 1))) * _C64A
    z = (z ^ ((z >> 27) & ((1 << 37) - 1))) * _C64B
    z = z ^ ((z >> 31) & ((1 << 33) - 1))
    return int(z) & _MASK


def _bounded_words(state: int, n: i64) -> i64:
    """:meth:`Rng.below`'s draw from the already advanced state ``state``, for ``n`` below
    ``2**31`` (the high word of ``z * n`` from 32-bit halves stays inside 63 bits)."""
    s: i64 = state - (1 << 64) if state >> 63 else state
    z: i64 = (s ^ ((s >> 30) & ((1 << 34) - 1))) * _C64A
    z = (z ^ ((z >> 27) & ((1 << 37) - 1))) * _C64B
    z = z ^ ((z >> 31) & ((1 << 33) - 1))
    return ((((z >> 32) & _LOW) * n) + (((z & _LOW) * n) >> 32)) >> 32


def _shuffle_words(seq: list[Any], state: int) -> int:
    """Fisher-Yates over ``seq`` from SplitMix64 state ``state``; returns the new state.
    A logical right shift is an arithmetic one masked; the bound's high word is built from
    32-bit halves, as ``(z * n) >> 64`` needs 128 bits."""
    s: i64 = state - (1 << 64) if state >> 63 else state
    i: i64 = len(seq) - 1
    while i > 0:
        s = s + _G64
        z: i64 = (s ^ ((s >> 30) & ((1 << 34) - 1))) * _C64A
        z = (z ^ ((z >> 27) & ((1 << 37) - 1))) * _C64B
        z = z ^ ((z >> 31) & ((1 << 33) - 1))
        n: i64 = i + 1
        j: i64 = ((((z >> 32) & _LOW) * n) + (((z & _LOW) * n) >> 32)) >> 32
        seq[i], seq[j] = seq[j], seq[i]
        i -= 1
    return int(s) & _MASK


class Rng:
    """``Rng(seed)``: SplitMix64 for a seed below ``2**64`` (negative ones wrap), the secret
    stream for a larger one (see the module doc). ``state`` is a plain int and may be saved;
    ``Rng(state)`` continues where it was."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = _secret_state(seed) if seed > _MASK else seed & _MASK

    @property
    def secret(self) -> bool:
        """Whether this generator runs the secret (cryptographic) stream."""
        return self.state > _MASK

    def copy(self) -> Rng:
        return Rng(self.state)  # state is already masked

    def next64(self) -> int:
        s = self.state
        if s > _MASK:
            self.state, out = _draw(s, 8)
            return out
        s = (s + _GOLDEN) & _MASK
        self.state = s
        if _WORDS:
            return _mixed_words(s)
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (``n`` >= 1)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        s = self.state
        if s > _MASK:
            self.state, out = _draw(s, 16)
            return (out * n) >> 128
        s = (s + _GOLDEN) & _MASK
        self.state = s
        if _WORDS and n < _WORD_BOUND:
            return _bounded_words(s, n)
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
        if s > _MASK:
            for i in range(len(seq) - 1, 0, -1):
                s, out = _draw(s, 16)
                j = (out * (i + 1)) >> 128
                seq[i], seq[j] = seq[j], seq[i]
            self.state = s
            return
        if _WORDS and type(seq) is list:
            self.state = _shuffle_words(seq, s)
            return
        for i in range(len(seq) - 1, 0, -1):
            s = (s + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            seq[i], seq[j] = seq[j], seq[i]
        self.state = s

    def spawn(self, label: int | str = 0) -> Rng:
        """An independent generator derived from this one (advances this one once); a
        secret generator spawns a secret one."""
        if self.state > _MASK:
            self.state, out = _draw(self.state, 32)
            return Rng(derive_seed(out | (1 << (SECRET_SEED_BITS - 1)), str(label)))
        return Rng(mix_seed(self.next64(), label))


def _words_agree() -> bool:
    """Whether the word functions give exactly the draws of the arbitrary-precision code
    in :class:`Rng` (shuffles with their next state, ``below`` and ``next64``); False too
    if one of them raises (a compiler that traps overflow instead of wrapping)."""
    global _WORDS
    _WORDS = False
    try:
        for seed in (0, 1, 2**63 - 1, 2**63, _MASK, 0x243F6A8885A308D3):
            a, b = list(range(70)), list(range(70))
            r = Rng(seed)
            r.shuffle(a)
            if _shuffle_words(b, seed) != r.state or a != b:
                return False
            advanced = (seed + _GOLDEN) & _MASK
            if _mixed_words(advanced) != Rng(seed).next64():
                return False
            if any(_bounded_words(advanced, n) != Rng(seed).below(n) for n in (1, 2, 3, 1000, _WORD_BOUND - 1)):
                return False
    except (OverflowError, ValueError):
        return False
    return True


COMPILED: Final = not __file__.endswith(".py")
"""Whether this module runs compiled (mypyc sets ``__file__`` to the extension's path)."""
_WORDS = False
_WORDS = COMPILED and _words_agree()
"""Whether :class:`Rng`'s fast stream shuffles and draws on native words: compiled only."""
