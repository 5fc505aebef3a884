"""Every action of Nak Muay Knockout, with a fixed integer code.

Texts:
  draw                 no major action; go straight to the draw phase
  attack:N             play Attack +N (N = 1, 2, 3) on the next player
  countdown / dodge / scout / sweep
  pair:HOLD            discard two of one Clinch hold to steal a random card
  triple:H1+H2+H3      discard three different holds to steal a named card
  target:S             choose seat S as the target of a steal
  name:CARD / take-random   the naming loop of a triple steal
  keep / reverse       direction after a Sweep
  take                 take an Attack's draws instead of dodging
  block                play Block (on a KO you drew, or against a Countdown)
  clinch:HOLD          answer a Countdown with one Clinch card
  no-response          let a Countdown run out
  hide:K               hide a blocked KO K cards below the top (0 = on top)
  scout-take:I         take the I-th card seen (0 = top); scout-take:none when all are KO
  order:I,J[,K]        put the remaining scouted cards back, first listed on top
"""

from __future__ import annotations

from itertools import combinations, permutations
from typing import Final

from knockabout.core.actions import Action, ActionSpace
from knockabout.games.nakmuay import cards as C

MAX_SEATS: Final = 5
MAX_PILE: Final = 45


def _texts() -> list[str]:
    t = ["draw", "attack:1", "attack:2", "attack:3", "countdown", "dodge", "scout", "sweep"]
    t += [f"pair:{C.NAMES[h]}" for h in C.HOLDS]
    t += ["triple:" + "+".join(C.NAMES[h] for h in combo) for combo in combinations(C.HOLDS, 3)]
    t += [f"target:{s}" for s in range(MAX_SEATS)]
    t += [f"name:{C.NAMES[k]}" for k in C.NAMEABLE]
    t += ["take-random", "keep", "reverse", "take", "block"]
    t += [f"clinch:{C.NAMES[h]}" for h in C.HOLDS]
    t += ["no-response"]
    t += [f"hide:{k}" for k in range(MAX_PILE + 1)]
    t += [f"scout-take:{i}" for i in range(3)] + ["scout-take:none"]
    for n in (2, 3):
        t += ["order:" + ",".join(str(i) for i in p) for p in permutations(range(n))]
    return t


SPACE: Final = ActionSpace("nak-muay", _texts())

DRAW: Final = SPACE.get("draw")
ATTACK: Final[dict[int, Action]] = {k: SPACE.get(f"attack:{C.ATTACK_VALUE[k]}") for k in C.ATTACKS}
COUNTDOWN: Final = SPACE.get("countdown")
DODGE: Final = SPACE.get("dodge")
SCOUT: Final = SPACE.get("scout")
SWEEP: Final = SPACE.get("sweep")
PAIR: Final[dict[int, Action]] = {h: SPACE.get(f"pair:{C.NAMES[h]}") for h in C.HOLDS}
TRIPLE: Final[dict[tuple[int, int, int], Action]] = {
    combo: SPACE.get("triple:" + "+".join(C.NAMES[h] for h in combo))
    for combo in combinations(C.HOLDS, 3)
}
TARGET: Final = tuple(SPACE.get(f"target:{s}") for s in range(MAX_SEATS))
NAME: Final[dict[int, Action]] = {k: SPACE.get(f"name:{C.NAMES[k]}") for k in C.NAMEABLE}
TAKE_RANDOM: Final = SPACE.get("take-random")
KEEP: Final = SPACE.get("keep")
REVERSE: Final = SPACE.get("reverse")
TAKE: Final = SPACE.get("take")
BLOCK: Final = SPACE.get("block")
CLINCH: Final[dict[int, Action]] = {h: SPACE.get(f"clinch:{C.NAMES[h]}") for h in C.HOLDS}
NO_RESPONSE: Final = SPACE.get("no-response")
HIDE: Final = tuple(SPACE.get(f"hide:{k}") for k in range(MAX_PILE + 1))
SCOUT_TAKE: Final = tuple(SPACE.get(f"scout-take:{i}") for i in range(3))
SCOUT_TAKE_NONE: Final = SPACE.get("scout-take:none")
ORDER: Final[dict[int, tuple[Action, ...]]] = {
    n: tuple(SPACE.get("order:" + ",".join(str(i) for i in p)) for p in permutations(range(n)))
    for n in (2, 3)
}

# reverse look-ups used by apply()
ATTACK_KIND: Final[dict[Action, int]] = {a: k for k, a in ATTACK.items()}
PAIR_HOLD: Final[dict[Action, int]] = {a: h for h, a in PAIR.items()}
TRIPLE_HOLDS: Final[dict[Action, tuple[int, int, int]]] = {a: c for c, a in TRIPLE.items()}
TARGET_SEAT: Final[dict[Action, int]] = {a: s for s, a in enumerate(TARGET)}
NAME_KIND: Final[dict[Action, int]] = {a: k for k, a in NAME.items()}
CLINCH_HOLD: Final[dict[Action, int]] = {a: h for h, a in CLINCH.items()}
HIDE_DEPTH: Final[dict[Action, int]] = {a: k for k, a in enumerate(HIDE)}
SCOUT_INDEX: Final[dict[Action, int]] = {a: i for i, a in enumerate(SCOUT_TAKE)}
ORDER_PERM: Final[dict[Action, tuple[int, ...]]] = {
    a: tuple(int(x) for x in a.text.split(":")[1].split(",")) for n in ORDER for a in ORDER[n]
}
