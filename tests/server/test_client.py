"""The Python seat client (``knockabout.server.client``) plays whole games through a real
server: a policy reading the encoded observation and mask, a knockabout bot deciding from
the view, and Knockdown with its tower puzzle given up; the server's record holds exactly
the client's moves, and a bad policy or token is one clear error."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest

from knockabout.cli.serve import server_config
from knockabout.core.errors import ActionParseError
from knockabout.core.registry import get_game
from knockabout.core.replay import GameRecord, replay
from knockabout.server import ServerSettings, create_app
from knockabout.server.client import ClientError, SeatClient, Turn, bot_policy
from tests.server.conftest import free_port, uvicorn_running

pytestmark = pytest.mark.timeout(240)
EXAMPLES = Path(__file__).parents[2] / "examples"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'k.db'}", store_writer="thread",
                                    bot_delay=0.0, bot_pace=0.0, create_rate="off", message_rate="off"))
    with uvicorn_running(server_config(app, "127.0.0.1", port, False)):
        yield f"http://127.0.0.1:{port}"


def _record(server: str, table: str) -> GameRecord:
    return GameRecord.from_dict(httpx.get(f"{server}/api/tables/{table}/record", timeout=30).json())


def test_a_policy_on_observations_plays_a_whole_game(server: str) -> None:
    seat = SeatClient.create(server, "nak-muay", ["random", "me", "random"], {"players": 3, "max_turns": 300})
    game = get_game("nak-muay")
    rng = np.random.default_rng(0)
    played: list[tuple[Turn, str]] = []

    def policy(turn: Turn) -> int:
        obs, mask = turn.observation(), turn.mask()
        assert obs.shape == (game.encoder().size,) and obs.dtype == np.float32  # type: ignore[union-attr]
        assert mask.sum() == len(turn.legal)
        code = int(rng.choice(np.flatnonzero(mask)))
        played.append((turn, game.actions[code].text))
        return code  # an action code

    outcome = seat.play(policy)
    assert seat.seat == 1 and played and seat.refusals == []
    assert len(outcome["payoffs"]) == 3
    # the server's record holds the client's move at each version it answered, and its end
    record = _record(server, seat.table)
    assert [record.actions[turn.version] for turn, _ in played] == [text for _, text in played]
    state = replay(record)
    assert state.outcome() is not None and state.outcome().to_dict() == outcome  # type: ignore[union-attr]
    # the observation a turn gave is the seat's own encoded view at that point of the record
    for turn, _ in played[:: max(1, len(played) // 5)]:
        again = replay(GameRecord.from_dict({**record.to_dict(), "actions": record.actions[: turn.version]}))
        want = np.frombuffer(game.encoder().encode(again.observe(1)), dtype=np.float32)  # type: ignore[union-attr]
        assert turn.observation().tobytes() == want.tobytes()


def test_a_knockabout_bot_plays_from_its_view(server: str) -> None:
    seat = SeatClient.create(server, "nak-muay", ["me", "easy"])
    outcome = seat.play(bot_policy("easy", "nak-muay", seed=3))
    assert sorted(outcome) == ["draw", "payoffs", "reason", "winners"] and seat.refusals == []


def test_knockdown_with_the_tower_given_up(server: str) -> None:
    seat = SeatClient.create(server, "knockdown", ["me", "random"], {"knockdown_test": "tower"})
    seen: list[dict[str, Any]] = []
    outcome = seat.play(lambda turn: turn.legal[-1], on_message=seen.append)
    assert outcome["payoffs"] and seat.refusals == [] and len(seen) == seat.messages
    # each tower test of the client's seat was recorded as failed (an empty answer)
    record = _record(server, seat.table)
    state = get_game("knockdown").new_state(record.config, record.seed)
    towers = 0
    for text in record.actions:
        d = state.to_act()
        assert d is not None
        if d.kind == "tower_challenge" and d.player == 0:
            assert d.timeout_action is not None and text == d.timeout_action.text
            towers += 1
        state.apply(text)
    assert state.outcome() is not None
    if any(m.get("challenge") for m in seen):  # a tower came up: it was answered, and failed
        assert towers >= 1


def test_an_illegal_choice_stops_before_anything_is_sent(server: str) -> None:
    seat = SeatClient.create(server, "knockback", ["me", "random"])
    with pytest.raises(ActionParseError, match="not legal now"):
        seat.play(lambda turn: "no-such-action")
    with pytest.raises(ActionParseError, match="not an action code"):
        seat.play(lambda turn: 10_000)
    facts = httpx.get(f"{server}/api/tables/{seat.table}", timeout=30).json()
    assert facts["version"] == 0 or facts["status"] == "playing"


def test_a_wrong_token_or_table_is_one_clear_error(server: str) -> None:
    seat = SeatClient.create(server, "nak-muay", ["me", "random"])
    with pytest.raises(ClientError, match=r"4403|connection ended"):
        SeatClient(server, seat.table, "not-the-token").play(lambda turn: turn.legal[0])
    with pytest.raises(ClientError, match="404"):
        SeatClient(server, "no-such-table", "x")
    with pytest.raises(ClientError, match="cannot reach"):
        SeatClient("http://127.0.0.1:9", "t", "x", timeout=2)


def test_joining_an_open_seat(server: str) -> None:
    made = httpx.post(f"{server}/api/tables", json={"game": "knockback", "seats": ["open", "random"]},
                      timeout=30).json()
    seat = SeatClient.join(server, made["id"], "agent", seat=0)
    assert seat.url.endswith(f"/t/{made['id']}") and seat.game.id == "knockback"
    outcome = seat.play(bot_policy("random", "knockback"))
    assert outcome["payoffs"] and seat.refusals == []


def _example() -> Any:
    spec = importlib.util.spec_from_file_location("remote_agent", EXAMPLES / "remote_agent.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_plays_a_bot_and_a_trained_policy(server: str, tmp_path: Path) -> None:
    example = _example()
    result = example.main(["--server", server, "--seats", "random,me", "--policy", "bot:random", "--wait", "60"])
    assert result["seat"] == 1 and result["outcome"]["payoffs"] and result["refused"] == []
    pytest.importorskip("sb3_contrib", reason="the trained policy needs the train extra")
    from sb3_contrib import MaskablePPO

    from knockabout.envs.gymnasium import KnockaboutGym

    model = MaskablePPO("MlpPolicy", KnockaboutGym("nak-muay", opponents="random"), n_steps=64, batch_size=32,
                        seed=0, device="cpu")
    model.learn(64)
    model.save(tmp_path / "ppo.zip")
    result = example.main(["--server", server, "--seats", "me,easy", "--model", str(tmp_path / "ppo.zip")])
    assert result["seat"] == 0 and result["outcome"]["payoffs"] and result["refused"] == []
