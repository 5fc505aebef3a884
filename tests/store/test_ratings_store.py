"""Ratings in the store, on SQLite and PostgreSQL: a finished table of signed-in people is
rated once, in one transaction; bots are rated from their games against people and never
move a person; guests, other options and a seat left before its first move rate nobody; a
turn-based table's own options count as standard; leaderboards order by the cautious
estimate; tables ending at the same time lose no update."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from knockabout.core.protocol import Outcome
from knockabout.ladder.ratings import SHOWN_START, account_key, bot_key, shown, starting
from knockabout.server.ratings import change_json, rate_finished, seat_keys
from knockabout.store import Store, StoredTable
from knockabout.store.store import action_op, finish_op

pytestmark = pytest.mark.timeout(120)


def person(name: str) -> dict[str, Any]:
    return {"kind": "person", "name": name, "level": None, "token": None}


def bot(level: str) -> dict[str, Any]:
    return {"kind": "bot", "name": f"Bot ({level})", "level": level, "token": None}


def finished(store: Store, table_id: str, seats: list[dict[str, Any]], winner: int, *,
             config: dict[str, Any] | None = None, by: list[str] | None = None, move_time: float | None = None,
             game: str = "nak-muay") -> None:
    """A table as a server leaves it when it ends: stored, a move per seat, its result."""
    cfg = {"players": len(seats)} if config is None else config
    store.create(StoredTable(id=table_id, game=game, rules_version="1.0", config=cfg, seed=1, seats=seats,
                             status="playing", move_time=move_time))
    ops = [action_op(table_id, i, i, "draw", (by or ["person"] * len(seats))[i] if s["kind"] == "person" else "bot")
           for i, s in enumerate(seats)]
    store.run(*ops, finish_op(table_id, Outcome.win(winner, len(seats)).to_dict()))


def rate(store: Store, table_id: str, accounts: dict[int, str]) -> list[dict[str, Any]]:
    """Rate a table as the server does, on an event loop of its own in a thread of its own
    (whatever loop an earlier test left in this one: a full run once met one here)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, rate_finished(store, table_id, lambda _: accounts)).result()


@pytest.fixture
def store(db_url: str) -> Any:
    s = Store(db_url, writer="thread")
    yield s
    s.close()


def test_people_only_are_rated_once(store: Store) -> None:
    finished(store, "t1", [person("Ann"), person("Bo")], winner=0)
    changes = rate(store, "t1", {0: "a1", 1: "b2"})
    assert [c["player"] for c in changes] == [account_key("a1"), account_key("b2")]
    shown_changes = [change_json(c, ["Ann", "Bo"]) for c in changes]
    assert shown_changes[0]["before"] == shown_changes[1]["before"] == SHOWN_START
    assert shown_changes[0]["after"] > SHOWN_START > shown_changes[1]["after"]
    got = store.ratings.get("nak-muay", [account_key("a1"), account_key("b2")])
    assert got[account_key("a1")].games == 1 and got[account_key("a1")].wins == 1 and got[account_key("b2")].wins == 0
    assert rate(store, "t1", {0: "a1", 1: "b2"}) == changes, "a table is rated once"
    assert store.ratings.get("nak-muay", [account_key("a1")])[account_key("a1")].games == 1
    assert [r.game for r in store.ratings.of_player(account_key("a1"))] == ["nak-muay"]
    assert store.ratings.player_changes(account_key("b2"))[0]["table_id"] == "t1"


def test_bots_are_rated_from_their_games_against_people(store: Store) -> None:
    finished(store, "t2", [person("Ann"), bot("hard")], winner=1)
    changes = rate(store, "t2", {0: "a1"})
    assert [c["player"] for c in changes] == [bot_key("hard")], "a person's rating never moves against a bot"
    hard = store.ratings.get("nak-muay", [bot_key("hard")])[bot_key("hard")]
    assert hard.mu > starting(bot_key("hard")).mu and hard.games == 1
    assert store.ratings.get("nak-muay", [account_key("a1")]) == {}
    tops = store.ratings.top("nak-muay", "bot:")
    assert [r.player for r in tops] == [bot_key("hard")]


