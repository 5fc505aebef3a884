"""How the lobby presents Knockdown: a line, its length, its rules page and the valid boxes,
fighters, arenas and skill sets with their public text (fighter sheets)."""

from __future__ import annotations

from knockabout.core.plugins import Choice, LobbyInfo
from knockabout.games.knockdown.content.loader import builtin_boxes
from knockabout.games.knockdown.content.text import ARENA_RULE_TEXT, fighter_sheet

SUMMARY = ("Two fighters meet in a small arena. Take Attack cards from the row, pay their symbols "
           "from your hand and wound your rival until a Knockdown Test (dice or a tower of wound "
           "cubes) knocks them out; two victories win.")

RANDOM = Choice("random", "Random", "drawn when the table starts")
TESTS = (Choice("dice", "Three dice", "the tested fighter must roll at least their number of wounds"),
         Choice("tower", "The tower", "the tested fighter stacks their wound cubes in order within ten seconds"))


def lobby_info() -> LobbyInfo:
    boxes = builtin_boxes()
    box_choices = tuple(
        Choice(b.id, b.meta.name, f"arena {b.arena.name}; fighters "
               + ", ".join(f.name for f in b.fighters), (ARENA_RULE_TEXT[b.arena.rule],))
        for b in boxes.values())
    fighters = (RANDOM, *(
        Choice(f"{b.id}:{f.id}", f.name, f"{f.fighter_class} · {b.meta.name}",
               tuple(fighter_sheet(f).splitlines()), group=b.id)
        for b in boxes.values() for f in b.fighters))
    arenas = (RANDOM, *(Choice(b.id, f"{b.arena.name} ({b.meta.name})", ARENA_RULE_TEXT[b.arena.rule],
                               tuple(b.arena.layout), group=b.id) for b in boxes.values()))
    skills = (RANDOM, *(Choice(b.id, f"{b.meta.name} skills", ", ".join(s.name for s in b.skills),
                               group=b.id) for b in boxes.values()))
    return LobbyInfo(
        summary=SUMMARY,
        minutes=(15, 30),
        rules="rules.md",
        choices={"boxes": box_choices, "fighters": fighters, "arena": arenas, "skills": skills,
                 "knockdown_test": TESTS},
        narrowed_by={"fighters": "boxes", "arena": "boxes", "skills": "boxes"},
    )
