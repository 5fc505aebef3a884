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


def one_per_seat(seats: int, what: str, example: str) -> BeforeValidator:
    """A list option with one entry per seat; a wrong count is explained in words."""

    def check(value: object) -> object:
        value = split_commas(value)
        if isinstance(value, list | tuple) and len(value) != seats:
            raise ValueError(f"give one {what} per seat ({seats}, not {len(value)}), e.g. {example}")
        return value

    return BeforeValidator(check)
