"""The Knockdown guide: an attack said to be out of reach misses, one said to reach does, a
Block ignores exactly the wounds its button names, and a Knockdown Test is taken against the
wounds its hint names, when applied to a copy of the true state, under every option that
changes them (the boxes' arenas and fighters, dice or tower); and the guidance tells nothing
the seat cannot see (the deck, the rival's secret skill)."""

from __future__ import annotations

from typing import Any

from tests.conformance.guide_claims import advised, property_tests
from tests.games.knockdown.guide_claims import CHECKS

OPTION_SETS: list[dict[str, Any]] = [
    {}, {"knockdown_test": "tower"}, {"boxes": ["nemesis"]}, {"boxes": ["siege_storm"]},
    {"boxes": ["nemesis", "siege_storm", "tainted_grail"]},
]


(
    test_every_declared_claim_has_a_check,
    test_every_claim_holds_on_a_copy_of_the_true_state,
    test_seeded_games_meet_every_claim,
    test_the_guidance_tells_nothing_hidden,
) = property_tests("knockdown", OPTION_SETS, CHECKS, examples=30, max_steps=250, sweep=(3, 500), leak=(12, 150))


def test_the_hand_limit_says_what_it_is_and_skills_carry_their_text() -> None:
    found = set()
    for s, d, got in advised("knockdown", 30, 600, lambda seed, step, n: (seed * 7 + step) % n):
        if d.kind == "skill_draft":
            assert all(a.detail for a in got.actions), "a skill's text is on its button"
            found.add("draft")
        if d.kind == "choose_card" and got.prompt.title == "Hand limit":
            limit = s.hand_limit(d.player)
            assert got.prompt.why == (f"You hold {len(s.hands[d.player])} cards and may keep {limit}. "
                                      "Discard one.")
            found.add("limit")
        if found == {"draft", "limit"}:
            return
    raise AssertionError(f"only met {found}")


def test_an_ability_on_the_row_is_used_and_a_blocked_card_is_read_as_words() -> None:
    """An Ability taken from the Attack Row (it needs no reach) is offered as used, not as an
    attack; the Block decision's hint reads the attacking card without its symbol list."""
    found: set[str] = set()
    for s, d, got in advised("knockdown", 40, 600, lambda seed, step, n: (seed * 5 + step) % n):
        view = s.observe(d.player)
        for a in got.actions:
            head, _, arg = a.action.partition(":")
            if head == "attack":
                name = view.row[int(arg)]
                info = view.cards.get(name or "")
                if info is not None and info.type == "ability" and "reach" not in a.label:
                    assert a.label.startswith(f"Use {name} ("), a.label
                    found.add("ability")
                assert not a.label.startswith("Attack with") or "(in reach)" in a.label, a.label
        if d.kind == "block":
            assert got.hints and not got.hints[0].text.startswith("["), got.hints
            assert got.hints[0].text.startswith(f"{view.attack.name}: ")
            found.add("block")
        if found == {"ability", "block"}:
            return
    raise AssertionError(f"only met {found}")
