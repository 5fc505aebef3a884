"""Each effect primitive, run by the interpreter at its hook, as the generated text says."""

from __future__ import annotations

from knockabout.games.knockback.cards import card_text
from knockabout.games.knockback.phases import TURN
from tests.games.knockback.builders import battle, board, card, legal, of_type, play, where


def _punch_data(ev):  # type: ignore[no-untyped-def]
    return of_type(ev, "punch")[0].data


def test_attack_bonus_always_adds_to_every_punch() -> None:
    c = card("Tusk", effects=[{"op": "attack_bonus", "amount": 1}])
    s = battle({"A1": c}, {"A1": (0, 0), "B1": (1, 0)})
    assert _punch_data(play(s, "activate:A1", "punch:E"))["attack"] == 3


def test_attack_bonus_when_moved_needs_a_move_first() -> None:
    c = card("Pounce", actions=("move", "punch"), effects=[{"op": "attack_bonus", "amount": 2, "when": "moved"}])
    s = battle({"A1": c}, {"A1": (0, 0), "B1": (1, 0), "B2": (1, 1)})
    ev = play(s, "activate:A1", "skip", "punch:E")
    assert _punch_data(ev)["attack"] == 2
    s = battle({"A1": c}, {"A1": (0, 0), "B1": (1, 0), "B2": (1, 1)})
    ev = play(s, "activate:A1", "move:N", "punch:E")  # now next to B2 at (1,1)
    assert _punch_data(ev)["attack"] == 4


def test_attack_bonus_against_exhausted_rested_and_enemy_targets() -> None:
    exh = card("Bite", effects=[{"op": "attack_bonus", "amount": 2, "when": "target_exhausted"}])
    s = battle({"A1": exh}, {"A1": (0, 0), "B1": (1, 0), "B2": (2, 0), "B3": (1, 1), "A2": (1, -1)}, exhausted=["B1"])
    assert _punch_data(play(s, "activate:A1", "punch:E"))["attack"] == 4
    rested = card("Flare", effects=[{"op": "attack_bonus", "amount": 1, "when": "target_rested"}])
    s = battle({"A1": rested}, {"A1": (0, 0), "B1": (1, 0)})
    assert _punch_data(play(s, "activate:A1", "punch:E"))["attack"] == 3
    enemy = card("Toll", effects=[{"op": "attack_bonus", "amount": 1, "when": "target_enemy"}])
    s = battle({"A1": enemy}, {"A1": (0, 0), "A2": (1, 0), "B1": (5, 5)})
    assert _punch_data(play(s, "activate:A1", "punch:E"))["attack"] == 2


def test_knockback_cells_sets_how_far_the_line_slides() -> None:
    far = card("Ram", effects=[{"op": "knockback", "cells": 2}])
    s = battle({"A1": far}, {"A1": (0, 0), "B1": (1, 0), "B2": (3, 0)})
    play(s, "activate:A1", "punch:E")
    assert board(s) == {"A1": (0, 0), "B1": (3, 0), "B2": (5, 0)}
    none = card("Soft", effects=[{"op": "knockback", "cells": 0}])
    s = battle({"A1": none}, {"A1": (0, 0), "B1": (1, 0)})
    ev = play(s, "activate:A1", "punch:E")
    assert board(s) == {"A1": (0, 0), "B1": (1, 0)} and not of_type(ev, "knockback")


def test_exhaust_target_tires_a_surviving_target() -> None:
    dust = card("Dust", effects=[{"op": "exhaust_target"}])
    s = battle({"A1": dust}, {"A1": (0, 0), "B1": (1, 0)})
    play(s, "activate:A1", "punch:E")
    assert s.exhausted >> 3 & 1


def test_ready_on_knockout_keeps_the_card_rested() -> None:
    ogre = card("Ogre", edges=((9, 2),) * 4, effects=[{"op": "ready_on_knockout"}])
    s = battle({"A1": ogre}, {"A1": (0, 0), "B1": (1, 0), "B2": (5, 0)})
    ev = play(s, "activate:A1", "punch:E")
    assert of_type(ev, "stays_ready") and not s.exhausted & 1
    # a miss exhausts as usual
    s = battle({"A1": card("Ogre", effects=[{"op": "ready_on_knockout"}])}, {"A1": (0, 0), "B1": (1, 0)})
    play(s, "activate:A1", "punch:E")
    assert s.exhausted & 1


def test_shove_moves_into_a_card_and_pushes_its_line() -> None:
    eel = card("Eel", actions=("move",), effects=[{"op": "shove"}], kind="moving")
    s = battle({"A1": eel}, {"A1": (0, 0), "B1": (1, 0), "B2": (3, 0), "B3": (0, 4)})
    play(s, "activate:A1")
    assert "move:E" in legal(s)
    ev = play(s, "move:E")
    assert of_type(ev, "shove")
    assert board(s) == {"A1": (1, 0), "B1": (2, 0), "B2": (4, 0), "B3": (0, 4)}


