// KNOCKBACK 'til they croak in the browser: the boundless grid with each card's edges,
// exhausted cards turned, legal cells and punch targets highlighted (click them to act).
// Renderer interface (see docs/live-play.md): renderBoard(el, view, ctx), actionLabel(text, view, ctx).

const DIRS = { N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0] };
const WORD = { N: "north", E: "east", S: "south", W: "west" };
const BACK = { N: "S", S: "N", E: "W", W: "E" };
const SYMBOL = { move: "MOVE", punch: "PUNCH", move_or_punch: "MOVE/PUNCH" };
const GLYPH = { move: "➜", punch: "✸", move_or_punch: "➜✸" };

const CSS = `
.kb-top{display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center;margin:.3rem 0 .6rem}
.kb-token{display:inline-flex;gap:.3rem;align-items:center}
.kb-token i{width:1.1rem;height:1.1rem;border-radius:50%;border:2px solid #888;display:inline-block}
.kb-token i.on{background:#f5c518;border-color:#b8860b}
.kb-scroll{overflow:auto;max-width:100%;padding:.4rem;border-radius:.6rem;background:rgba(127,127,127,.08)}
.kb-grid{display:grid;gap:4px;width:max-content}
.kb-cell{width:86px;height:86px;position:relative;border-radius:8px}
.kb-cell.empty{border:1px dashed rgba(127,127,127,.18)}
.kb-cell.spot{border:2px dashed #2e9e4f;background:rgba(46,158,79,.12);cursor:pointer}
.kb-cell.spot::after{content:"+";position:absolute;inset:0;display:grid;place-items:center;color:#2e9e4f;font-size:1.6rem;font-weight:700}
.kb-card{position:absolute;inset:2px;border-radius:8px;border:2px solid var(--seat);background:var(--bg);
  display:grid;grid-template:18px 1fr 18px/22px 1fr 22px;font-size:11px;line-height:1;transition:transform .2s}
.kb-card.s0{--seat:#1f8fb3;--bg:rgba(31,143,179,.13)}
.kb-card.s1{--seat:#b23a8f;--bg:rgba(178,58,143,.13)}
.kb-card.exhausted{transform:rotate(90deg) scale(.86);opacity:.62;filter:grayscale(.5)}
.kb-card.active{box-shadow:0 0 0 3px #f5c518}
.kb-card.target{box-shadow:0 0 0 3px #d62828;cursor:pointer}
.kb-e{display:grid;place-items:center;font-weight:700;white-space:nowrap}
.kb-e b{color:#d62828}.kb-e span{color:#2e7d32}
.kb-e.n{grid-area:1/1/2/4}.kb-e.s{grid-area:3/1/4/4}.kb-e.w{grid-area:2/1/3/2;writing-mode:vertical-rl}
.kb-e.e{grid-area:2/3/3/4;writing-mode:vertical-rl}
.kb-mid{grid-area:2/2/3/3;display:flex;flex-direction:column;align-items:center;justify-content:center;text-align:center;gap:2px;overflow:hidden}
.kb-mid .nm{font-weight:700;font-size:10px}.kb-mid .lb{opacity:.75}
.kb-side{display:flex;flex-wrap:wrap;gap:.5rem;margin:.6rem 0}
.kb-info{border:1px solid rgba(127,127,127,.3);border-radius:.5rem;padding:.4rem .55rem;max-width:15rem;font-size:.8rem}
.kb-info h4{margin:0 0 .2rem;font-size:.85rem}.kb-info .set{opacity:.6;font-size:.7rem}
.kb-pending{font-weight:600;margin:.4rem 0}
@media (max-width:520px){.kb-cell{width:64px;height:64px}.kb-card{font-size:9px;grid-template:14px 1fr 14px/16px 1fr 16px}.kb-mid .nm{font-size:8px}}
`;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function ensureStyle() {
  if (document.getElementById("kb-style")) return;
  const s = el("style"); s.id = "kb-style"; s.textContent = CSS;
  document.head.append(s);
}

function clickAction(text) {
  const b = document.querySelector(`#actions button[data-action="${text}"]`);
  if (b && !b.disabled) b.click();
}

function cardsByLabel(view) {
  const out = {};
  for (const c of view.cards || []) out[c.label] = c;
  return out;
}

// cells the decision can use -> action text; labels that may be punched -> action text
function targets(view) {
  const cells = new Map(); const punch = new Map();
  const cards = cardsByLabel(view);
  const act = view.activation ? cards[view.activation.card] : null;
  const byCell = new Map();
  for (const c of view.cards || []) if (c.status === "board") byCell.set(`${c.x},${c.y}`, c.label);
  for (const text of view.legal || []) {
    const p = text.split(":");
    if (p[0] === "place" && p.length === 2) {
      if (!cells.has("0,0")) cells.set("0,0", text);
    } else if (p[0] === "place") {
      const a = cards[p[2]];
      if (a && a.status === "board") {
        const key = `${a.x + DIRS[p[3]][0]},${a.y + DIRS[p[3]][1]}`;
        if (!cells.has(key)) cells.set(key, text); // clicking places the first card still in hand
      }
    } else if (p[0] === "move" && act) {
      cells.set(`${act.x + DIRS[p[1]][0]},${act.y + DIRS[p[1]][1]}`, text);
    } else if (p[0] === "punch" && act) {
      const lab = byCell.get(`${act.x + DIRS[p[1]][0]},${act.y + DIRS[p[1]][1]}`);
      if (lab) punch.set(lab, text);
    }
  }
  return { cells, punch };
}

