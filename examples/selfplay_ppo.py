"""Train a policy and value network by self-play, for any game, on the batched environment.

    pip install 'knockabout[rl,train]'                     # numpy, Gymnasium, CPU PyTorch
    .venv/bin/python examples/selfplay_ppo.py --game knockback --steps 2000000 --out runs/kb
    .venv/bin/python examples/selfplay_ppo.py --game knockback --steps 4000000 --out runs/kb --resume

Every seat of every game is played by the same network (self-play): ``VectorEnv`` steps
``--envs`` games at once and gives the acting seat's observation and legal-action mask;
the network samples a legal action (illegal codes masked out of the softmax), and each
seat's decisions in a game form that seat's own trajectory, rewarded with its outcome
reward when the game ends (``VectorEnv.final_rewards``). Updates are PPO (clipped
objective, GAE with lambda 0.95, no discounting: a game's only reward is its outcome).

Checkpoints: every ``--every`` updates the network, the optimiser, the counters and the
random generators go to ``--out/ckpt-<agent steps>.pt`` (and ``latest.pt``). ``--resume``
continues from ``latest.pt``: the same weights, optimiser moments and generators, the
next games dealt from a seed derived from the step count.

Export for the ``learned`` bot level: ``--export FILE`` writes the network as a numpy
``.npz`` archive (the format :mod:`knockabout.bots.learned` reads, no PyTorch needed to
play it) when the run ends; with ``--checkpoint CKPT`` it converts that checkpoint and
trains nothing:

    .venv/bin/python examples/selfplay_ppo.py --game nak-muay --checkpoint runs/nm/ckpt-401408.pt \
        --export src/knockabout/games/nakmuay/learned.npz Each checkpoint is evaluated on
paired deals (each deal played twice, seats swapped) against bot levels (``--against``),
the network playing greedily; the scores, with 95 % Wilson intervals, go to
``--out/scores.jsonl``. Prints one JSON line at the end.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from knockabout.bots.levels import make_bot
from knockabout.cli.options import parse_options
from knockabout.core.bot import SeatView
from knockabout.core.registry import get_game
from knockabout.core.rng import Rng
from knockabout.envs.vector import VectorEnv, encode_row, state_encoder_of
from knockabout.sim.stats import wilson


class Net(nn.Module):
    """Observation -> (masked action logits, value of the position for the seat to act)."""

    def __init__(self, size: int, actions: int, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(obs)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, self.v(h).squeeze(-1)


def export(net: Net, path: Path, game_id: str, trained: dict[str, Any]) -> None:
    """Write ``net`` as the numpy archive the ``learned`` level plays (``knockabout.bots.learned``):
    its hidden layers, policy and value heads as float32 arrays, and what it was trained on."""
    game = get_game(game_id)
    linear = [m for m in net.body if isinstance(m, nn.Linear)]
    arrays = {}
    for i, layer in enumerate(linear):
        arrays[f"hidden.{i}.weight"] = layer.weight.detach().numpy().astype(np.float32)
        arrays[f"hidden.{i}.bias"] = layer.bias.detach().numpy().astype(np.float32)
    for name, head in (("policy", net.pi), ("value", net.v)):
        arrays[f"{name}.weight"] = head.weight.detach().numpy().astype(np.float32)
        arrays[f"{name}.bias"] = head.bias.detach().numpy().astype(np.float32)
    meta = {"game": game.id, "rules_version": game.rules_version, "size": linear[0].in_features,
            "actions": net.pi.out_features, "activation": "tanh", "trained": trained}
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        np.savez_compressed(f, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)


def trained_on(ck: dict[str, Any]) -> dict[str, Any]:
    """What a checkpoint's network was trained on, as the exported file records it."""
    return {"method": "PPO self-play (examples/selfplay_ppo.py)", "steps": ck["steps"], "games": ck["games"],
            "players": 2, "options": ck.get("options", {}), "hidden": ck["hidden"]}


def advantages(rewards: np.ndarray, values: np.ndarray, nxt: np.ndarray, terminal: np.ndarray,
               lam: float) -> np.ndarray:
    """GAE along each seat's own trajectory (``nxt[k]``: the index of that seat's next decision
    in the same game, -1 when none was collected); an unfinished trajectory's last decision
    bootstraps from its own value."""
    adv = np.zeros_like(values)
    for k in range(len(values) - 1, -1, -1):
        n = nxt[k]
        if n >= 0:
            adv[k] = values[n] - values[k] + lam * adv[n]
        elif terminal[k]:
            adv[k] = rewards[k] - values[k]
    return adv


Batch = tuple[np.ndarray, np.ndarray, np.ndarray]
"""The environment's current observations, masks and seats (copies)."""


