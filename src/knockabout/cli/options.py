"""Parsing ``--option key=value`` table settings shared by several commands."""

from __future__ import annotations

import json
from typing import Any

from knockabout.core.errors import ConfigError


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``["end_turn=strict_end_turn", "max_turns=300"]`` -> a config mapping.

    Values are read as JSON when they parse (numbers, true/false), else as text.
    """
    out: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise ConfigError(f"option {pair!r} must look like key=value (e.g. max_turns=300)")
        key, _, raw = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not key:
            raise ConfigError(f"option {pair!r} has no name before '='")
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out
