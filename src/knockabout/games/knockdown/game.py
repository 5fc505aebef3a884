"""The Knockdown game object (registered as ``knockdown``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from pydantic import BaseModel

from knockabout.core import content_versions
from knockabout.core.errors import ConfigError
from knockabout.core.plugins import (
    BalancePlugin,
    BotBudgets,
    GameFacts,
    HeuristicPlugin,
    Maker,
    TurnBasedRules,
)
from knockabout.core.protocol import Game, State
from knockabout.core.rng import Rng
from knockabout.core.view import View
from knockabout.games.knockdown import actions as A
from knockabout.games.knockdown.config import KnockdownConfig, turn_based_refusal
from knockabout.games.knockdown.content.loader import boxes_for, builtin_boxes
from knockabout.games.knockdown.content.match import Picks, build_setup
from knockabout.games.knockdown.presentation.view import KnockdownView
from knockabout.games.knockdown.state import KnockdownState

SET_LABEL = "knockabout original set"


def resolve_picks(cfg: KnockdownConfig, rng: Rng, version: str | None = None) -> Picks:
    """Fighters, skill set and arena for a match: named ones checked, random ones drawn
    (from the shipped boxes, or those of the content version at ``version``)."""
    boxes = boxes_for(version)
    in_play = list(cfg.boxes)
    pool = [(b, f.id) for b in in_play for f in boxes[b].fighters]
    chosen: list[tuple[str, str] | None] = []
    for seat, name in enumerate(cfg.fighters):
        if name == "random":
            chosen.append(None)
            continue
        box, _, fid = name.rpartition(":")
        matches = [(b, f) for b, f in pool if f == fid and (not box or b == box)]
        if not matches:
            known = ", ".join(f for _, f in pool)
            raise ConfigError(f"knockdown: fighters[{seat}]: no fighter {name!r} in boxes "
                              f"{', '.join(in_play)} (known: {known}, or random)",
                              plain=f"Fighters: seat {seat + 1}'s fighter is not in a box in play; choose another, "
                              "or Random.")
        chosen.append(matches[0])
    if chosen[0] is not None and chosen[0] == chosen[1]:
        same = next(f.name for f in boxes[chosen[0][0]].fighters if f.id == chosen[0][1])
        raise ConfigError(f"knockdown: fighters: both seats chose {chosen[0][1]!r}; pick two different fighters",
                          plain=f"Both players chose {same}: pick two different fighters.")
    for seat in (0, 1):
        if chosen[seat] is None:
            free = [f for f in pool if f not in chosen]
            chosen[seat] = free[rng.below(len(free))]
    picks_f: list[tuple[str, str]] = [c for c in chosen if c is not None]

    def box_of(option: str, value: str) -> str:
        if value == "random":
            return in_play[rng.below(len(in_play))]
        if value not in in_play:
            raise ConfigError(f"knockdown: {option}: {value!r} is not one of the boxes in play "
                              f"({', '.join(in_play)}) nor random",
                              plain=f"{option.capitalize()}: choose a box that is in play, or Random.")
        return value

    arena = box_of("arena", cfg.arena)
    skills = box_of("skills", cfg.skills)
    return Picks((picks_f[0], picks_f[1]), skills, arena)


class KnockdownGame(Game[KnockdownConfig]):
    id: ClassVar[str] = "knockdown"
    name: ClassVar[str] = "Knockdown"
    rules_version: ClassVar[str] = "1.2"
    web_renderer: ClassVar[str | None] = "web/renderer.js"
    tutorial: ClassVar[str | None] = "tutorial.toml"
    facts: ClassVar[GameFacts] = GameFacts(
        min_players=2,
        max_players=2,
        default_players=2,
        hidden_information=True,
        chance="seeded",
        timed_decisions=True,
        decision_kinds=frozenset({
            "blink", "block", "choose_card", "combo", "knockdown", "move_step", "opening_pick", "pay",
            "reaction", "skill_draft", "skill_face_up", "take_from_row", "token_count", "tower_challenge", "turn",
        }),
        outcome_reasons=frozenset({"knockdown", "fewest wounds", "turn limit"}),
        length_unit="turns",
    )
    view_type: ClassVar[type[View]] = KnockdownView
    state_type: ClassVar[type[State] | None] = KnockdownState
    config_model: ClassVar[type[BaseModel]] = KnockdownConfig

    # Knockdown's actions cost about five times Nak Muay's (`knockabout bench`)
    budgets: ClassVar[BotBudgets] = BotBudgets(steps={"fallback": 1_000, "medium": 6_000, "hard": 30_000})
    plug_ins: ClassVar[Mapping[str, str]] = {  # where each plug-in lives (see Game.plug_ins)
        "lobby": "presentation.lobby:lobby_info()",
        "terminal_renderer": "presentation.terminal:RENDERER",
        "guide": "presentation.guide:GUIDE",
        "content_editor": "editor:BoxEditor()",
        "encoder": "presentation.encoding:KnockdownEncoder()",
        "state_encoder": "presentation.state_encoding:KnockdownStateEncoder()",
        "narrate": "presentation.narration:narrate",
        "validate_content": "content.loader:validate_path",
        "content_hash": "content.loader:content_hash",
    }

    def __init__(self) -> None:
        self.actions = A.SPACE

    def new_state(
        self, config: Mapping[str, Any] | BaseModel | None = None, seed: int = 0, *, players: int | None = None
    ) -> KnockdownState:
        self.check_players(players)
        return self.deal(self.make_config(config), seed)

    def deal(self, cfg: KnockdownConfig, seed: int, version: str | None = None) -> KnockdownState:
        """A fresh match of ``cfg`` played with the shipped boxes, or with those of the
        content version at ``version`` (``balance compare``) or of the uploaded version
        ``cfg.content`` names, all randomness from ``seed``."""
        rng = Rng(seed)
        if version is None and cfg.content:  # an uploaded version: the picks name it (serde reloads it)
            picks = replace(resolve_picks(cfg, rng, str(content_versions.folder(self.id, cfg.content))),
                            content=cfg.content)
        else:
            picks = resolve_picks(cfg, rng, version)
        # one cached setup per picks: the same call a saved state's reload makes (serde)
        setup = build_setup(picks) if version is None else build_setup(picks, version)
        return KnockdownState.start(setup, (cfg.knockdown_test, cfg.tower_skill, cfg.tower_decay, cfg.max_turns,
                                            cfg.tower_timer, cfg.rounds_to_win, cfg.hand_limit), rng)

    def arrange(
        self, config: Mapping[str, Any] | BaseModel | None, arrangement: Mapping[str, Any], seed: int = 0
    ) -> KnockdownState:
        from knockabout.games.knockdown.arrange import KnockdownArrangement, arrange_match

        cfg = self.make_config(config)
        return self.arranged(KnockdownArrangement, arrangement, lambda arr: arrange_match(self.deal(cfg, seed), arr))

    def heuristic(self) -> HeuristicPlugin:
        from knockabout.games.knockdown import heuristic as h

        return HeuristicPlugin(
            bot=h.HeuristicBot,
            rollout_policy=h.rollout_policy,
            rollout_value=h.rollout_value,
            rollout_depth=h.ROLLOUT_DEPTH,
        )

    def turn_based(self) -> TurnBasedRules:
        return TurnBasedRules(options={"tower_timer": "when_opened"}, refusal=turn_based_refusal)

    def challenges(self) -> Mapping[str, Maker]:
        from knockabout.games.knockdown.challenge import tower_puzzle

        return {"tower_challenge": tower_puzzle}

    def balance(self) -> BalancePlugin:
        from knockabout.games.knockdown.balance import KnockdownBalance

        return KnockdownBalance(self)

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d["content"] = SET_LABEL
        boxes = builtin_boxes()
        # values the free-text options take (for `knockabout games` and menus)
        d["choices"] = {
            "fighters": ["random", *(f.id for b in boxes.values() for f in b.fighters)],
            "arena": ["random", *boxes],
            "skills": ["random", *boxes],
        }
        return d


GAME = KnockdownGame()
KnockdownState.game = GAME
