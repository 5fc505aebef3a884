"""Ratings: which tables count, and how a result moves them."""

from __future__ import annotations

import pytest

from knockabout.core.protocol import Outcome
from knockabout.core.registry import all_games, get_game
from knockabout.ladder.ratings import (
    Rating,
    SeatFacts,
    account_key,
    bot_key,
    closest_bot,
    rank_places,
    rate,
    rated_seats,
    shown,
    standard_config,
    starting,
    unrated_because,
)

NAK = get_game("nak-muay")


def person(account: int | None, first: str | None = "person") -> SeatFacts:
    return SeatFacts("person", account=account, first_move_by=first)


def bot(level: str) -> SeatFacts:
    return SeatFacts("bot", level=level, first_move_by="bot")


def std(players: int = 2) -> dict[str, object]:
    return standard_config(NAK, players)


def test_people_only_with_accounts_on_standard_options_rate_everyone() -> None:
    assert rated_seats(NAK, std(3), [person(1), person(2), person(3)]) == [0, 1, 2]
    assert rated_seats(NAK, {"players": 2}, [person(1), person(2)]) == [0, 1]  # defaults, however written


@pytest.mark.parametrize(("seats", "config", "why"), [
    ([person(1), person(None)], None, "guest"),
    ([bot("easy"), bot("hard")], None, "no person"),
    ([person(1), person(2)], {"players": 2, "countdown_seconds": 5.0}, "standard options"),
    ([person(1), person(2, first="stand-in")], None, "left before making a first move"),
    ([person(1), SeatFacts("empty")], None, "empty"),
])
def test_tables_that_rate_nobody(seats: list[SeatFacts], config: dict[str, object] | None, why: str) -> None:
    cfg = std(len(seats)) if config is None else config
    assert why in (unrated_because(NAK, cfg, seats) or "")
    assert rated_seats(NAK, cfg, seats) == []


def test_a_table_where_moves_could_be_taken_back_rates_nobody() -> None:
    for seats in ([person(1), person(2)], [person(1), bot("easy")]):
        assert "taken back" in (unrated_because(NAK, std(2), seats, undo=True) or "")
        assert rated_seats(NAK, std(2), seats, undo=True) == []
        assert rated_seats(NAK, std(2), seats) != []


def test_a_table_of_people_and_bots_rates_only_the_bots() -> None:
    assert rated_seats(NAK, std(3), [person(1), bot("easy"), bot("hard")]) == [1, 2]
    assert rated_seats(NAK, std(2), [person(None), bot("easy")]) == []  # a guest: nobody


def test_a_person_who_never_had_to_move_still_counts() -> None:
    assert rated_seats(NAK, std(3), [person(1), person(2), person(3, first=None)]) == [0, 1, 2]


def test_other_standard_option_sets_count_when_named() -> None:
    cfg = {"players": 2, "countdown_seconds": 5.0}
    assert rated_seats(NAK, cfg, [person(1), person(2)], standard=[{"countdown_seconds": 5.0}]) == [0, 1]


def test_every_game_has_a_standard_config() -> None:
    for game in all_games():
        cfg = standard_config(game, game.facts.default_players)
        assert game.make_config(cfg).model_dump(mode="json") == cfg


def test_places_from_payoffs() -> None:
    assert rank_places(Outcome.win(1, 3)) == [2, 1, 2]
    assert rank_places(Outcome.shared([0, 2], 3)) == [1, 3, 1]  # (competition ranking: only the order matters)


def test_a_win_moves_the_winner_up_and_the_loser_down_by_the_same() -> None:
    a, b = account_key(1), account_key(2)
    new = rate({}, [a, b], Outcome.win(0, 2), [0, 1])
    assert new[a].shown > 1500 > new[b].shown
    assert new[a].shown - 1500 == pytest.approx(1500 - new[b].shown, abs=1)
    assert new[a].sigma < Rating().sigma and new[a].games == 1 and new[a].wins == 1 and new[b].wins == 0
    # beating someone much stronger moves you more than beating an equal
    strong = Rating(mu=35.0, sigma=3.0)
    upset = rate({b: strong}, [a, b], Outcome.win(0, 2), [0, 1])
    assert upset[a].mu - 25.0 > new[a].mu - 25.0


def test_only_the_listed_seats_change() -> None:
    p, e = account_key(7), bot_key("easy")
    new = rate({p: Rating(mu=30.0, sigma=2.0)}, [p, e], Outcome.win(0, 2), [1])
    assert set(new) == {e}
    assert new[e].mu < starting(e).mu and new[e].games == 1


def test_one_bot_level_at_two_seats_moves_once_by_the_mean() -> None:
    p, e = account_key(1), bot_key("easy")
    new = rate({}, [p, e, e], Outcome.win(1, 3), [1, 2])
    assert new[e].games == 2 and new[e].wins == 1
    assert abs(new[e].mu - starting(e).mu) < 3  # one won, one lost: the mean change is small


def test_a_draw_is_counted_as_a_draw() -> None:
    a, b = account_key(1), account_key(2)
    new = rate({}, [a, b], Outcome.shared([0, 1], 2), [0, 1])
    assert new[a].draws == new[b].draws == 1 and new[a].wins == 0
    assert new[a].mu == pytest.approx(25.0, abs=0.01)


def test_the_bot_at_a_persons_level() -> None:
    levels = ["random", "easy", "medium", "hard"]
    assert closest_bot(1500, {}, levels) in {"easy", "medium"}
    assert closest_bot(800, {}, levels) == "random"
    assert closest_bot(2100, {}, levels) == "hard"
    learned = {bot_key("hard"): Rating(mu=20.0, sigma=2.0)}  # people beat it: it is weaker than thought
    assert closest_bot(shown(20.0), learned, levels) == "hard"
    with pytest.raises(ValueError):
        closest_bot(1500, {}, [])


def test_shown_scale() -> None:
    assert Rating().shown == 1500 and Rating().provisional
    assert Rating(games=5).provisional is False
    d = Rating(mu=26.0, sigma=4.0, games=10, wins=6).to_dict()
    assert d == {"rating": 1560, "plus_minus": 480, "games": 10, "wins": 6, "draws": 0, "provisional": False,
                 "win_rate": 0.6}
