"""Field types shared by the games' table options."""

from __future__ import annotations

from pydantic import BeforeValidator


def split_commas(value: object) -> object:
    """Text ``"a,b"`` becomes ``("a", "b")``, so a list option can be typed as
    ``key=a,b`` on a command line; any other value is left to the field's own check."""
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(","))
    return value


COMMA_LIST = BeforeValidator(split_commas)
