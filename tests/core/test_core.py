"""The game-agnostic core: RNG, actions, errors, records, registry."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from knockabout.core import (
    ActionParseError,
    ActionSpace,
    ConfigError,
    GameRecord,
    IllegalActionError,
    Match,
    ReplayError,
    Rng,
    UnknownGameError,
    get_game,
    mix_seed,
    replay,
)


def test_rng_is_reproducible_and_copies_cheaply() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    c = a.copy()
    assert c.next64() == a.next64()
    assert Rng(1).next64() != Rng(2).next64()


@given(st.integers(0, 2**64 - 1), st.integers(1, 10_000))
def test_rng_below_stays_in_range(seed: int, n: int) -> None:
    r = Rng(seed)
    for _ in range(20):
        assert 0 <= r.below(n) < n


def test_rng_below_is_roughly_uniform() -> None:
    r = Rng(7)
    counts = Counter(r.below(6) for _ in range(60_000))
    assert all(9_300 < c < 10_700 for c in counts.values())
    with pytest.raises(ValueError):
        r.below(0)


def test_shuffle_is_fisher_yates_over_below() -> None:
    for seed in range(30):
        a, b = list(range(30)), list(range(30))
        r1, r2 = Rng(seed), Rng(seed)
        r1.shuffle(a)
        for i in range(len(b) - 1, 0, -1):
            j = r2.below(i + 1)
            b[i], b[j] = b[j], b[i]
        assert a == b and r1.state == r2.state
        assert sorted(a) == list(range(30))


def test_mix_seed_separates_parts() -> None:
    seeds = {mix_seed(1, i) for i in range(1000)} | {mix_seed(2, i) for i in range(1000)}
    assert len(seeds) == 2000
    assert mix_seed(1, "bots", 3) != mix_seed(1, "bots", 4)
    assert mix_seed(5, "x") == mix_seed(5, "x")


def test_action_space_rejects_duplicates_and_parses_exactly() -> None:
    with pytest.raises(ValueError, match="duplicate"):
        ActionSpace("t-dup", ["a", "a"])
    space = ActionSpace("t-ok", ["go", "stop"])
    assert space.parse(" go ") is space[0]
    assert space.mask([space[1]]) == [False, True]
    with pytest.raises(ActionParseError, match="'went' is not an action"):
        space.parse("went")
    with pytest.raises(ActionParseError):
        space.coerce(ActionSpace("t-other", ["go"])[0])
    with pytest.raises(AttributeError):
        space[0].text = "x"  # type: ignore[misc]


def test_illegal_action_error_names_action_decision_and_legal_moves() -> None:
    s = get_game("nak-muay").new_state({"players": 2}, 1)
    d = s.to_act()
    assert d is not None
    with pytest.raises(IllegalActionError) as info:
        s.apply("hide:3")
    msg = str(info.value)
    assert "'hide:3'" in msg and "'action'" in msg and f"of seat {d.player + 1};" in msg and "draw" in msg


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGameError, match="nak-muay"):
        get_game("chess")


def test_match_records_canonical_action_text() -> None:
    m = Match("nak-muay", {"players": 2}, 3)
    m.apply("  draw ")
    assert m.record.actions == ["draw"]
    data = json.loads(m.record.to_json())
    assert data["game"] == "nak-muay" and data["seed"] == 3 and data["config"]["players"] == 2


def test_replay_refuses_other_rules_or_content_versions() -> None:
    m = Match("nak-muay", {"players": 2}, 3)
    rec = m.record.to_dict()
    with pytest.raises(ReplayError, match="rules"):
        replay({**rec, "rules_version": "0.1"})
    with pytest.raises(ReplayError, match="content"):
        replay({**rec, "content_hash": "deadbeef"})
    with pytest.raises(ReplayError, match="missing"):
        GameRecord.from_dict({"game": "nak-muay"})
    with pytest.raises(ReplayError, match="config"):
        replay({**rec, "config": {"players": 17}})


@pytest.mark.parametrize("seed", [-1, 1 << 256, True, "7"])
def test_a_record_seed_outside_the_generators_range_is_one_clear_error(seed: object) -> None:
    rec = Match("nak-muay", {"players": 2}, 3).record.to_dict()
    with pytest.raises(ReplayError, match="'seed' must be"):
        GameRecord.from_dict({**rec, "seed": seed})


def test_an_invalid_configuration_lists_at_most_ten_things_and_counts_the_rest() -> None:
    game = get_game("nak-muay")
    with pytest.raises(ConfigError) as unknown:
        game.make_config({f"k{i}": 1 for i in range(3000)})
    text = str(unknown.value)
    assert "no such options: k0, k1, k2, k3, k4, k5, k6, k7, k8, k9 and 2,990 more" in text
    assert "k10" not in text and len(text) < 300
    with pytest.raises(ConfigError) as long_names:
        game.make_config({"x" * 5000: "y" * 5000, "max_turns": "z" * 5000})
    text = str(long_names.value)
    assert len(text) < 400 and "no such option: xxx" in text and "max_turns:" in text and "…" in text
    with pytest.raises(ConfigError) as one:  # one wrong value: said as before, with the options
        game.make_config({"max_turns": "abc"})
    assert "max_turns: " in str(one.value) and "(got 'abc')" in str(one.value) and "(options: players" in str(one.value)


def test_the_player_words_of_an_invalid_configuration_are_capped_too() -> None:
    game = get_game("nak-muay")
    with pytest.raises(ConfigError) as unknown:
        game.make_config({f"k{i}": 1 for i in range(3000)} | {"max_turns": -5})
    plain = unknown.value.plain
    assert plain.startswith("These are not options of this game: K0, K1,") and "and 2,990 more." in plain
    assert len(plain) < 400, len(plain)
    with pytest.raises(ConfigError) as one:
        game.make_config({"colour": "red"})
    assert one.value.plain == "Colour is not an option of this game."