function edge(c, d) {
  const e = el("div", `kb-e ${d.toLowerCase()}`);
  const v = c.board_edges[d];
  e.title = `${WORD[d]} edge: attack ${v.attack}, heart ${v.heart}`;
  e.append(el("b", "", String(v.attack)), "/", el("span", "", String(v.heart)));
  return e;
}

export function cardTile(c, opts = {}) {
  const t = el("div", `kb-card s${c.owner}${c.exhausted ? " exhausted" : ""}${opts.active ? " active" : ""}${opts.target ? " target" : ""}`);
  t.dataset.label = c.label;
  t.title = `${c.card.name} (${c.label}) · ${c.exhausted ? "exhausted" : "rested"}\n` +
    `${c.card.actions.map((s) => SYMBOL[s]).join(" → ")}\n${c.card.text}`;
  for (const d of ["N", "E", "S", "W"]) t.append(edge(c, d));
  const mid = el("div", "kb-mid");
  mid.append(el("div", "nm", c.card.name), el("div", "lb", `${c.label} ${c.card.actions.map((s) => GLYPH[s]).join(" ")}`));
  t.append(mid);
  return t;
}

function infoCard(card, label, extra) {
  const box = el("div", "kb-info");
  box.append(el("h4", "", label ? `${card.name} (${label})` : card.name));
  const e = card.edges;
  box.append(el("div", "", `N ${e.north.attack}/${e.north.heart} · E ${e.east.attack}/${e.east.heart} · ` +
    `S ${e.south.attack}/${e.south.heart} · W ${e.west.attack}/${e.west.heart}`));
  box.append(el("div", "", card.actions.map((s) => SYMBOL[s]).join(" → ")));
  box.append(el("div", "", card.text));
  box.append(el("div", "set", `${card.pack_name} · ${card.set}${extra ? " · " + extra : ""}`));
  return box;
}

function scoreLine(view, names) {
  const top = el("div", "kb-top");
  top.append(el("strong", "", `Round ${view.round}`), el("span", "", `turn ${view.turn}/${view.max_turns}`));
  if (view.scoring === "tug") {
    const tok = el("span", "kb-token");
    tok.id = "token";
    const spots = [0, null, 1];
    tok.append(names[0]);
    for (const s of spots) { const i = el("i"); if (view.token === s) i.className = "on"; tok.append(i); }
    tok.append(names[1]);
    top.append(tok);
  } else if (view.scoring === "best_of") {
    top.append(el("span", "", `best of ${view.best_of}: ${view.wins[0]}–${view.wins[1]}`));
  } else {
    top.append(el("span", "", "speed round"));
  }
  top.append(el("span", "muted", `knockback: ${view.knockback.replace("_", " ")}`));
  return top;
}

