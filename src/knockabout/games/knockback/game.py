"""The KNOCKBACK game object (registered as ``knockback``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from knockabout.core import content_versions
from knockabout.core.errors import ConfigError, ContentError
from knockabout.core.plugins import (
    BalancePlugin,
    BotBudgets,
    GameFacts,
    HeuristicPlugin,
)
from knockabout.core.protocol import Game, State
from knockabout.core.rng import Rng
from knockabout.core.view import View
from knockabout.games.knockback import actions as A
from knockabout.games.knockback import content
from knockabout.games.knockback.cards import SET_LABEL
from knockabout.games.knockback.config import KnockbackConfig
from knockabout.games.knockback.content import Pack
from knockabout.games.knockback.state import KnockbackState
from knockabout.games.knockback.view import KnockbackView


def choose_packs(requested: Sequence[str], packs: Sequence[Pack], rng: Rng) -> list[Pack]:
    """Resolve pack ids (or ``"random"``) to packs. Named packs first; each random one
    is drawn from the packs not chosen yet (any pack once all are taken)."""
    by_id = {p.id: p for p in packs}
    chosen: list[Pack | None] = []
    for req in requested:
        if req == "random":
            chosen.append(None)
        elif req in by_id:
            chosen.append(by_id[req])
        else:
            known = ", ".join(sorted(by_id))
            raise ConfigError(f"knockback: unknown pack {req!r}; known packs: {known} (or 'random')",
                              plain="Packs: that pack is not one of this table's; choose another, or Random.")
    for i, c in enumerate(chosen):
        if c is None:
            taken = {p.id for p in chosen if p is not None}
            free = [p for p in packs if p.id not in taken] or list(packs)
            chosen[i] = free[rng.below(len(free))]
    return [c for c in chosen if c is not None]


class KnockbackGame(Game[KnockbackConfig]):
    id: ClassVar[str] = "knockback"
    name: ClassVar[str] = "KNOCKBACK 'til they croak"
    rules_version: ClassVar[str] = "1.0"
    web_renderer: ClassVar[str | None] = "web/renderer.js"
    tutorial: ClassVar[str | None] = "tutorial.toml"
    facts: ClassVar[GameFacts] = GameFacts(
        min_players=2,
        max_players=2,
        default_players=2,
        # the draft line-ups deal hands the other seat does not see (the board itself is open)
        hidden_information=True,
        chance="seeded",
        timed_decisions=False,
        decision_kinds=frozenset({"draft", "place", "punch_edge", "symbol", "turn"}),
        outcome_reasons=frozenset({
            "won with the score token", "won the round", "won the most rounds", "drawn round", "round limit",
        }),
    )
    view_type: ClassVar[type[View]] = KnockbackView
    state_type: ClassVar[type[State] | None] = KnockbackState
    config_model: ClassVar[type[BaseModel]] = KnockbackConfig

    # KNOCKBACK searches without playouts (each leaf is scored by the board estimate, see
    # the heuristic's ROLLOUT_DEPTH): 600 iterations is about 0.1 s a decision and beats
    # `easy`; a match asks several hundred decisions of each side
    budgets: ClassVar[BotBudgets] = BotBudgets(iterations={"medium": 120, "hard": 600})
    plug_ins: ClassVar[Mapping[str, str]] = {  # where each plug-in lives (see Game.plug_ins)
        "lobby": "lobby:lobby_info()",
        "terminal_renderer": "terminal:RENDERER",
        "guide": "guide:GUIDE",
        "content_editor": "editor:PackEditor()",
        "encoder": "encoding:KnockbackEncoder()",
        "state_encoder": "state_encoding:KnockbackStateEncoder()",
        "narrate": "narration:narrate",
        "validate_content": "content:validate_file",
        "content_hash": "content:content_hash",
    }

    def __init__(self) -> None:
        self.actions = A.SPACE

    def packs(self, pack_files: Sequence[str] = (), version: str = "") -> tuple[Pack, ...]:
        """The packs a table can use: the built-in set plus any extra pack files, and the
        packs of the uploaded content version ``version`` (an id) if any."""
        extra = [*pack_files, *([str(content_versions.folder(self.id, version))] if version else [])]
        try:
            return content.available_packs(extra)
        except ContentError as exc:
            raise ConfigError(f"knockback: {'content' if version else 'pack_files'}: {exc}") from None

    def new_state(
        self, config: Mapping[str, Any] | BaseModel | None = None, seed: int = 0, *, players: int | None = None
    ) -> KnockbackState:
        self.check_players(players)
        cfg = self.make_config(config)
        return self.deal(cfg, self.packs(cfg.pack_files, cfg.content), seed)

    def deal(self, cfg: KnockbackConfig, packs: Sequence[Pack], seed: int) -> KnockbackState:
        """A fresh game of ``cfg`` whose packs come from ``packs`` (the built-in set, or a
        content version being compared), all randomness drawn from ``seed``."""
        rng = Rng(seed)
        requested = (cfg.draft_packs or ("random",) * 4) if cfg.lineup == "draft4" else cfg.packs
        chosen = choose_packs(requested, packs, rng)
        return KnockbackState.start(
            pool=[c for p in chosen for c in p.cards],
            lineup=[[0, 1, 2], [3, 4, 5]] if cfg.lineup == "packs" else None,
            whole_line=cfg.knockback == "whole_line",
            knockout_on_tie=cfg.knockout_on_tie,
            alternate_starts=cfg.alternate_starts,
            scoring=cfg.scoring,
            best_of=cfg.best_of,
            max_turns=cfg.max_turns,
            max_rounds=cfg.max_rounds,
            rng=rng,
        )

    def arrange(
        self, config: Mapping[str, Any] | BaseModel | None, arrangement: Mapping[str, Any], seed: int = 0
    ) -> KnockbackState:
        from knockabout.games.knockback.arrange import KnockbackArrangement, arrange_round

        cfg = self.make_config(config)
        return self.arranged(KnockbackArrangement, arrangement, lambda arr: arrange_round(
            self.deal(cfg, self.packs(cfg.pack_files, cfg.content), seed), arr))

    def heuristic(self) -> HeuristicPlugin:
        from knockabout.games.knockback import heuristic as h

        return HeuristicPlugin(
            bot=h.HeuristicBot,
            rollout_value=h.rollout_value,
            rollout_depth=h.ROLLOUT_DEPTH,
            search_prior_visits=h.SEARCH_PRIOR_VISITS,
        )

    def balance(self) -> BalancePlugin:
        from knockabout.games.knockback.balance import KnockbackBalance

        return KnockbackBalance(self)

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d["content"] = SET_LABEL
        d["packs"] = [
            {
                "id": p.id,
                "name": p.name,
                "style": p.style,
                "description": p.description,
                "set": SET_LABEL,
                "cards": [c.summary for c in p.cards],
            }
            for p in content.builtin_packs()
        ]
        ids = ["random", *(p["id"] for p in d["packs"])]
        d["choices"] = {"packs": ids, "draft_packs": ids}  # values the free-text options take
        return d


GAME = KnockbackGame()
KnockbackState.game = GAME
