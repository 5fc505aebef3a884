"""AlphaZero-style self-play for any 2-player game: a search guided by the network, the
network trained toward what the search found. The brief comparison with PPO
(``selfplay_ppo.py``) that chose PPO for the ``learned`` level is in docs/envs.md.

    pip install 'knockabout[rl,train]'
    .venv/bin/python examples/selfplay_alphazero.py --game nak-muay --seconds 600 --out runs/az

Every decision of every self-play game is a PUCT search over determinizations (each
iteration re-deals what the deciding seat cannot see, ``State.determinize``, as ISMCTS
does, and walks one tree shared by all of them): a node's priors are the network's masked
softmax for the seat acting there, read from that seat's own observation in the sampled
world (the batched environment's state encoder); a new leaf is scored by the network's
value, not played out; values are backed up for the seat that chose. The move played is
drawn from the root's visit counts, which are also the policy target; the value target is
the seat's outcome reward (+1 win, -1 loss). After every ``--games`` games the network (the
same ``Net`` as ``selfplay_ppo.py``) takes ``--epochs`` passes of cross-entropy to the
visit counts plus squared error to the outcomes.

Checkpoints use ``selfplay_ppo.py``'s format (``--out/ckpt-<decisions>.pt``, ``latest.pt``;
``--resume``), so ``selfplay_ppo.py --checkpoint ... --export`` and ``benchmarks/league.py``
take them; at the end the greedy network is scored against ``--against`` levels on paired
deals (``selfplay_ppo.evaluate``). Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from selfplay_ppo import Net, evaluate

from knockabout.cli.options import parse_options
from knockabout.core.protocol import Game, State
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng
from knockabout.core.state_encoding import StateEncoder
from knockabout.envs.vector import encode_row, state_encoder_of


class Node:
    """One tree node: per action code its prior, visits and summed value (for the seat that
    chooses here)."""

    __slots__ = ("children", "n", "prior", "w")

    def __init__(self) -> None:
        self.prior: dict[int, float] | None = None
        self.n: dict[int, int] = {}
        self.w: dict[int, float] = {}
        self.children: dict[int, Node] = {}


class Searcher:
    """PUCT over determinizations, the network giving priors and leaf values."""

    def __init__(self, net: Net, game: Game[Any], iterations: int, c_puct: float = 1.5) -> None:
        self.net = net
        self.game = game
        self.encoder: StateEncoder = state_encoder_of(game)
        self.iterations = iterations
        self.c_puct = c_puct
        self.actions = len(game.actions)

    def evaluate(self, state: State, seat: int, legal_codes: list[int]) -> tuple[dict[int, float], float]:
        """The network's priors over ``legal_codes`` and its value, from ``seat``'s observation."""
        obs = torch.from_numpy(encode_row(self.encoder, state, seat))[None]
        mask = torch.zeros((1, self.actions), dtype=torch.bool)
        mask[0, legal_codes] = True
        with torch.no_grad():
            logits, value = self.net(obs, mask)
            p = torch.softmax(logits[0], 0)
        return {c: float(p[c]) for c in legal_codes}, float(value[0])

    def search(self, state: State, seat: int, rng: Rng) -> dict[int, int]:
        """Root visit counts for ``seat``'s decision in ``state`` (its view only is used)."""
        root = Node()
        for _ in range(self.iterations):
            s = state.determinize(seat, rng)
            node = root
            path: list[tuple[Node, int, int]] = []  # (node, action code, the seat that chose)
            while True:
                d = s.to_act()
                if d is None:
                    outcome = s.outcome()
                    assert outcome is not None
                    values = [2.0 * x - 1.0 for x in outcome.payoffs]
                    break
                legal = s.legal_actions()
                codes = [a.code for a in legal]
                if node.prior is None:
                    node.prior, v = self.evaluate(s, d.player, codes)
                    values = [v if p == d.player else -v for p in range(2)]
                    break
                total = sum(node.n.get(c, 0) for c in codes)
                root_n = math.sqrt(total + 1)
                best, best_score = legal[0], -math.inf
                for a in legal:
                    n = node.n.get(a.code, 0)
                    q = node.w[a.code] / n if n else 0.0
                    score = q + self.c_puct * node.prior.get(a.code, 1.0 / len(codes)) * root_n / (1 + n)
                    if score > best_score:
                        best, best_score = a, score
                path.append((node, best.code, d.player))
                node = node.children.setdefault(best.code, Node())
                s.apply(best)
            for nd, code, chooser in path:
                nd.n[code] = nd.n.get(code, 0) + 1
                nd.w[code] = nd.w.get(code, 0.0) + values[chooser]
        return root.n


