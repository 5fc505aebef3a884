"""The server's side of ratings: a finished table is rated (or not) as soon as its end is
durable, and everyone at it is sent what it did to their ratings; leaderboards and a
player's ratings are read from the store.

Which tables count and the arithmetic are :mod:`knockabout.ladder.ratings`'s; the store's
:meth:`~knockabout.store.ratings.RatingStore.rate` runs them in one transaction. Who held a
person's seat comes from ``accounts`` (a function of the table id: the accounts' store when
accounts are on; a server without them rates nobody, every person being a guest).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any

from knockabout.core.protocol import Game, Outcome
from knockabout.core.registry import get_game
from knockabout.ladder.ratings import (
    SHOWN_PER_MU,
    Rating,
    SeatFacts,
    account_key,
    bot_key,
    rate,
    rated_seats,
    shown,
    starting,
)
from knockabout.server.live import LiveTable
from knockabout.store.ratings import RatedTable, RatingUpdate, StoredRating
from knockabout.store.store import Store

log = logging.getLogger(__name__)

AccountsAt = Callable[[str], Mapping[int, str]]
"""The account id holding each person's seat of a table (read on a worker thread)."""


def no_accounts(table_id: str) -> Mapping[int, str]:
    return {}


def seat_facts(t: RatedTable) -> list[SeatFacts]:
    return [SeatFacts(s["kind"], account=t.accounts.get(i), level=s.get("level"), first_move_by=t.first_move_by.get(i))
            for i, s in enumerate(t.seats)]


def standard_sets(game: Game[Any], move_time: float | None) -> list[Mapping[str, Any]]:
    """The option sets besides the defaults that count as standard: a turn-based table's own."""
    rules = game.turn_based()
    return [rules.options] if move_time is not None and rules is not None else []


def seat_keys(t: RatedTable) -> list[str]:
    """Each seat's ladder key (a guest's seat gets one no rating is ever kept under)."""
    return [f.key or f"guest:{i}" for i, f in enumerate(seat_facts(t))]


def rate_table(t: RatedTable, current: Mapping[str, StoredRating]) -> RatingUpdate | None:
    """What a finished table does to ratings (None: it rates nobody)."""
    game = get_game(t.game)
    update = rated_seats(game, t.config, seat_facts(t), standard_sets(game, t.move_time), undo=t.undo)
    if not update:
        return None
    keys = seat_keys(t)
    have = {k: Rating(r.mu, r.sigma, r.games, r.wins, r.draws) for k, r in current.items()}
    new = rate(have, keys, Outcome.from_dict(t.result), update)
    before = {k: (have.get(k) or starting(k)).mu for k in keys}
    return RatingUpdate(
        {k: StoredRating(k, t.game, r.mu, r.sigma, r.games, r.wins, r.draws) for k, r in new.items()},
        [(seat, keys[seat], before[keys[seat]]) for seat in update])


def change_json(change: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """One seat's rating change as the table shows it."""
    seat = int(change["seat"])
    return {"seat": seat, "name": names[seat] if seat < len(names) else "", "player": change["player"],
            "before": shown(change["mu_before"]), "after": shown(change["mu_after"]),
            "plus_minus": round(2 * SHOWN_PER_MU * change["sigma_after"])}


async def rate_finished(store: Store, table_id: str, accounts_at: AccountsAt) -> list[dict[str, Any]]:
    """Rate a table whose end is stored (once; on a worker thread); its changes."""
    def work() -> list[dict[str, Any]]:
        return store.ratings.rate(table_id, accounts_at(table_id), seat_keys, rate_table)

    return await asyncio.to_thread(work)


def rating_json(r: StoredRating | Rating, key: str) -> dict[str, Any]:
    out = Rating(r.mu, r.sigma, r.games, r.wins, r.draws).to_dict()
    out["player"] = key
    return out


async def bot_ratings(store: Store, game: str, levels: Sequence[str]) -> dict[str, Rating]:
    """The bot levels' ratings at ``game`` (a level without one at its starting rating)."""
    keys = [bot_key(level) for level in levels]
    got = await asyncio.to_thread(store.ratings.get, game, keys)
    return {k: Rating(r.mu, r.sigma, r.games, r.wins, r.draws) if (r := got.get(k)) else starting(k) for k in keys}


async def account_rating(store: Store, game: str, account: str) -> Rating:
    key = account_key(account)
    got = (await asyncio.to_thread(store.ratings.get, game, [key])).get(key)
    return Rating() if got is None else Rating(got.mu, got.sigma, got.games, got.wins, got.draws)


def end_hook(store: Store, accounts_at: AccountsAt) -> Callable[[LiveTable], Coroutine[Any, Any, None]]:
    """What the server does once a table's end is stored: rate it, and tell everyone at the
    table what it did (``{"type": "ratings", "changes": [...]}``) when it rated someone."""
    async def after_end(live: LiveTable) -> None:
        try:
            changes = await rate_finished(store, live.id, accounts_at)
        except Exception:  # a rating that failed must not take the table with it
            log.exception("rating table %s failed", live.id)
            return
        if changes:
            names = live.table.names()
            await live.send_all({"type": "ratings", "changes": [change_json(c, names) for c in changes]})

    return after_end
