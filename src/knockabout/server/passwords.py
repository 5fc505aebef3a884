"""Passwords: Argon2id hashes (argon2-cffi's defaults, RFC 9106's second recommended
profile), worked out on threads off the event loop, a few at a time, so a burst of
log-ins never holds up the tables.

A log-in for a name that has no account still verifies the password, against a hash made
at startup with the same parameters, so the answer takes as long either way and says
nothing about whether the name exists.
"""

from __future__ import annotations

import asyncio
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

MIN_LENGTH = 8
MAX_LENGTH = 256  # (a longer one is refused before any hashing: a hash costs the same CPU whatever)


class Passwords:
    """Hashing and checking passwords for one server."""

    def __init__(self, hasher: PasswordHasher | None = None, at_once: int = 2) -> None:
        self.hasher = hasher or PasswordHasher()
        self._slots = asyncio.Semaphore(at_once)  # each hash takes 64 MiB and a core for ~50 ms
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))  # what an unknown name is checked against

    async def hash(self, password: str) -> str:
        async with self._slots:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` matches ``password_hash``; None (no such account) checks
        against the dummy hash, taking as long, and is always False."""
        async with self._slots:
            return await asyncio.to_thread(self._verify, password_hash, password)

    def _verify(self, password_hash: str | None, password: str) -> bool:
        try:
            ok = self.hasher.verify(password_hash or self._dummy, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
        return ok and password_hash is not None

    def needs_rehash(self, password_hash: str) -> bool:
        """Whether a stored hash was made with other parameters than today's (then it is
        made again at the next log-in)."""
        return self.hasher.check_needs_rehash(password_hash)