def collect(env: VectorEnv, net: Net, steps: int, gen: torch.Generator,
            now: Batch) -> tuple[dict[str, np.ndarray], int, Batch]:
    """``steps`` batched steps of self-play from ``now``: the transitions, how many games
    ended, and where the environment stands after them."""
    obs, mask, seat = now
    b = env.batch
    n = steps * b
    buf = {
        "obs": np.zeros((n, env.size), np.float32), "mask": np.zeros((n, env.actions), np.bool_),
        "action": np.zeros(n, np.int64), "logp": np.zeros(n, np.float32), "value": np.zeros(n, np.float32),
        "reward": np.zeros(n, np.float32), "terminal": np.zeros(n, np.bool_), "next": np.full(n, -1, np.int64),
    }
    last: dict[tuple[int, int], int] = {}  # (game, seat) -> index of its latest decision
    ended = 0
    for t in range(steps):
        at = slice(t * b, (t + 1) * b)
        with torch.no_grad():
            logits, value = net(torch.from_numpy(obs), torch.from_numpy(mask))
            dist = torch.distributions.Categorical(logits=logits)
            action = torch.multinomial(dist.probs, 1, generator=gen).squeeze(1)
            logp = dist.log_prob(action)
        buf["obs"][at], buf["mask"][at] = obs, mask
        buf["action"][at], buf["logp"][at], buf["value"][at] = action.numpy(), logp.numpy(), value.numpy()
        for i in range(b):
            k = t * b + i
            prev = last.get((i, int(seat[i])))
            if prev is not None:
                buf["next"][prev] = k
            last[(i, int(seat[i]))] = k
        obs, mask, _reward, done, seat = env.step(action.numpy())
        obs, mask, seat = obs.copy(), mask.copy(), seat.copy()
        for i in np.flatnonzero(done):
            ended += 1
            for p in range(env.players):
                k = last.pop((int(i), p), None)
                if k is not None:
                    buf["reward"][k] = env.final_rewards[i, p]
                    buf["terminal"][k] = True
    return buf, ended, (obs, mask, seat)


def update(net: Net, opt: torch.optim.Optimizer, buf: dict[str, np.ndarray], adv: np.ndarray, epochs: int,
           minibatch: int, gen: torch.Generator) -> dict[str, float]:
    """PPO's clipped update over the collected transitions."""
    obs, mask = torch.from_numpy(buf["obs"]), torch.from_numpy(buf["mask"])
    action, old_logp = torch.from_numpy(buf["action"]), torch.from_numpy(buf["logp"])
    adv_t = torch.from_numpy(adv.astype(np.float32))
    ret = adv_t + torch.from_numpy(buf["value"])
    adv_t = (adv_t - adv_t.mean()) / (adv_t.std() + 1e-8)
    n = len(adv)
    stats = {"policy": 0.0, "value": 0.0, "entropy": 0.0}
    for _ in range(epochs):
        order = torch.randperm(n, generator=gen)
        for start in range(0, n, minibatch):
            j = order[start:start + minibatch]
            logits, value = net(obs[j], mask[j])
            dist = torch.distributions.Categorical(logits=logits)
            ratio = torch.exp(dist.log_prob(action[j]) - old_logp[j])
            a = adv_t[j]
            policy_loss = -torch.min(ratio * a, ratio.clamp(0.8, 1.2) * a).mean()
            value_loss = ((value - ret[j]) ** 2).mean()
            entropy = dist.entropy().mean()
            loss = policy_loss + 0.5 * value_loss - 0.01 * entropy
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()
            stats = {"policy": policy_loss.item(), "value": value_loss.item(), "entropy": entropy.item()}
    return stats