def play_game(searcher: Searcher, game: Game[Any], seed: int, rng: Rng,
              config: dict[str, Any]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, float]]:
    """One self-play game: for each decision the observation, mask, visit distribution and the
    deciding seat's outcome reward."""
    state = game.new_state(config, seed, players=2)
    rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []
    while (d := state.to_act()) is not None:
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        visits = searcher.search(state, d.player, rng)
        pi = np.zeros(searcher.actions, np.float32)
        for code, n in visits.items():
            pi[code] = n
        if pi.sum() == 0:
            pi[[a.code for a in legal]] = 1.0
        pi /= pi.sum()
        mask = np.zeros(searcher.actions, np.bool_)
        mask[[a.code for a in legal]] = True
        rows.append((encode_row(searcher.encoder, state, d.player), mask, pi, d.player))
        pick = rng.random()
        cum = 0.0
        chosen = legal[-1]
        for a in legal:
            cum += float(pi[a.code])
            if pick < cum:
                chosen = a
                break
        state.apply(chosen)
    outcome = state.outcome()
    assert outcome is not None
    return [(obs, mask, pi, 2.0 * outcome.payoffs[p] - 1.0) for obs, mask, pi, p in rows]


def train(net: Net, opt: torch.optim.Optimizer, data: list[tuple[np.ndarray, np.ndarray, np.ndarray, float]],
          epochs: int, minibatch: int, gen: torch.Generator) -> dict[str, float]:
    """Cross-entropy to the visit counts plus squared error to the outcomes."""
    obs = torch.from_numpy(np.stack([r[0] for r in data]))
    mask = torch.from_numpy(np.stack([r[1] for r in data]))
    pi = torch.from_numpy(np.stack([r[2] for r in data]))
    z = torch.tensor([r[3] for r in data], dtype=torch.float32)
    stats = {"policy": 0.0, "value": 0.0}
    for _ in range(epochs):
        order = torch.randperm(len(data), generator=gen)
        for start in range(0, len(data), minibatch):
            j = order[start:start + minibatch]
            logits, value = net(obs[j], mask[j])
            logp = torch.log_softmax(logits, -1).masked_fill(~mask[j], 0.0)
            policy_loss = -(pi[j] * logp).sum(-1).mean()
            value_loss = ((value - z[j]) ** 2).mean()
            opt.zero_grad()
            (policy_loss + value_loss).backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()
            stats = {"policy": policy_loss.item(), "value": value_loss.item()}
    return stats


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="nak-muay")
    ap.add_argument("--seconds", type=float, default=600.0, help="wall time to train for (then evaluate)")
    ap.add_argument("--iterations", type=int, default=32, help="search iterations a decision")
    ap.add_argument("--games", type=int, default=16, help="self-play games between updates")
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--minibatch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--eval", type=int, default=50, help="paired deals of the final evaluation (0: none)")
    ap.add_argument("--against", default="easy")
    ap.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--out", default="runs/alphazero")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    options = parse_options(args.option)
    game = get_game(args.game)
    net = Net(state_encoder_of(game).size, len(game.actions), args.hidden)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    gen = torch.Generator().manual_seed(args.seed)
    decisions, updates, games = 0, 0, 0
    if args.resume and (out / "latest.pt").exists():
        ck = torch.load(out / "latest.pt", weights_only=False)
        net.load_state_dict(ck["net"])
        opt.load_state_dict(ck["opt"])
        gen.set_state(ck["generator"])
        decisions, updates, games = ck["steps"], ck["updates"], ck["games"]
    rng = Rng(args.seed * 1_000_003 + games)
    searcher = Searcher(net, game, args.iterations)
    started = time.perf_counter()
    stats: dict[str, float] = {}
    while time.perf_counter() - started < args.seconds:
        data = []
        for _ in range(args.games):
            data += play_game(searcher, game, args.seed * 1_000_003 + games, rng, options)
            games += 1
        stats = train(net, opt, data, args.epochs, args.minibatch, gen)
        decisions += len(data)
        updates += 1
        ck = {"net": net.state_dict(), "opt": opt.state_dict(), "generator": gen.get_state(), "steps": decisions,
              "updates": updates, "games": games, "game": args.game, "hidden": args.hidden, "options": options,
              "method": "alphazero"}
        torch.save(ck, out / f"ckpt-{decisions}.pt")
        torch.save(ck, out / "latest.pt")
    seconds = time.perf_counter() - started
    levels = args.against.split(",") if args.eval else []
    result = {"game": args.game, "method": "alphazero", "decisions": decisions, "games": games, "updates": updates,
              "train_seconds": round(seconds, 1), "decisions_per_s": round(decisions / seconds, 1) if seconds else 0,
              **stats, "eval": [evaluate(net, args.game, level, args.eval, config=options) for level in levels]}
    with (out / "scores.jsonl").open("a") as f:
        f.write(json.dumps(result) + "\n")
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
