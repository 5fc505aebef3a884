"""Golden records: seeded games recorded before a refactor must replay to the same states
and views, and bots must make the same choices from the same seeds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from knockabout.core.registry import get_game
from knockabout.core.replay import GameRecord, replay
from tests.golden.fingerprint import Fingerprint, play_bots

HERE = Path(__file__).parent
RECORDS: list[dict[str, Any]] = json.loads((HERE / "records.json").read_text())
BOT_GAMES: list[dict[str, Any]] = json.loads((HERE / "bot_games.json").read_text())


def _id(r: dict[str, Any]) -> str:
    rec = r["record"]
    return f"{rec['game']}-{rec['seed']}-{json.dumps(rec['config'], sort_keys=True)}"


def test_at_least_twenty_records_a_game() -> None:
    for game_id in ("nak-muay", "knockback", "knockdown"):
        assert sum(r["record"]["game"] == game_id for r in RECORDS) >= 20


@pytest.mark.parametrize("golden", RECORDS, ids=[_id(r) for r in RECORDS])
def test_record_replays_to_the_same_states_and_views(golden: dict[str, Any]) -> None:
    rec = GameRecord.from_dict(golden["record"])
    game = get_game(rec.game)
    assert rec.rules_version == game.rules_version, "rules version changed: regenerate with a reason"
    state = game.new_state(rec.config, rec.seed)
    fp = Fingerprint()
    fp.add(state)
    for action in rec.actions:
        state.apply(action)
        fp.add(state)
    assert fp.result() == golden["fingerprint"]
    outcome = state.outcome()
    assert (None if outcome is None else outcome.to_dict()) == golden["outcome"]
    # the checked replay entry point agrees
    assert replay(rec).to_dict() == state.to_dict()


@pytest.mark.parametrize("golden", BOT_GAMES, ids=[f"{g['game']}-{'-'.join(g['levels'])}" for g in BOT_GAMES])
def test_bots_make_the_same_choices(golden: dict[str, Any]) -> None:
    got = play_bots(golden["game"], golden["config"], golden["seed"], tuple(golden["levels"]), golden["cap"])
    assert got["actions"] == golden["actions"]
