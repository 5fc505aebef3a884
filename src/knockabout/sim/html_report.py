"""A designer's report: one self-contained HTML file with the plots inline (matplotlib SVG).

Nothing is fetched: no scripts, fonts or style sheets from the network; the SVGs are
written into the page. matplotlib is the optional extra ``plots``.

For a balance run, per group: the pairing matrix as a heat map (rate and count in every
cell), each entrant against the field (a forest plot with 95 % intervals and the 40–60 %
band), the first-player edge, the distribution of match lengths, draws per pairing, and
the per-card table with a forest plot of each card's difference from its side's average,
and, for an ablation (``balance ablate``), each card's effect on winning beside it with
its own forest plot.
For a sim run: the bots' (or seats') win rates, the order of play and the game lengths.
"""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from typing import Any

from knockabout.core.errors import ConfigError
from knockabout.sim.balance_tables import GroupTables, Rate
from knockabout.sim.report import Summary

INSTALL = "the HTML report draws its plots with matplotlib, which is not installed: pip install 'knockabout[plots]'"
STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
th:first-child, td:first-child, td.name { text-align: left; }
tr.hot td { background: #fde2e2; } tr.cool td { background: #e2effd; }
figure { margin: 1em 0; } figcaption { font-size: 0.9em; color: #555; }
.note { color: #555; font-size: 0.9em; }
"""


def _plt() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ConfigError(INSTALL) from None
    plt.rcParams["svg.fonttype"] = "none"  # text stays text: smaller, searchable
    plt.rcParams["svg.hashsalt"] = "knockabout"  # the same report gives the same file
    return plt


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})  # reproducible
    _plt().close(fig)
    text = buf.getvalue()
    return text[text.index("<svg") :]


def _figure(svg: str, caption: str, kind: str) -> str:
    return f'<figure class="plot {kind}">{svg}<figcaption>{html.escape(caption)}</figcaption></figure>'


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def heat_map(t: GroupTables) -> str:
    plt = _plt()
    n = len(t.entrants)
    grid = [[float("nan")] * n for _ in range(n)]
    counts = [[0] * n for _ in range(n)]
    index = {e: i for i, e in enumerate(t.entrants)}
    for c in t.matrix:
        grid[index[c.row]][index[c.col]] = c.rate.rate
        counts[index[c.row]][index[c.col]] = c.rate.n
    size = max(4.0, 0.75 * n + 2)
    fig, ax = plt.subplots(figsize=(size, size * 0.85))
    im = ax.imshow(grid, cmap="RdBu", vmin=0.0, vmax=1.0)
    for i in range(n):
        for j in range(n):
            if i != j and counts[i][j]:
                ink = "white" if abs(grid[i][j] - 0.5) > 0.3 else "black"
                ax.text(j, i, f"{100 * grid[i][j]:.0f}%\nn={counts[i][j]}", ha="center", va="center", fontsize=8,
                        color=ink)
    ax.set_xticks(range(n), t.labels, rotation=45, ha="right")
    ax.set_yticks(range(n), t.entrants)
    ax.set_xlabel(f"against this {t.kind}")
    ax.set_ylabel(f"{t.kind} (row) match points")
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    return _figure(_svg(fig), f"Pairing matrix: the row {t.kind}'s match points against each column "
                   f"{t.kind}, both seat orders, draws half; n matches per cell.", "heatmap")


def forest(labels: Sequence[str], rates: Sequence[Rate], title: str, band: tuple[float, float] | None,
           centre: float = 0.5, kind: str = "forest", xlabel: str = "win rate") -> str:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.0, 0.35 * len(labels) + 1.2))
    ys = list(range(len(labels)))[::-1]
    for y, r in zip(ys, rates, strict=True):
        ax.plot([r.low, r.high], [y, y], color="#333")
        ax.plot([r.rate], [y], "o", color="#c0392b")
    if band is not None:
        ax.axvspan(*band, color="#2ecc71", alpha=0.12)
    ax.axvline(centre, color="#888", linestyle="--", linewidth=1)
    ax.set_yticks(ys, labels)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    return _figure(_svg(fig), title + " (dots: rate; lines: 95 % interval).", kind)


def length_histogram(lengths: Sequence[int], unit: str) -> str:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.0, 3.0))
    ax.hist(lengths, bins=min(40, max(5, len(set(lengths)))), color="#34495e")
    ax.set_xlabel(unit)
    ax.set_ylabel("matches" if unit == "decisions" else "games")
    mean = sum(lengths) / len(lengths) if lengths else 0.0
    ax.set_title(f"length: mean {mean:.1f} {unit}")
    return _figure(_svg(fig), f"Distribution of lengths ({len(lengths)} played).", "lengths")


def _table(heads: Sequence[str], rows: Sequence[tuple[Sequence[str], str]], kind: str) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in heads)
    body = "".join(
        f'<tr class="{cls}">' + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>" for cells, cls in rows
    )
    return f'<table class="{kind}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _interval(r: Rate) -> str:
    return f"{pct(r.low)}–{pct(r.high)}"


def group_section(t: GroupTables) -> str:
    parts = [f"<h2>{html.escape(t.title)}</h2>" if t.title else ""]
    parts.append(heat_map(t))
    names = list(t.fieldrates)
    parts.append(forest(names, [t.fieldrates[e] for e in names], f"Each {t.kind} against the field", (0.4, 0.6)))
    edge = [("matches", t.first)] + ([("decisive rounds", t.first_rounds)] if t.first_rounds else [])
    parts.append(forest([k for k, _ in edge], [r for _, r in edge], "First-player edge: the first player's rate",
                        None, kind="first-player"))
    parts.append(_table(["", "first player's rate", "95 % interval", "edge over even", "count"],
                        [([k, pct(r.rate), _interval(r), f"{100 * (r.rate - 0.5):+.1f} pts", str(r.n)], "")
                         for k, r in edge], "first-player"))
    parts.append(length_histogram(t.lengths, "decisions"))
    parts.append("<h3>Draws per pairing</h3><p class='note'>Both seat orders; rows over 3 % are marked.</p>")
    parts.append(_table([f"{t.kind}", "against", "matches", "draws", "share", "95 % interval"],
                        [([c.row, c.col, str(c.rate.n), str(c.draws), pct(c.rate.rate), _interval(c.rate)],
                          "hot" if c.rate.rate > 0.03 else "") for c in t.draws], "draws"))
    if t.cards or t.effects:
        parts.append(_card_section(t))
    return "\n".join(parts)


def _card_section(t: GroupTables) -> str:
    """The per-card table (usage statistics, and each card's effect by ablation when the
    run measured it) and its forest plots."""
    parts = [
        "<h3>Per card</h3><p class='note'>For each card of each " + html.escape(t.kind) + ": times drawn and "
        "played over all matches, the matches in which its side played it, that side's win rate there, and "
        "its difference from the side's average (interval: the win rate's 95 % Wilson interval shifted by "
        "the average). That difference is a correlation: a card played when its side is already winning "
        "looks strong whatever it does. Marked: the interval lies wholly above (red) or below (blue) zero.</p>"
    ]
    if t.effects:
        parts.append(
            "<p class='note'>Effect by ablation: the same matches (the same deals and bot seeds) played again "
            "with the card replaced by the game's neutral stand-in; the effect is the " + html.escape(t.kind)
            + "'s rate with the card minus its rate without it, with a paired 95 % interval. This is what "
            "the card itself adds. The table is sorted by it, and colours follow it when it was measured.</p>"
        )
    usage = {(c.entrant, c.card): c for c in t.cards}
    keys = list(dict.fromkeys([*((e.entrant, e.card) for e in t.effects),
                               *(k for k, _ in sorted(usage.items(), key=lambda kv: -kv[1].diff))]))
    rows = []
    for key in keys:
        c = usage.get(key)
        e = t.effect_of(*key)
        cells = list(key)
        if c is not None:
            cells += [str(c.drawn), str(c.played), str(c.side.n), pct(c.side.rate), pct(c.average),
                      f"{100 * c.diff:+.1f}", f"{100 * c.diff_low:+.1f} … {100 * c.diff_high:+.1f}"]
        else:
            cells += ["0", "0", "0", "—", "—", "—", "—"]
        low, high = (e.low, e.high) if e is not None else (c.diff_low, c.diff_high) if c is not None else (0.0, 0.0)
        if t.effects and e is None:
            cells += ["—", "—"]
        elif e is not None:
            cells += [f"{100 * e.effect:+.1f}", f"{100 * e.low:+.1f} … {100 * e.high:+.1f}"]
        rows.append((cells, "hot" if low > 0 else "cool" if high < 0 else ""))
    heads = [t.kind, "card", "drawn", "played", "matches played in", "side's win rate", "side's average",
             "difference (pts)", "95 % interval (pts)"]
    if t.effects:
        heads += ["effect by ablation (pts)", "paired 95 % interval (pts)"]
    parts.append(_table(heads, rows, "cards"))
    if t.cards:
        shown = sorted(t.cards, key=lambda c: -abs(c.diff))[:40]
        shifted = [Rate(c.diff, 1, c.diff_low, c.diff_high) for c in shown]
        parts.append(forest([f"{c.entrant}: {c.card}" for c in shown], shifted,
                            "Per card: difference from the side's average", None, centre=0.0, kind="cards",
                            xlabel="difference in win rate"))
    if t.effects:
        shown_e = t.effects[:40]
        parts.append(forest([f"{e.entrant}: {e.card}" for e in shown_e],
                            [Rate(e.effect, 1, e.low, e.high) for e in shown_e],
                            "Per card: effect on winning by ablation", None, centre=0.0, kind="effects",
                            xlabel="effect on win rate (with the card minus with the stand-in)"))
    return "\n".join(parts)


def page(title: str, intro: Sequence[str], sections: Sequence[str]) -> str:
    head = "".join(f"<p>{html.escape(line)}</p>" for line in intro)
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
        f"<body><h1>{html.escape(title)}</h1>{head}\n" + "\n".join(sections) + "\n</body></html>\n"
    )


def balance_page(meta: dict[str, Any], all_tables: Sequence[GroupTables]) -> str:
    """The whole HTML report of a balance run."""
    secs = float(meta.get("seconds", 0))
    intro = [
        f"{meta.get('bot')} v {meta.get('bot')}, seed {meta.get('seed')}, {meta.get('games')} matches per ordered "
        f"pairing; played on {meta.get('backend')} ({meta.get('workers')} workers) in {secs:.0f} s.",
    ]
    until = meta.get("until_ci")
    if until:
        state = "reached" if until["reached"] else "not reached (cap hit)"
        intro.append(f"Sequential run: ±{100 * until['width']:g} points {state} at look {until['look']}; "
                     f"intervals at that look are at level {100 * (1 - until['alpha']):.3f}% (alpha-spending), "
                     "so each is a valid 95 % interval whatever the look the run stopped at.")
    return page(f"{meta.get('name', meta.get('game'))}: balance report", intro, [group_section(t) for t in all_tables])


def sim_page(summary: Summary, lengths: Sequence[int]) -> str:
    """The HTML report of a sim run: win rates, order of play, lengths."""
    lines = summary.bots if len(summary.bots) > 1 else summary.seats
    sections = [
        forest([x.label for x in lines], [Rate(x.points, x.games, x.low, x.high) for x in lines],
               "Win rates" if len(summary.bots) > 1 else "Win rate of each seat", None,
               centre=1.0 / summary.players),
    ]
    if summary.first_mover:
        sections.append(forest([x.label for x in summary.first_mover],
                               [Rate(x.points, x.games, x.low, x.high) for x in summary.first_mover],
                               "Order of play: win rate by position", None, centre=1.0 / summary.players,
                               kind="first-player"))
    if lengths:
        sections.append(length_histogram(lengths, summary.length_unit))
    intro = [f"{summary.games} games, {summary.draws} draws, {summary.players} players."]
    return page(f"{summary.game}: simulation report", intro, sections)
