"""Skill cards, content validation, generated text, box selection and merging."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from knockabout.core import ConfigError, Rng
from knockabout.core.events import Event
from knockabout.games.knockdown import GAME
from knockabout.games.knockdown.content import text as T
from knockabout.games.knockdown.content.loader import CONTENT_DIR, builtin_boxes, validate_path
from knockabout.games.knockdown.content.ops import Op, reaches_opponent
from tests.games.knockdown.helpers import arrange, fresh, give_skill, hand, kind, legal, play, ready

# --------------------------------------------------------------------------- skills


def test_hardened_knees_gives_high_kick_a_block_symbol_usable_for_blocking() -> None:
    s = ready(fresh())
    me = s.current
    arrange(s, at=((3, 1), (4, 1)), hands=([], ["High Kick", "Jab", "Jab"]), row=["High Punch", "Jab", "Jab", "Jab"])
    play(s, "attack:0")
    assert kind(s) == "turn", "no Block symbol, no block decision"
    s2 = ready(fresh())
    me = s2.current
    give_skill(s2, 1 - me, "Hardened Knees")
    arrange(s2, at=((3, 1), (4, 1)), hands=([], ["High Kick", "Jab", "Jab"]), row=["High Punch", "Jab", "Jab", "Jab"])
    play(s2, "attack:0")
    assert kind(s2) == "block"
    play(s2, "block:wounds:1")
    assert hand(s2, 1 - me) == ["Jab", "Jab"] and s2.heavy[1 - me] == 0


def test_deep_pockets_raises_the_hand_limit_to_seven() -> None:
    s = ready(fresh())
    me = s.current
    give_skill(s, me, "Deep Pockets")
    arrange(s, at=((1, 1), (7, 1)), hands=(["Jab"] * 6, ["Jab"] * 6), row=["Parry"] * 4)
    play(s, "attack:0")
    assert len(s.hands[me]) == 7 and kind(s) == "turn"


def test_steady_guard_blocks_one_more_light_wound() -> None:
    s = ready(fresh())
    me = s.current
    give_skill(s, 1 - me, "Steady Guard")
    arrange(s, at=((3, 1), (4, 1)), hands=([], ["Parry"]), row=["High Kick", "Jab", "Jab", "Jab"])
    play(s, "attack:0")
    assert legal(s) == ["block:none", "block:wounds:0"], "no card left, but the skill still ignores a light"
    play(s, "block:wounds:0")
    assert (s.heavy[1 - me], s.light[1 - me]) == (1, 0)


def test_long_reach_extends_range_spans_but_not_projectiles() -> None:
    s = ready(fresh())
    me = s.current
    give_skill(s, me, "Long Reach")
    arrange(s, at=((3, 1), (5, 1)), hands=([], []), row=["High Punch", "Jab", "Jab", "Jab"])
    play(s, "attack:0")
    assert s.heavy[1 - me] == 1


def test_pool_bonus_and_reduction_change_the_wound_pool() -> None:
    s = ready(fresh())
    me = s.current
    give_skill(s, me, "Iron Fist")
    arrange(s, at=((3, 1), (4, 1)), hands=([], []), row=["High Punch", "Jab", "Jab", "Jab"])
    play(s, "attack:0")
    assert (s.heavy[1 - me], s.light[1 - me]) == (1, 1)
    s2 = ready(fresh())
    me = s2.current
    give_skill(s2, 1 - me, "Bulwark")
    arrange(s2, at=((3, 1), (4, 1)), hands=([], []), row=["Jab", "Jab", "Jab", "Jab"])
    play(s2, "attack:0")
    assert s2.light[1 - me] == 0


def test_quick_feet_offers_an_optional_step_at_the_start_of_the_turn() -> None:
    s = ready(fresh())
    me = s.current
    give_skill(s, 1 - me, "Quick Feet")
    arrange(s, at=((1, 1), (7, 1)), hands=([], []))
    play(s, "move:up", "move:down")
    assert kind(s) == "move_step" and s.decider == 1 - me and "stop" in legal(s)
    play(s, "stop")
    assert kind(s) == "turn" and s.actions_done == 0


def test_a_revealed_second_skill_adds_to_the_first() -> None:
    s = ready(fresh(), skills=True)
    p = 0
    s.revealed[p] = True
    assert len(s.active_skills(p)) == 2 and s.active_skills(p)[1] in (s.keep1[p], s.keep2[p])


# --------------------------------------------------------------------------- content validation


def test_the_shipped_boxes_are_valid_and_complete() -> None:
    boxes = builtin_boxes()
    assert sorted(boxes) == ["nemesis", "siege_storm", "tainted_grail"]
    for b in boxes.values():
        assert len(b.fighters) == 3 and len(b.skills) == 12
        assert sum(c.copies for c in b.cards) == 36
        for f in ("box", "arena", "fighters", "attacks", "skills"):
            assert validate_path(CONTENT_DIR / b.id / f"{f}.toml") == []
    assert builtin_boxes()["tainted_grail"].meta.candle_cards == 4
    names = {c.name for c in boxes["tainted_grail"].cards}
    assert {"High Punch", "Wyrdness", "High Kick", "Low Kick"} <= names
    hk = next(s for s in boxes["tainted_grail"].skills if s.name == "Hardened Knees")
    assert hk.initiative == 7


def _copy_box(tmp_path: Path, box: str = "tainted_grail") -> Path:
    dst = tmp_path / box
    shutil.copytree(CONTENT_DIR / box, dst)
    return dst


def test_a_bad_symbol_is_reported_with_file_entry_and_field(tmp_path: Path) -> None:
    d = _copy_box(tmp_path)
    f = d / "attacks.toml"
    f.write_text(f.read_text().replace('symbols = ["punch"]', 'symbols = ["punsh"]', 1))
    problems = GAME.validate_content(f)
    assert len(problems) == 1
    p = problems[0]
    assert str(f) in p and "card #1 'High Punch'" in p and "symbols" in p and "unknown symbol 'punsh'" in p


def test_a_broken_effect_names_the_fighter_special_and_op(tmp_path: Path) -> None:
    d = _copy_box(tmp_path)
    f = d / "fighters.toml"
    f.write_text(f.read_text().replace('{ op = "remove_token", token = "curse", from = "opponent" }',
                                       '{ op = "remove_token", token = "cursed", from = "opponent" }'))
    problems = GAME.validate_content(f)
    assert problems and "fighter #1 'mistbearer'" in problems[0] and "special #1 'Doom'" in problems[0]
    assert "token" in problems[0] and "unknown token 'cursed'" in problems[0]


def test_a_wrong_deck_size_and_unknown_skill_card_reference_are_reported(tmp_path: Path) -> None:
    d = _copy_box(tmp_path)
    a = d / "attacks.toml"
    a.write_text(a.read_text().replace('name = "Jab"', 'name = "Quick Jab"'))
    problems = GAME.validate_content(d / "skills.toml")
    assert any("Sharp Instincts" in p and "no Attack card named 'Jab'" in p for p in problems)
    a.write_text(a.read_text() + '\n[[card]]\nname = "Extra"\nsymbols = ["kick"]\ncopies = 1\n')
    problems = GAME.validate_content(a)
    assert any("the deck must hold 36 cards, it holds 37" in p for p in problems)


def test_an_arena_without_two_starts_and_a_missing_game_key_are_reported(tmp_path: Path) -> None:
    d = _copy_box(tmp_path)
    a = d / "arena.toml"
    a.write_text(a.read_text().replace('"...S.S...",', '"...S.....",'))
    problems = GAME.validate_content(a)
    assert problems and "exactly 2 start spaces" in problems[0] and str(a) in problems[0]
    a.write_text(a.read_text().replace('game = "knockdown"', 'game = "knockback"'))
    assert 'expected top-level game = "knockdown"' in GAME.validate_content(a)[0]


def test_a_reaction_without_a_trigger_is_refused(tmp_path: Path) -> None:
    d = _copy_box(tmp_path, "siege_storm")
    f = d / "fighters.toml"
    f.write_text(f.read_text().replace('trigger = "attacked"\n', ""))
    problems = GAME.validate_content(f)
    assert any("Double Block" in p and "needs a trigger" in p for p in problems)


def test_the_content_hash_is_stable_and_names_the_content() -> None:
    h = GAME.content_hash()
    assert len(h) == 64 and h == GAME.content_hash()


def test_every_card_sheet_and_skill_has_generated_text() -> None:
    for b in builtin_boxes().values():
        for c in b.cards:
            assert c.name in T.card_text(c)
            if c.effect:
                assert "Effect:" in T.card_text(c)
        for f in b.fighters:
            sheet = T.fighter_sheet(f)
            assert all(sp.name in sheet for sp in f.special)
        for s in b.skills:
            assert str(s.initiative) in T.skill_text(s)
        assert b.arena.name in T.arena_text(b.arena)
    wyrd = next(c for c in builtin_boxes()["tainted_grail"].cards if c.name == "Wyrdness")
    assert "After taking this card: You suffer 1 light wound." in T.card_text(wyrd)


def test_card_text_and_narration_count_and_sum_wounds_with_one_wording() -> None:
    assert T.wounds_text(1, 2) == "1 heavy + 2 light wounds"
    assert T.wounds_text(0, 1) == "1 light wound" and T.wounds_text(0, 0) == "no wounds"
    assert T.counted(1, "space") == "1 space" and T.counted(3, "card") == "3 cards"
    said = GAME.narrate(Event("heal", {"player": 1, "heavy": 1, "light": 2}), ["Ann", "Bo"])
    assert said == "Bo recovers 1 heavy and 2 light wounds."
    said = GAME.narrate(Event("tokens", {"player": 0, "token": "Ammo", "change": -1}), ["Ann", "Bo"])
    assert said == "Ann loses 1 Ammo token."


@pytest.mark.parametrize(("op", "reaches"), [
    ({"op": "wound", "heavy": 1}, True),
    ({"op": "wound", "target": "self", "light": 1}, False),
    ({"op": "step", "who": "opponent"}, True),
    ({"op": "step"}, False),
    ({"op": "remove_token", "token": "stun", "from": "self"}, False),
    ({"op": "remove_token", "token": "stun"}, True),
    ({"op": "backward"}, True),
    ({"op": "forward"}, False),
])
def test_an_op_reaches_the_opponent_when_it_does_something_to_them(op: dict[str, object], reaches: bool) -> None:
    assert reaches_opponent(TypeAdapter(Op).validate_python(op)) is reaches


def test_the_set_is_labelled_as_the_projects_own() -> None:
    assert "knockabout" in GAME.describe()["content"]
    for b in builtin_boxes().values():
        assert "knockabout" in b.meta.label


# --------------------------------------------------------------------------- configuration and merging


def test_named_fighters_must_exist_and_differ() -> None:
    with pytest.raises(ConfigError, match="no fighter 'nobody'"):
        GAME.new_state({"fighters": ["nobody", "random"]})
    with pytest.raises(ConfigError, match="both seats"):
        GAME.new_state({"fighters": ["maggot", "maggot"]})
    with pytest.raises(ConfigError, match="not one of the boxes"):
        GAME.new_state({"arena": "nemesis"})


def test_a_single_box_uses_its_own_fighters_arena_deck_and_skills() -> None:
    s = GAME.new_state({"boxes": ["siege_storm"]}, 3)
    ids = {f.id for f in builtin_boxes()["siege_storm"].fighters}
    assert {f.id for f in s.setup.fighters} <= ids
    assert s.setup.arena.rule == "dangerous_edges"
    assert s.setup.cards[0].name == builtin_boxes()["siege_storm"].cards[0].name
    assert s.setup.skills == builtin_boxes()["siege_storm"].skills


def test_merging_boxes_draws_fighters_skill_set_and_arena_and_the_arena_brings_its_deck() -> None:
    seen_arenas = set()
    seen_fighter_boxes = set()
    for seed in range(40):
        s = GAME.new_state({"boxes": ["tainted_grail", "nemesis", "siege_storm"]}, seed)
        p = s.setup.picks
        seen_arenas.add(p.arena_box)
        seen_fighter_boxes.update(b for b, _ in p.fighters)
        deck_names = {s.setup.cards[d].name for d in s.setup.deck}
        assert deck_names == {c.name for c in builtin_boxes()[p.arena_box].cards}
        assert (s.setup.candles == 4) == (p.arena_box == "tainted_grail")
        assert p.fighters[0] != p.fighters[1]
    assert len(seen_arenas) == 3 and len(seen_fighter_boxes) == 3


def test_fighters_from_another_box_bring_their_tokens_and_cards() -> None:
    s = GAME.new_state({"boxes": ["tainted_grail", "nemesis"], "fighters": ["puppy", "maggot"],
                        "arena": "tainted_grail"}, 1)
    assert s.setup.contamination >= 0 and s.setup.contamination_count == 3
    assert s.setup.candles == 4


def test_merged_random_playouts_end() -> None:
    for seed in range(6):
        s = GAME.new_state({"boxes": ["tainted_grail", "nemesis", "siege_storm"]}, seed)
        r = Rng(seed)
        steps = 0
        while s.to_act() is not None and steps < 20_000:
            la = s.legal_actions()
            s.apply(la[r.below(len(la))])
            steps += 1
        assert s.outcome() is not None


@pytest.mark.parametrize(
    ("model", "data", "problem"),
    [
        ("BoxModel", {"id": "b", "name": "B", "label": "L", "tokens": {"stun": 13}},
         "supply of stun must be 1-12, got 13"),
        ("BoxModel", {"id": "b", "name": "B", "label": "L", "tokens": {"gold": 1}}, "unknown token 'gold'"),
        ("ExtraSymbol", {"kind": "extra_symbol", "cards": ["x"], "symbol": "fly"}, "unknown symbol 'fly'"),
        ("Cond", {"has": "q"}, "unknown token 'q'"),
        ("PlaceTokenOp", {"op": "place_token", "token": "gold"}, "unknown token 'gold'"),
        ("DiscardForTokensOp", {"op": "discard_for_tokens", "symbol": "fly", "token": "ammo"}, "unknown symbol 'fly'"),
    ],
)
def test_token_and_symbol_fields_name_the_bad_word(model: str, data: dict[str, object], problem: str) -> None:
    """Every content field that names a token or symbol is checked by the one shared rule."""
    from pydantic import ValidationError

    from knockabout.games.knockdown.content import models, ops

    cls = getattr(models, model, None) or getattr(ops, model)
    with pytest.raises(ValidationError, match=problem):
        cls.model_validate(data)
    good = {**data, **{k: v for k, v in {"tokens": {"stun": 12}, "symbol": "kick", "has": "mist",
                                          "token": "ammo"}.items() if k in data}}
    cls.model_validate(good)
