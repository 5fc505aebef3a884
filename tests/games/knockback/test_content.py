"""Pack files: the shipped set, validation messages, and playing a pack of your own."""

from __future__ import annotations

from pathlib import Path

import pytest

from knockabout.core import ConfigError, ReplayError, Rng, get_game
from knockabout.games.knockback import content
from knockabout.games.knockback.cards import SET_LABEL, card_text
from knockabout.games.knockback.ops import AttackWhen, Effect, Op

G = get_game("knockback")

GOOD = '''
game = "knockback"
id = "my-pack"
name = "My Pack"
style = "test"

[[cards]]
name = "One"
actions = ["move", "punch"]
edges.north = { attack = 3, heart = 2 }
edges.east = { attack = 2, heart = 2 }
edges.south = { attack = 1, heart = 2 }
edges.west = { attack = 2, heart = 2 }
ability.kind = "punching"
ability.effects = [{ op = "attack_bonus", amount = 1 }]

[[cards]]
name = "Two"
actions = ["move_or_punch"]
edges.north = { attack = 2, heart = 3 }
edges.east = { attack = 2, heart = 3 }
edges.south = { attack = 2, heart = 3 }
edges.west = { attack = 2, heart = 3 }
ability.kind = "passive"
ability.effects = [{ op = "steadfast" }]

[[cards]]
name = "Three"
actions = ["move", "move", "punch"]
edges.north = { attack = 2, heart = 1 }
edges.east = { attack = 2, heart = 1 }
edges.south = { attack = 2, heart = 1 }
edges.west = { attack = 2, heart = 1 }
ability.kind = "moving"
ability.effects = [{ op = "charge", amount = 1 }]
'''