def test_steadfast_holds_knockback_and_shoves() -> None:
    rock = card("Rock", effects=[{"op": "steadfast"}], kind="passive")
    s = battle({"B2": rock}, {"A1": (0, 0), "B1": (1, 0), "B2": (2, 0)})
    ev = play(s, "activate:A1", "punch:E")
    assert of_type(ev, "knockback_held")
    assert board(s) == {"A1": (0, 0), "B1": (1, 0), "B2": (2, 0)}
    eel = card("Eel", actions=("move",), effects=[{"op": "shove"}], kind="moving")
    s = battle({"A1": eel, "B1": rock}, {"A1": (0, 0), "B1": (1, 0), "B2": (5, 5)})
    play(s, "activate:A1")
    assert "move:E" not in legal(s)


def test_charge_adds_attack_for_each_cell_moved() -> None:
    fox = card("Fox", actions=("move", "move", "punch"), effects=[{"op": "charge", "amount": 1}], kind="moving")
    s = battle({"A1": fox}, {"A1": (0, 0), "B1": (2, 1)})
    ev = play(s, "activate:A1", "move:N", "move:E")  # (1,1), next to B1 at (2,1)
    ev = play(s, "punch:E")
    assert _punch_data(ev)["attack"] == 4


def test_intimidate_exhausts_enemies_next_to_the_card_after_it_moves() -> None:
    owl = card("Owl", actions=("move",), effects=[{"op": "intimidate"}], kind="moving")
    s = battle({"A1": owl}, {"A1": (0, 0), "B1": (1, 1), "A2": (-1, 1), "B2": (5, 5)})
    play(s, "activate:A1", "move:N")
    assert s.exhausted >> 3 & 1  # B1 exhausted
    assert not s.exhausted >> 1 & 1  # A2 is a friend
    assert not s.exhausted >> 4 & 1  # B2 far away


def test_heart_bonus_while_rested_only() -> None:
    shell = card("Shell", effects=[{"op": "heart_bonus", "amount": 2, "when": "rested"}], kind="passive")
    s = battle({"B1": shell, "A1": card("Hit", edges=((3, 2),) * 4)}, {"A1": (0, 0), "B1": (1, 0), "B2": (9, 9)})
    d = _punch_data(play(s, "activate:A1", "punch:E"))
    assert (d["heart"], d["ko"]) == (4, False)
    s = battle(
        {"B1": shell, "A1": card("Hit", edges=((3, 2),) * 4)},
        {"A1": (0, 0), "B1": (1, 0), "B2": (2, 0), "B3": (1, 1), "A2": (1, -1)},
        exhausted=["B1"],
    )
    d = _punch_data(play(s, "activate:A1", "punch:E"))
    assert (d["heart"], d["ko"]) == (2, True)


def test_auras_help_friendly_neighbours_only() -> None:
    kindle = card("Kindle", effects=[{"op": "aura_attack", "amount": 1}], kind="passive")
    s = battle({"A2": kindle}, {"A1": (0, 0), "A2": (-1, 0), "B1": (1, 0)})
    assert _punch_data(play(s, "activate:A1", "punch:E"))["attack"] == 3
    chorus = card("Chorus", effects=[{"op": "aura_heart", "amount": 1}], kind="passive")
    s = battle({"B2": chorus}, {"A1": (0, 0), "B1": (1, 0), "B2": (1, 1)})
    assert _punch_data(play(s, "activate:A1", "punch:E"))["heart"] == 3
    # an enemy's aura does not help the puncher
    s = battle({"B2": kindle}, {"A1": (0, 0), "B2": (0, 1), "B1": (1, 0)})
    assert _punch_data(play(s, "activate:A1", "punch:E"))["attack"] == 2


def test_card_text_is_generated_from_the_effect_data() -> None:
    a = card("X", effects=[{"op": "attack_bonus", "amount": 2, "when": "moved"}])
    b = card("X", effects=[{"op": "attack_bonus", "amount": 3, "when": "target_exhausted"}])
    assert "+2 attack" in card_text(a) and "moved" in card_text(a)
    assert "+3 attack" in card_text(b) and "exhausted" in card_text(b)
    assert card_text(a).startswith("Punching:")
    k = card("K", effects=[{"op": "knockback", "cells": 0}])
    assert "no knockback" in card_text(k)


def test_a_turn_passes_after_the_ability_resolves() -> None:
    dust = card("Dust", effects=[{"op": "exhaust_target"}])
    s = battle({"A1": dust}, {"A1": (0, 0), "B1": (1, 0)})
    play(s, "activate:A1", "punch:E")
    assert s.phase == TURN and s.current == 1 and where(s, "B1") == (2, 0)