def evaluate(net: Net, game_id: str, level: str, deals: int, first_seed: int = 1_000_000,
             config: dict[str, Any] | None = None) -> dict[str, Any]:
    """The greedy network against a bot level on paired deals (2 players, the game's options
    ``config``): its score (wins + half the draws) with a 95 % Wilson interval."""
    game = get_game(game_id)
    enc = state_encoder_of(game)
    score = 0.0
    games = 0
    for k in range(deals):
        for me in (0, 1):
            state = game.new_state(config or {}, first_seed + k, players=2)
            bot = make_bot(level, game_id)
            rng = Rng(first_seed + k)
            while (d := state.to_act()) is not None:
                legal = state.legal_actions()
                if d.player == me:
                    m = np.zeros(len(game.actions), np.bool_)
                    m[[a.code for a in legal]] = True
                    with torch.no_grad():
                        row = torch.from_numpy(encode_row(enc, state, me))[None]
                        logits, _ = net(row, torch.from_numpy(m)[None])
                    state.apply(game.actions[int(logits.argmax())])
                else:
                    state.apply(bot.choose(SeatView(state, d.player), legal, rng))
            outcome = state.outcome()
            assert outcome is not None
            score += outcome.payoffs[me]
            games += 1
    lo, hi = wilson(score, games)
    return {"against": level, "games": games, "score": round(score / games, 4),
            "interval95": [round(lo, 4), round(hi, 4)]}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="nak-muay")
    ap.add_argument("--steps", type=int, default=1_000_000, help="agent steps to train to (all seats)")
    ap.add_argument("--seconds", type=float, default=0.0,
                    help="also stop after this many seconds of training, evaluations not counted (0: no limit)")
    ap.add_argument("--envs", type=int, default=64, help="games stepped at once")
    ap.add_argument("--rollout", type=int, default=64, help="batched steps per update")
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatch", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--every", type=int, default=20, help="updates between checkpoints")
    ap.add_argument("--eval", type=int, default=50, help="paired deals per checkpoint evaluation (0: none)")
    ap.add_argument("--against", default="random,easy", help="bot levels each checkpoint meets")
    ap.add_argument("--out", default="runs/selfplay", help="folder of checkpoints and scores")
    ap.add_argument("--resume", action="store_true", help="continue from --out/latest.pt")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2, help="PyTorch CPU threads")
    ap.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                    help="a game option for training and evaluation (repeatable), e.g. scoring=speed")
    ap.add_argument("--export", type=Path, help="write the network here as a numpy .npz (the learned level's format)")
    ap.add_argument("--checkpoint", type=Path, help="with --export: convert this checkpoint, train nothing")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    if args.checkpoint is not None:
        if args.export is None:
            ap.error("--checkpoint is for --export: name the file to write")
        ck = torch.load(args.checkpoint, weights_only=False)
        if ck["game"] != args.game:
            ap.error(f"{args.checkpoint} is a {ck['game']} checkpoint, not {args.game}")
        size, actions = ck["net"]["body.0.weight"].shape[1], ck["net"]["pi.weight"].shape[0]
        net = Net(size, actions, ck["hidden"])
        net.load_state_dict(ck["net"])
        export(net, args.export, args.game, trained_on(ck))
        result = {"game": args.game, "exported": str(args.export), "steps": ck["steps"]}
        print(json.dumps(result))
        return result
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    options = parse_options(args.option)

    probe = VectorEnv(args.game, batch=1, **options)
    net = Net(probe.size, probe.actions, args.hidden)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    gen = torch.Generator().manual_seed(args.seed)
    done_steps, updates, games = 0, 0, 0
    if args.resume and (out / "latest.pt").exists():
        ck = torch.load(out / "latest.pt", weights_only=False)
        net.load_state_dict(ck["net"])
        opt.load_state_dict(ck["opt"])
        gen.set_state(ck["generator"])
        done_steps, updates, games = ck["steps"], ck["updates"], ck["games"]
    env = VectorEnv(args.game, batch=args.envs, seed=args.seed * 1_000_003 + done_steps, **options)
    obs, mask, seat = env.reset()
    now = (obs.copy(), mask.copy(), seat.copy())
    training = 0.0  # seconds of collecting and updating (evaluations not counted)
    trained = 0
    scores: list[dict[str, Any]] = []
    def out_of_time() -> bool:
        return bool(args.seconds) and training >= args.seconds

    while done_steps < args.steps and not out_of_time():
        started = time.perf_counter()
        buf, ended, now = collect(env, net, args.rollout, gen, now)
        adv = advantages(buf["reward"], buf["value"], buf["next"], buf["terminal"], lam=0.95)
        stats = update(net, opt, buf, adv, args.epochs, args.minibatch, gen)
        done_steps += len(adv)
        trained += len(adv)
        games += ended
        updates += 1
        training += time.perf_counter() - started
        if updates % args.every == 0 or done_steps >= args.steps or out_of_time():
            ck = {"net": net.state_dict(), "opt": opt.state_dict(), "generator": gen.get_state(), "steps": done_steps,
                  "updates": updates, "games": games, "game": args.game, "hidden": args.hidden, "options": options}
            torch.save(ck, out / f"ckpt-{done_steps}.pt")
            torch.save(ck, out / "latest.pt")
            levels = args.against.split(",") if args.eval else []
            row = {"steps": done_steps, "updates": updates, "games": games, **stats,
                   "eval": [evaluate(net, args.game, level, args.eval, config=options) for level in levels]}
            scores.append(row)
            with (out / "scores.jsonl").open("a") as f:
                f.write(json.dumps(row) + "\n")
    if args.export is not None:
        export(net, args.export, args.game,
               trained_on({"steps": done_steps, "games": games, "hidden": args.hidden, "options": options}))
    result = {"game": args.game, "steps": done_steps, "updates": updates, "games": games,
              "train_seconds": round(training, 1), "steps_per_s": round(trained / training) if training else 0,
              "checkpoints": scores}
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