export function renderBoard(root, view, ctx) {
  ensureStyle();
  const names = ctx.names;
  root.replaceChildren();
  root.append(scoreLine(view, names));

  if (view.phase === "draft" && view.draft) {
    const dr = view.draft;
    root.append(el("div", "kb-pending", `Draft: hands of ${dr.hand_sizes.join(" and ")}, kept ${dr.kept_counts.join(" and ")}.`));
    const hands = dr.hand ? [[ctx.seat, dr.hand, dr.kept]] : [];
    if (ctx.reveal) for (let p = 0; p < ctx.reveal.length; p++) {
      const d = ctx.reveal[p].draft; if (d && d.hand) hands.push([p, d.hand, d.kept]);
    }
    for (const [p, hand, kept] of hands) {
      const side = el("div", "kb-side"); side.id = ctx.reveal ? `draft-${p}` : "hand";
      side.append(el("strong", "", p === ctx.seat ? "Your hand:" : `${names[p]}'s hand:`));
      hand.forEach((c, i) => { const b = infoCard(c, null, `keep:${i}`); b.dataset.keep = i; side.append(b); });
      for (const c of kept || []) side.append(infoCard(c, null, "kept"));
      root.append(side);
    }
    const pool = el("div", "kb-side");
    pool.append(el("strong", "", "Cards in this draft:"));
    for (const c of dr.pool) pool.append(infoCard(c));
    root.append(pool);
    return;
  }

  const cards = view.cards || [];
  const onBoard = cards.filter((c) => c.status === "board");
  const { cells, punch } = targets(view);
  const pts = onBoard.map((c) => [c.x, c.y]).concat([...cells.keys()].map((k) => k.split(",").map(Number)));
  const wrap = el("div", "kb-scroll");
  wrap.id = "grid";
  if (pts.length) {
    const xs = pts.map((p) => p[0]); const ys = pts.map((p) => p[1]);
    const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
    const g = el("div", "kb-grid");
    g.style.gridTemplateColumns = `repeat(${x1 - x0 + 1}, auto)`;
    const at = new Map(onBoard.map((c) => [`${c.x},${c.y}`, c]));
    const active = view.activation ? view.activation.card : null;
    for (let y = y1; y >= y0; y--) {
      for (let x = x0; x <= x1; x++) {
        const key = `${x},${y}`;
        const cell = el("div", "kb-cell");
        cell.dataset.x = x; cell.dataset.y = y;
        const c = at.get(key);
        if (c) {
          const tile = cardTile(c, { active: c.label === active, target: punch.has(c.label) });
          if (punch.has(c.label)) tile.addEventListener("click", () => clickAction(punch.get(c.label)));
          cell.append(tile);
        } else if (cells.has(key)) {
          cell.classList.add("spot");
          cell.dataset.action = cells.get(key);
          cell.title = actionLabel(cells.get(key), view, ctx);
          cell.addEventListener("click", () => clickAction(cells.get(key)));
        } else {
          cell.classList.add("empty");
        }
        g.append(cell);
      }
    }
    wrap.append(g);
  } else {
    wrap.append(el("p", "muted", "The grid is empty."));
  }
  root.append(wrap);

  if (view.activation) {
    const a = view.activation;
    const syms = a.symbols.map((s, i) => (i === a.index ? `[${SYMBOL[s]}]` : SYMBOL[s])).join(" → ");
    root.append(el("div", "kb-pending", `${nameOf(view, a.card)} is active: ${syms}`));
  }
  if (view.punch) {
    const p = view.punch;
    root.append(el("div", "kb-pending",
      `${nameOf(view, p.attacker)} punches the exhausted ${nameOf(view, p.target)} with attack ${p.attack}: pick the edge that takes it.`));
  }
  for (const p of [0, 1]) {
    const side = el("div", "kb-side");
    side.dataset.seat = p;
    side.append(el("strong", "", `${names[p]}${p === 1 ? " · cards turned 180°" : ""}:`));
    for (const c of cards.filter((c) => c.owner === p)) {
      const extra = c.status === "hand" ? "to place" : c.status === "out" ? "knocked out" : (c.exhausted ? "exhausted" : "rested");
      side.append(infoCard(c.card, c.label, extra));
    }
    root.append(side);
  }
}

function nameOf(view, label) {
  const c = cardsByLabel(view)[label];
  return c ? `${c.card.name} (${label})` : label;
}

export function actionLabel(text, view, ctx) {
  const p = text.split(":");
  const cards = cardsByLabel(view);
  if (p[0] === "keep") {
    const hand = (view.draft || {}).hand || [];
    const i = Number(p[1]);
    return hand[i] ? `Keep ${hand[i].name}` : text;
  }
  if (p[0] === "place" && p.length === 2) return `Place ${nameOf(view, p[1])} at the centre`;
  if (p[0] === "place") {
    const a = cards[p[2]];
    const at = a && a.status === "board" ? ` (${a.x + DIRS[p[3]][0]}, ${a.y + DIRS[p[3]][1]})` : "";
    return `Place ${nameOf(view, p[1])} ${WORD[p[3]]} of ${nameOf(view, p[2])}${at}`;
  }
  if (p[0] === "activate") {
    const c = cards[p[1]];
    return `Activate ${nameOf(view, p[1])}${c ? ": " + c.card.actions.map((s) => SYMBOL[s]).join(" → ") : ""}`;
  }
  if (text === "rest") return "Rest (ready your exhausted cards)";
  if (text === "skip") return "Skip this symbol";
  const act = view.activation ? cards[view.activation.card] : null;
  if (p[0] === "move" && act) return `Move ${WORD[p[1]]} to (${act.x + DIRS[p[1]][0]}, ${act.y + DIRS[p[1]][1]})`;
  if (p[0] === "punch" && act) {
    const x = act.x + DIRS[p[1]][0], y = act.y + DIRS[p[1]][1];
    const t = (view.cards || []).find((c) => c.status === "board" && c.x === x && c.y === y);
    if (t) {
      const heart = t.exhausted ? "exhausted" : `heart ${t.board_edges[BACK[p[1]]].heart}`;
      const own = ctx && t.owner === ctx.seat ? "your own " : "";
      return `Punch ${own}${t.card.name} ${WORD[p[1]]}: attack ${act.board_edges[p[1]].attack} vs ${heart}`;
    }
  }
  if (p[0] === "hit" && view.punch) {
    const t = cards[view.punch.target];
    if (t) return `Hit its ${WORD[p[1]]} edge (heart ${t.board_edges[p[1]].heart})`;
  }
  return text;
}
