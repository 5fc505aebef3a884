"""Reach a Knockdown tower challenge fast: a short, fixed policy plays the game from a seed
(the tested player's Knockdown Test is started whenever offered) until seat 0 must build
a tower. Shared by the table, server and browser tests of judged challenges."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from knockabout.core.registry import get_game
from knockabout.table import Seat, Table

TOWER = {"knockdown_test": "tower"}


def _pick(legal: list[str]) -> str:
    for prefix in ("ko:test", "attack:", "block:none", "react:none"):
        found = [a for a in legal if a.startswith(prefix)]
        if found:
            return found[0]
    return legal[0]


@cache
def tower_actions(tested: int = 0, first_seed: int = 0) -> tuple[int, tuple[str, ...]]:
    """(seed, actions) after which ``tested`` must answer a tower_challenge."""
    game = get_game("knockdown")
    for seed in range(first_seed, first_seed + 200):
        s = game.new_state(TOWER, seed)
        acts: list[str] = []
        for _ in range(3000):
            d = s.to_act()
            if d is None:
                break
            if d.kind == "tower_challenge":
                if d.player == tested:
                    return seed, tuple(acts)
                break
            a = _pick([x.text for x in s.legal_actions()])
            s.apply(a)
            acts.append(a)
    raise AssertionError("no seed reaches a tower challenge")


def tower_table(clock: Callable[[], float], second: Seat | None = None, **kw: Any) -> Table:
    """A table where seat 0 (a person) must build a tower right now."""
    seed, acts = tower_actions()
    seats = [Seat("person", "Ann"), second or Seat("person", "Bo")]
    return Table("knockdown", seats, TOWER, seed, clock=clock, actions=acts, **kw)


def store_tower_table(db_url: str, second: str = "random", tested: int = 0) -> tuple[str, str]:
    """Store an unfinished table whose next decision is a person's tower (seat ``tested``),
    as a server would have left it; a server started on ``db_url`` resumes it.
    Returns (table id, the person's seat token)."""
    import secrets

    from knockabout.server.live import token_hash
    from knockabout.store import Store, StoredTable

    game = get_game("knockdown")
    seed, acts = tower_actions(tested)
    token = secrets.token_urlsafe(12)
    person = {"kind": "person", "name": "Ann", "level": None, "token": token_hash(token)}
    other = {"kind": "bot", "name": "Bot", "level": second, "token": None}
    seats = [person, other] if tested == 0 else [other, person]
    table_id = "tower" + secrets.token_hex(3)
    store = Store(db_url)
    try:
        store.create(StoredTable(id=table_id, game=game.id, rules_version=game.rules_version, config=dict(TOWER),
                                 seed=seed, seats=seats, status="playing", content_hash=game.content_hash()))
        s = game.new_state(TOWER, seed)
        for step, a in enumerate(acts):
            d = s.to_act()
            assert d is not None
            store.append_action(table_id, step, d.player, a, "person")
            s.apply(a)
    finally:
        store.close()
    return table_id, token