@pytest.mark.parametrize(("seats", "accounts", "kw"), [
    ([person("Ann"), person("Gus")], {0: "a1"}, {}),  # a guest at the table
    ([person("Ann"), person("Bo")], {0: "a1", 1: "b2"}, {"config": {"players": 2, "countdown_seconds": 5.0}}),
    ([person("Ann"), person("Bo")], {0: "a1", 1: "b2"}, {"by": ["person", "stand-in"]}),  # left before moving
    ([person("Ann"), person("Bo")], {0: "a1", 1: "b2"}, {"by": ["person", "out-of-time"]}),
    ([bot("easy"), bot("hard")], {}, {}),
])
def test_tables_that_rate_nobody(store: Store, seats: list[dict[str, Any]], accounts: dict[int, str],
                                 kw: dict[str, Any]) -> None:
    finished(store, "t3", seats, winner=0, **kw)
    assert rate(store, "t3", accounts) == []
    assert store.ratings.top("nak-muay", "") == []


def test_a_turn_based_tables_own_options_are_standard(store: Store) -> None:
    finished(store, "t4", [person("Ann"), person("Bo")], winner=1,
             config={"players": 2, "countdown": "move_time"}, move_time=86400.0)
    assert len(rate(store, "t4", {0: "a1", 1: "b2"})) == 2
    finished(store, "t5", [person("Ann"), person("Bo")], winner=1, config={"players": 2, "countdown": "move_time"})
    assert rate(store, "t5", {0: "a1", 1: "b2"}) == [], "at a live table move_time is not the standard"


def test_an_unfinished_or_unknown_table_rates_nobody(store: Store) -> None:
    store.create(StoredTable(id="t6", game="nak-muay", rules_version="1.0", config={"players": 2}, seed=1,
                             seats=[person("A"), person("B")], status="playing"))
    assert rate(store, "t6", {0: "a", 1: "b"}) == [] and rate(store, "nope", {}) == []


def test_the_leaderboard_orders_by_the_cautious_estimate(store: Store) -> None:
    for i in range(4):  # Ann beats Bo four times; Cy beats Dee once
        finished(store, f"ab{i}", [person("Ann"), person("Bo")], winner=0)
        rate(store, f"ab{i}", {0: "ann", 1: "bo"})
    finished(store, "cd", [person("Cy"), person("Dee")], winner=0)
    rate(store, "cd", {0: "cy", 1: "dee"})
    order = [r.player for r in store.ratings.top("nak-muay", "account:")]
    assert order[0] == account_key("ann") and order[-1] == account_key("bo")
    assert shown(store.ratings.get("nak-muay", [account_key("cy")])[account_key("cy")].mu) > SHOWN_START


def test_tables_ending_together_lose_no_update(store: Store) -> None:
    """Six tables of one new player rated at once, three at a time, in several rounds (a
    player's first rating is where two transactions race to make the row)."""
    for r in range(6):
        for i in range(6):
            finished(store, f"p{r}-{i}", [person("Ann"), person(f"X{i}")], winner=0)
        with ThreadPoolExecutor(3) as pool:
            list(pool.map(lambda i, r=r: rate(store, f"p{r}-{i}", {0: f"ann{r}", 1: f"x{r}-{i}"}), range(6)))
        ann = store.ratings.get("nak-muay", [account_key(f"ann{r}")])[account_key(f"ann{r}")]
        assert (ann.games, ann.wins) == (6, 6), f"round {r}"


def test_seat_keys() -> None:
    from knockabout.store.ratings import RatedTable

    t = RatedTable("x", "nak-muay", {}, [person("A"), bot("easy"), person("G")], None, {}, {}, {0: "a"})
    assert seat_keys(t) == [account_key("a"), bot_key("easy"), "guest:2"]