def test_steadfast_in_a_whole_line_holds_the_whole_line() -> None:
    rock = card("Rock", effects=[{"op": "steadfast"}], kind="passive")
    s = battle({"A2": rock}, {"A2": (-1, 0), "A1": (0, 0), "B1": (1, 0)}, knockback="whole_line")
    play(s, "activate:A1", "punch:E")
    assert board(s) == {"A2": (-1, 0), "A1": (0, 0), "B1": (1, 0)}


def test_long_knockback_still_moves_cards_beyond_a_knocked_out_target() -> None:
    ram = card("Ram", edges=((9, 2),) * 4, effects=[{"op": "knockback", "cells": 2}])
    s = battle({"A1": ram}, {"A1": (0, 0), "B1": (1, 0), "B2": (2, 0), "B3": (0, 5)})
    play(s, "activate:A1", "punch:E")
    assert board(s) == {"A1": (0, 0), "B2": (4, 0), "B3": (0, 5)}


def test_the_log_says_which_ability_exhausted_a_card() -> None:
    from knockabout.core import get_game

    g = get_game("knockback")
    dust = card("Dust", effects=[{"op": "exhaust_target"}])
    s = battle({"A1": dust}, {"A1": (0, 0), "B1": (1, 0)})
    (ex,) = of_type(play(s, "activate:A1", "punch:E"), "exhaust")
    assert ex.data["ability"] == "exhaust_target"
    assert g.narrate(ex, ["Ann", "Bo"]) == "P3 (B1) is exhausted by A1's punch."
    owl = card("Owl", actions=("move",), effects=[{"op": "intimidate"}], kind="moving")
    s = battle({"A1": owl}, {"A1": (0, 0), "B1": (1, 1), "B2": (5, 5)})
    (ex,) = of_type(play(s, "activate:A1", "move:N"), "exhaust")
    assert ex.data["ability"] == "intimidate"
    assert g.narrate(ex, ["Ann", "Bo"]) == "P3 (B1) is exhausted: A1 stepped next to it."


def test_heart_bonus_while_exhausted_only() -> None:
    moss = card("Moss", effects=[{"op": "heart_bonus", "amount": 2, "when": "exhausted"}], kind="passive")
    hit = card("Hit", edges=((3, 2),) * 4)
    s = battle({"B1": moss, "A1": hit}, {"A1": (0, 0), "B1": (1, 0), "B2": (9, 9)})
    assert (_punch_data(play(s, "activate:A1", "punch:E"))["heart"]) == 2
    s = battle(
        {"B1": moss, "A1": hit}, {"A1": (0, 0), "B1": (1, 0), "B2": (2, 0), "B3": (1, 1), "A2": (1, -1)},
        exhausted=["B1"],
    )
    assert (_punch_data(play(s, "activate:A1", "punch:E"))["heart"]) == 4


def test_compile_behaviour_fills_the_field_each_op_names() -> None:
    from knockabout.games.knockback.effects import Behaviour, compile_behaviour
    from knockabout.games.knockback.ops import AttackWhen, Effect, HeartWhen, Op

    assert compile_behaviour([]) == Behaviour()
    b = compile_behaviour([
        Effect(Op.ATTACK_BONUS, 2, AttackWhen.MOVED),
        Effect(Op.HEART_BONUS, 1, HeartWhen.ALWAYS),
        Effect(Op.ATTACK_BONUS, 1, AttackWhen.ALWAYS),
        Effect(Op.KNOCKBACK, 3),
        Effect(Op.CHARGE, 2),
        Effect(Op.AURA_ATTACK, 1),
        Effect(Op.AURA_ATTACK, 2),
        Effect(Op.AURA_HEART, 1),
        *(Effect(op) for op in (Op.EXHAUST_TARGET, Op.READY_ON_KNOCKOUT, Op.SHOVE, Op.INTIMIDATE, Op.STEADFAST)),
    ])
    assert b == Behaviour(
        attack_bonus=((AttackWhen.MOVED, 2), (AttackWhen.ALWAYS, 1)),
        heart_bonus=((HeartWhen.ALWAYS, 1),),
        knockback=3, charge=2, aura_attack=3, aura_heart=1,
        exhaust_target=True, ready_on_knockout=True, shove=True, intimidate=True, steadfast=True,
    )
    # one flag alone sets only its own field
    for op in (Op.EXHAUST_TARGET, Op.READY_ON_KNOCKOUT, Op.SHOVE, Op.INTIMIDATE, Op.STEADFAST):
        only = compile_behaviour([Effect(op)])
        assert [f for f in Behaviour.__dataclass_fields__ if getattr(only, f) != getattr(Behaviour(), f)] == [op.value]