def _write(tmp_path: Path, text: str, name: str = "pack.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_the_shipped_set_has_six_distinct_packs_of_three_distinct_cards() -> None:
    packs = content.builtin_packs()
    assert len(packs) >= 6
    assert len({p.id for p in packs}) == len(packs)
    assert len({p.style for p in packs}) == len(packs), "every pack has its own style"
    for p in packs:
        assert len(p.cards) == 3
        assert len({c.name for c in p.cards}) == 3
        for c in p.cards:
            assert 1 <= len(c.symbols) <= 3
            assert c.summary["set"] == SET_LABEL
            assert card_text(c)


def test_every_shipped_file_validates_cleanly() -> None:
    files = sorted(content.CONTENT_DIR.glob("*.toml"))
    assert files
    for f in files:
        assert G.validate_content(f) == [], f


def test_describe_labels_the_set_as_the_projects_own() -> None:
    d = G.describe()
    assert d["content"] == SET_LABEL
    assert all(p["set"] == SET_LABEL for p in d["packs"])


def test_content_hash_is_stable_and_hex() -> None:
    h = G.content_hash()
    assert h == G.content_hash() and len(h) == 64
    int(h, 16)


def test_a_valid_pack_file_has_no_problems(tmp_path: Path) -> None:
    assert G.validate_content(_write(tmp_path, GOOD)) == []


@pytest.mark.parametrize(
    ("change", "expect"),
    [
        (("attack = 3, heart = 2", "attack = 12, heart = 2"), ["card 'One' (#1)", "edges.north.attack", "range"]),
        (("attack = 3, heart = 2", "attack = \"x\", heart = 2"), ["card 'One' (#1)", "edges.north.attack"]),
        (('["move", "punch"]', '["move", "kick"]'), ["card 'One'", "actions", "'move'"]),
        (('["move", "punch"]', '[]'), ["card 'One'", "actions", "at least 1"]),
        (
            ('op = "attack_bonus", amount = 1', 'op = "fly", amount = 1'),
            ["card 'One' (#1)", "field ability.effects[1]", "unknown effect op 'fly'", "'attack_bonus', 'knockback'"],
        ),
        (
            ('op = "attack_bonus", amount = 1', 'op = "attack_bonus", amount = 1, when = "sometimes"'),
            ["card 'One' (#1)", "field ability.effects[1].when", "'target_enemy'", "got 'sometimes'"],
        ),
        (
            ('op = "steadfast"', 'op = "steadfast", when = "rested"'),
            ["card 'Two' (#2)", "effects[1].when", "not a known"],
        ),
        (('op = "steadfast"', 'op = "shove"'), ["card 'Two' (#2)", "ability", "does not belong to a passive"]),
        (('name = "Two"', 'name = "One"'), ["two cards are named 'one'"]),
        (('game = "knockback"', 'game = "nak-muay"'), ["top-level key game", "knockback"]),
        (('id = "my-pack"', 'id = "My Pack!"'), ["field id"]),
        (('style = "test"', 'style = "test"\ncolour = "red"'), ["field colour", "not a known field"]),
        (("edges.west = { attack = 2, heart = 1 }", ""), ["card 'Three' (#3)", "edges.west", "missing"]),
    ],
)
def test_validation_names_file_card_field_and_what_is_expected(
    tmp_path: Path, change: tuple[str, str], expect: list[str]
) -> None:
    text = GOOD.replace(change[0], change[1], 1)
    assert text != GOOD
    path = _write(tmp_path, text)
    problems = G.validate_content(path)
    assert problems, "the broken file passed validation"
    joined = "\n".join(problems)
    assert str(path) in joined
    for bit in expect:
        assert bit in joined, f"{bit!r} not in {joined!r}"


def test_a_pack_with_two_cards_is_refused(tmp_path: Path) -> None:
    text = GOOD[: GOOD.index("[[cards]]\nname = \"Three\"")]
    problems = G.validate_content(_write(tmp_path, text))
    assert any("field cards" in p and "at least 3" in p for p in problems)


def test_identical_cards_in_a_pack_are_refused(tmp_path: Path) -> None:
    two = GOOD.split("[[cards]]")
    text = "[[cards]]".join([two[0], two[1], two[1].replace('"One"', '"Uno"'), two[3]])
    problems = G.validate_content(_write(tmp_path, text))
    assert any("must differ" in p for p in problems)


def test_broken_toml_is_one_clear_problem(tmp_path: Path) -> None:
    problems = G.validate_content(_write(tmp_path, "game = \n"))
    assert len(problems) == 1 and "not valid TOML" in problems[0]


def test_a_pack_reusing_a_built_in_id_is_refused(tmp_path: Path) -> None:
    problems = G.validate_content(_write(tmp_path, GOOD.replace('"my-pack"', '"ember-rush"')))
    assert any("already a built-in pack" in p for p in problems)


def test_a_missing_file_is_reported(tmp_path: Path) -> None:
    problems = G.validate_content(tmp_path / "nope.toml")
    assert problems and "cannot read" in problems[0]


def test_your_own_pack_file_can_be_played(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD)
    s = G.new_state({"packs": ["my-pack", "granite-ward"], "pack_files": [str(path)]}, 2)
    names = [c.card.name for c in s.observe(0).cards]
    assert names[:3] == ["One", "Two", "Three"]
    assert s.observe(0).cards[0].card.set == "player-made pack"
    rng = Rng(1)
    while s.to_act() is not None:
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    # a saved state carries its cards: no file needed to restore it
    back = G.state_from_dict(s.to_dict())
    assert back.to_dict() == s.to_dict()


def test_a_directory_of_packs_can_be_given(tmp_path: Path) -> None:
    _write(tmp_path, GOOD, "a.toml")
    _write(tmp_path, GOOD.replace('"my-pack"', '"my-other"'), "b.toml")
    s = G.new_state({"packs": ["my-pack", "my-other"], "pack_files": [str(tmp_path)]}, 0)
    assert s.lab[0].pack == "my-pack" and s.lab[3].pack == "my-other"


def test_a_broken_extra_pack_is_a_clear_config_error(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD.replace("attack = 3, heart = 2", "attack = 30, heart = 2"))
    with pytest.raises(ConfigError) as info:
        G.new_state({"pack_files": [str(path)]}, 0)
    assert "pack_files" in str(info.value) and "edges.north.attack" in str(info.value)
    with pytest.raises(ConfigError, match="no such pack file"):
        G.new_state({"pack_files": [str(tmp_path / "missing.toml")]}, 0)


def test_an_unknown_pack_id_lists_the_known_packs() -> None:
    with pytest.raises(ConfigError) as info:
        G.new_state({"packs": ["nope", "random"]}, 0)
    assert "nope" in str(info.value) and "ember-rush" in str(info.value)


def test_random_packs_differ_between_the_players() -> None:
    for seed in range(20):
        s = G.new_state({}, seed)
        assert s.lab[0].pack != s.lab[3].pack


def test_a_named_pack_is_played_by_that_player() -> None:
    s = G.new_state({"packs": ["night-moths", "random"]}, 4)
    assert {c.pack for c in s.lab[:3]} == {"night-moths"}
    assert {c.pack for c in s.lab[3:]} != {"night-moths"}


def test_a_wrong_card_count_is_reported_alongside_card_errors(tmp_path: Path) -> None:
    text = GOOD[: GOOD.index("[[cards]]\nname = \"Three\"")].replace("attack = 3, heart = 2", "attack = 30, heart = 2")
    problems = G.validate_content(_write(tmp_path, text))
    assert any("edges.north.attack" in p for p in problems)
    assert any("field cards" in p and "3 cards" in p for p in problems)


def test_an_unknown_op_in_a_pack_file_is_refused_with_one_clear_message(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD.replace('op = "charge", amount = 1', 'op = "teleport", amount = 1'))
    problems = G.validate_content(path)
    assert problems == [
        f"{path}, card 'Three' (#3), field ability.effects[1]: unknown effect op 'teleport'; expected one of "
        + ", ".join(repr(o.value) for o in Op)
    ]
    with pytest.raises(ConfigError, match="unknown effect op 'teleport'"):
        G.new_state({"packs": ["my-pack", "granite-ward"], "pack_files": [str(path)]}, 0)


def test_card_data_that_skips_validation_is_still_compiled_to_known_ops_only() -> None:
    from knockabout.games.knockback.cards import compile_card

    data = {
        "name": "Odd",
        "pack": "test",
        "actions": ["punch"],
        "edges": {e: {"attack": 1, "heart": 1} for e in ("north", "east", "south", "west")},
        "ability": {"kind": "punching", "effects": [{"op": "attack_bonus", "amount": 1, "when": "on_tuesdays"}]},
    }
    with pytest.raises(ValueError, match="card 'Odd': unknown attack_bonus condition \\(when\\) 'on_tuesdays'"):
        compile_card(data)
    data["ability"] = {"kind": "punching", "effects": [{"op": "fly"}]}
    with pytest.raises(ValueError, match="card 'Odd': unknown effect op 'fly'"):
        compile_card(data)
    # a saved game holding such a card is refused as a saved state, not played with a guess
    s = G.new_state({}, 1)
    saved = s.to_dict()
    saved["cards"][0] = {**saved["cards"][0], "ability": data["ability"]}
    with pytest.raises(ReplayError, match="not a saved state"):
        G.state_from_dict(saved)


def test_compiled_effects_are_enums_and_the_behaviour_comes_from_them() -> None:
    pack = next(p for p in content.builtin_packs() if p.id == "tide-breakers")
    first = pack.cards[0]
    assert all(isinstance(e.op, Op) for e in first.effects)
    assert first.effects[0] == Effect(Op.KNOCKBACK, 2)
    assert first.effects[1] == Effect(Op.ATTACK_BONUS, 1, AttackWhen.MOVED)
    assert first.behaviour.knockback == 2 and first.behaviour.attack_bonus == ((AttackWhen.MOVED, 1),)
    assert pack.cards[1].behaviour.shove and not first.behaviour.shove


def test_every_op_has_a_pack_model_and_belongs_to_exactly_one_kind() -> None:
    from typing import get_args

    from knockabout.games.knockback.ops import OPS_BY_KIND

    union = get_args(get_args(content.EffectModel)[0])
    modelled = [op for m in union for op in get_args(m.model_fields["op"].annotation)]
    assert sorted(modelled) == sorted(Op)
    kinds = [op for ops in OPS_BY_KIND.values() for op in ops]
    assert sorted(kinds) == sorted(Op)
