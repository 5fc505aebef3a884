"""Every action of Knockdown, with a fixed integer code.

Texts:
  skill:I / faceup:I        the skill draft: keep card I of those offered; which kept card is face up
  row:I                     take the card in Attack Row slot I (opening pick, take-from-row effects)
  move:DIR                  move (action, Dash, effect step): DIR = up, down, left, right
  attack:I                  Attack with the card in Attack Row slot I
  combo / combo:end         start a Combo / end it
  special:K / dash:I        in a Combo: Special Attack K of your sheet / discard hand card I for its Dashes
  pay:I+J+...               pay a cost with these hand cards
  corridor:S / potion       Technical Corridor to space S / drink a Potion (not actions)
  pass                      only when no action is possible
  stop / done               end optional movement / end a "discard any number" choice
  space:S                   the destination of a Blink
  card:I                    a card of a hand (discard, reveal)
  count:N                   how many tokens to spend
  block:none | block:wounds:H | block:effect | block:both:H   answer a Strike (H = heavy wounds ignored)
  react:K / react:none      use Reaction K of your sheet, or let it go
  ko:test / ko:skip         start a Knockdown Test after a K.O. attack, or not
  tower:pass / tower:fail   the tower challenge's verdict (a live server only accepts pass after checking)
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from knockabout.core.actions import Action, ActionSpace
from knockabout.games.knockdown.content.match import DIRS
from knockabout.games.knockdown.content.vocabulary import MAX_SPACES, MAX_SPECIALS

MAX_HAND: Final = 8  # 6 + a +1 skill + the card just taken
MAX_BLOCK_HEAVY: Final = 4
MAX_COUNT: Final = 6


def _pay_texts() -> list[str]:
    out = []
    for k in range(1, MAX_HAND + 1):
        for combo in combinations(range(MAX_HAND), k):
            out.append("pay:" + "+".join(str(i) for i in combo))
    return out


def _texts() -> list[str]:
    t = [f"skill:{i}" for i in range(3)] + [f"faceup:{i}" for i in range(2)]
    t += [f"row:{i}" for i in range(4)]
    t += [f"move:{d}" for d in DIRS]
    t += [f"attack:{i}" for i in range(4)]
    t += ["combo", "combo:end", "pass", "potion", "stop", "done"]
    t += [f"special:{k}" for k in range(MAX_SPECIALS)]
    t += [f"dash:{i}" for i in range(MAX_HAND)]
    t += _pay_texts()
    t += [f"corridor:{s}" for s in range(MAX_SPACES)]
    t += [f"space:{s}" for s in range(MAX_SPACES)]
    t += [f"card:{i}" for i in range(MAX_HAND)]
    t += [f"count:{n}" for n in range(MAX_COUNT + 1)]
    t += ["block:none", "block:effect"]
    t += [f"block:wounds:{h}" for h in range(MAX_BLOCK_HEAVY + 1)]
    t += [f"block:both:{h}" for h in range(MAX_BLOCK_HEAVY + 1)]
    t += [f"react:{k}" for k in range(MAX_SPECIALS)] + ["react:none"]
    t += ["ko:test", "ko:skip", "tower:pass", "tower:fail"]
    return t


SPACE: Final[ActionSpace] = ActionSpace("knockdown", _texts())

SKILL: Final[tuple[Action, ...]] = tuple(SPACE.get(f"skill:{i}") for i in range(3))
FACEUP: Final[tuple[Action, ...]] = tuple(SPACE.get(f"faceup:{i}") for i in range(2))
ROW: Final[tuple[Action, ...]] = tuple(SPACE.get(f"row:{i}") for i in range(4))
MOVE: Final[tuple[Action, ...]] = tuple(SPACE.get(f"move:{d}") for d in DIRS)
ATTACK: Final[tuple[Action, ...]] = tuple(SPACE.get(f"attack:{i}") for i in range(4))
COMBO: Final[Action] = SPACE.get("combo")
COMBO_END: Final[Action] = SPACE.get("combo:end")
PASS: Final[Action] = SPACE.get("pass")
POTION: Final[Action] = SPACE.get("potion")
STOP: Final[Action] = SPACE.get("stop")
DONE: Final[Action] = SPACE.get("done")
SPECIAL: Final[tuple[Action, ...]] = tuple(SPACE.get(f"special:{k}") for k in range(MAX_SPECIALS))
DASH: Final[tuple[Action, ...]] = tuple(SPACE.get(f"dash:{i}") for i in range(MAX_HAND))
PAY: Final[dict[int, Action]] = {}
for _a in SPACE:
    if _a.text.startswith("pay:"):
        PAY[sum(1 << int(i) for i in _a.text[4:].split("+"))] = _a
CORRIDOR: Final[tuple[Action, ...]] = tuple(SPACE.get(f"corridor:{s}") for s in range(MAX_SPACES))
PLACE: Final[tuple[Action, ...]] = tuple(SPACE.get(f"space:{s}") for s in range(MAX_SPACES))
CARD: Final[tuple[Action, ...]] = tuple(SPACE.get(f"card:{i}") for i in range(MAX_HAND))
COUNT: Final[tuple[Action, ...]] = tuple(SPACE.get(f"count:{n}") for n in range(MAX_COUNT + 1))
BLOCK_NONE: Final[Action] = SPACE.get("block:none")
BLOCK_EFFECT: Final[Action] = SPACE.get("block:effect")
BLOCK_WOUNDS: Final[tuple[Action, ...]] = tuple(SPACE.get(f"block:wounds:{h}") for h in range(MAX_BLOCK_HEAVY + 1))
BLOCK_BOTH: Final[tuple[Action, ...]] = tuple(SPACE.get(f"block:both:{h}") for h in range(MAX_BLOCK_HEAVY + 1))
REACT: Final[tuple[Action, ...]] = tuple(SPACE.get(f"react:{k}") for k in range(MAX_SPECIALS))
REACT_NONE: Final[Action] = SPACE.get("react:none")
KO_TEST: Final[Action] = SPACE.get("ko:test")
KO_SKIP: Final[Action] = SPACE.get("ko:skip")
TOWER_PASS: Final[Action] = SPACE.get("tower:pass")
TOWER_FAIL: Final[Action] = SPACE.get("tower:fail")

# reverse look-ups: action -> its number
INDEX: Final[dict[Action, int]] = {}
for _group in (SKILL, FACEUP, ROW, MOVE, ATTACK, SPECIAL, DASH, CORRIDOR, PLACE, CARD, COUNT, BLOCK_WOUNDS,
               BLOCK_BOTH, REACT):
    for _i, _a in enumerate(_group):
        INDEX[_a] = _i
PAY_MASK: Final[dict[Action, int]] = {a: m for m, a in PAY.items()}
