"""Connect an agent to a table of a running knockabout server, where people play it in the browser.

    .venv/bin/knockabout serve &                                   # http://127.0.0.1:8000
    # a trained policy (examples/train_maskable_ppo.py --save nakmuay_ppo.zip) against a person:
    .venv/bin/python examples/remote_agent.py --seats me,open --model nakmuay_ppo.zip
    # a knockabout bot deciding from its view, against an easy bot, on an existing table:
    .venv/bin/python examples/remote_agent.py --table TABLE_ID --seat 1 --policy bot:random

With ``--seats`` the agent makes a table (``me`` is its own seat; ``open`` a seat for a
person, who opens the printed link and takes it; a bot level for a bot) and waits for the
game to start; with ``--table`` it joins a free seat of an existing one. Then it plays
its seat to the end over the WebSocket protocol (``knockabout.server.client.SeatClient``)
and prints one JSON line with the outcome.

The policy is any callable from a :class:`~knockabout.server.client.Turn` to an action:
here ``--model`` (an sb3-contrib MaskablePPO checkpoint, fed the same observation and
mask it was trained on), ``--policy random`` (uniform among the legal actions) or
``--policy bot:LEVEL`` (a knockabout bot deciding from the seat's view).
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from knockabout.server.client import Policy, SeatClient, Turn, bot_policy


def model_policy(path: str) -> Policy:
    """A MaskablePPO checkpoint as a policy (needs the ``train`` extra)."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(path, device="cpu")

    def policy(turn: Turn) -> int:
        action, _ = model.predict(turn.observation(), action_masks=turn.mask(), deterministic=True)
        return int(action)

    return policy


def random_policy(seed: int) -> Policy:
    rng = random.Random(seed)

    def policy(turn: Turn) -> str:
        return rng.choice(turn.legal)

    return policy


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--server", default="http://127.0.0.1:8000", help="the server's address")
    ap.add_argument("--game", default="nak-muay", help="the game of a new table")
    ap.add_argument("--seats", default="me,easy", help="a new table's seats, comma-separated (me: the agent)")
    ap.add_argument("--config", default="{}", help="a new table's options as JSON")
    ap.add_argument("--table", default="", help="join this table instead of making one")
    ap.add_argument("--seat", type=int, default=None, help="with --table: which free seat")
    ap.add_argument("--name", default="agent", help="the agent's name at the table")
    ap.add_argument("--model", default="", help="a MaskablePPO checkpoint to play with")
    ap.add_argument("--policy", default="random", help="without --model: random, or bot:LEVEL")
    ap.add_argument("--seed", type=int, default=0, help="the policy's own random seed")
    ap.add_argument("--wait", type=float, default=600, help="seconds to wait for a move (a person thinking)")
    args = ap.parse_args(argv)

    if args.table:
        seat = SeatClient.join(args.server, args.table, args.name, seat=args.seat, timeout=args.wait)
    else:
        seat = SeatClient.create(args.server, args.game, args.seats.split(","), json.loads(args.config),
                                 name=args.name, timeout=args.wait)
        print(f"playing at {seat.url}", flush=True)
    if args.model:
        policy = model_policy(args.model)
    elif args.policy.startswith("bot:"):
        policy = bot_policy(args.policy.removeprefix("bot:"), seat.game.id, seed=args.seed)
    else:
        policy = random_policy(args.seed)
    outcome = seat.play(policy)
    result = {"table": seat.table, "seat": seat.seat, "outcome": outcome, "refused": seat.refusals}
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
