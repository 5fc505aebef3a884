// KNOCKBACK 'til they croak in the browser: the boundless grid of large tiles, each with its
// full name in the middle and its edges (attack/heart) around it, owned by colour with a facing
// arrow (no upside-down text), exhausted shown striped (no rotation). Placement: click a
// highlighted cell, then the card to put there; moves and punch targets are highlighted; the
// shell's motion slides a tile placed, moved or pushed from where it stood.
// Renderer interface (see docs/live-play.md): renderBoard(el, view, ctx), and the optional help:
// legend(), boardAction(text), outcomeText(outcome, view, ctx); direct play: picks(action, view) and
// lastMove(events); motion: origins(events, card) and hits(events). What a decision and each action say
// (what a punch does, that a card is your own) is the game's guide (games/knockback/guide.py), in
// the frame; the board's own controls read it through ctx.label(text).

import { el } from "/static/page.js";  // the shell's element builder and tip holder, shared by every renderer
import { tip } from "/static/help.js";

const DIRS = { N: [0, 1], E: [1, 0], S: [0, -1], W: [-1, 0] };
const SYMBOL = { move: "MOVE", punch: "PUNCH", move_or_punch: "MOVE/PUNCH" };
const GLYPH = { move: "➜", punch: "✸", move_or_punch: "➜✸" };

const CSS = `
.kb-top{display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center;margin:.3rem 0 .6rem}
.kb-token{display:inline-flex;gap:.3rem;align-items:center}
.kb-token i{width:1.1rem;height:1.1rem;border-radius:50%;border:2px solid #888;display:inline-block}
.kb-token i.on{background:#f5c518;border-color:#b8860b}
/* the grid never runs under the dock (the shell keeps its height in --dock-h): a tall grid scrolls
   in its box, kept on the card in play (follow()) */
.kb-scroll{overflow:auto;max-width:100%;padding:.4rem;border-radius:.6rem;background:rgba(127,127,127,.08);
  max-height:max(250px,calc(100vh - var(--dock-h,0px) - 140px))}
.kb-grid{display:grid;gap:6px;width:max-content}
.kb-cell{width:118px;height:118px;position:relative;border-radius:10px;padding:0;font:inherit;color:inherit}
.kb-cell.empty{border:1px dashed rgba(127,127,127,.22)}
button.kb-cell.spot{border:2px dashed #3ecf8e;background:rgba(62,207,142,.12);cursor:pointer;color:#3ecf8e;font-weight:700}
button.kb-cell.spot.chosen{border-style:solid;background:rgba(62,207,142,.3)}
.kb-card{--kb-edge:22px;position:absolute;inset:0;border-radius:10px;border:3px solid var(--seat);background:var(--bg);color:#1b1b1b;
  display:grid;grid-template:var(--kb-edge) minmax(0,1fr) var(--kb-edge)/var(--kb-edge) minmax(0,1fr) var(--kb-edge);
  font-size:12px;line-height:1.15;box-shadow:0 2px 6px #0006;white-space:normal}
.kb-card.s0{--seat:#1565c0;--bg:#dce9fa}
.kb-card.s1{--seat:#ad1457;--bg:#f9dcea}
.kb-card{--kind:#4a4a4a}
.kb-card.k-punching{--kind:#a84300}.kb-card.k-moving{--kind:#00695c}.kb-card.k-passive{--kind:#5e35b1}
.kb-card.exhausted{border-style:dashed;background:repeating-linear-gradient(135deg,var(--bg),var(--bg) 8px,#d5d5d5 8px,#d5d5d5 10px)}
.kb-card.active{box-shadow:0 0 0 4px #f5c518}
.kb-card.target{box-shadow:0 0 0 4px #d62828;cursor:pointer}
.kb-card.target.own{box-shadow:0 0 0 4px #00acc1,0 0 0 7px #00acc155}
/* an edge: its attack in a red burst, its heart in a green heart (the shapes tell them apart without colour) */
.kb-e{display:flex;align-items:center;justify-content:center;gap:2px;white-space:nowrap}
.kb-e.n{grid-area:1/2/2/3}.kb-e.s{grid-area:3/2/4/3}
.kb-e.w,.kb-e.e{flex-direction:column;gap:1px}
.kb-e.w{grid-area:2/1/3/2}.kb-e.e{grid-area:2/3/3/4}
.kb-e b,.kb-e span{display:inline-grid;place-items:center;width:19px;height:19px;font-weight:900;font-size:12px;line-height:1;color:#fff}
.kb-e b{background:#b00020;clip-path:polygon(50% 0%,62% 13%,79% 10%,82% 27%,98% 35%,89% 50%,98% 65%,82% 73%,79% 90%,62% 87%,50% 100%,38% 87%,21% 90%,18% 73%,2% 65%,11% 50%,2% 35%,18% 27%,21% 10%,38% 13%)}
.kb-e span{background:#1b5e20;padding-bottom:2px;clip-path:polygon(50% 100%,8% 60%,1% 45%,0% 30%,4% 15%,13% 5%,25% 1%,38% 4%,50% 17%,62% 4%,75% 1%,87% 5%,96% 15%,100% 30%,99% 45%,92% 60%)}
.kb-e i{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
/* the middle, as printed: a band in the ability's colour with the actions in order, the name, the tag */
.kb-mid{grid-area:2/2/3/3;display:flex;flex-direction:column;align-items:stretch;text-align:center;
  min-width:0;min-height:0;background:#fffdf7;border-radius:6px;overflow:hidden;border:1px solid #0002}
.kb-mid .band{background:var(--kind);color:#fff;display:flex;align-items:center;justify-content:center;gap:3px;
  min-height:15px;padding:0 3px;font-size:11px;font-weight:800;white-space:nowrap;overflow:hidden}
.kb-mid .band svg{width:11px;height:11px;flex:0 0 auto;margin-right:1px}
.kb-mid .nm{font-weight:800;font-size:12px;max-width:100%;width:100%;flex:1 1 auto;min-height:0;overflow:hidden;
  display:grid;align-items:center;padding:0 2px}
.kb-mid .lb{font-size:10.5px;color:#333;font-weight:700}
.kb-mid .tired{font-size:9.5px;font-weight:700;color:#5a3d00;text-transform:uppercase;letter-spacing:.03em}
.kb-fx{display:none;grid-area:4/1/5/4;font-size:9px;line-height:1.25;padding:3px 5px 4px;text-align:left;color:#1b1b1b}
.kb-fx b{color:var(--kind)}
.zoom .kb-card{grid-template-rows:var(--kb-edge) calc(var(--zoom-h) - 6px - 2 * var(--kb-edge)) var(--kb-edge) auto}
.zoom .kb-fx{display:block}
.kb-choose{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:.5rem 0}
.kb-side{display:flex;flex-wrap:wrap;gap:.5rem;margin:.6rem 0}
.kb-side>strong{flex-basis:100%}
.kb-info{border:1px solid rgba(127,127,127,.3);border-radius:.5rem;padding:.4rem .55rem;max-width:15rem;font-size:.8rem}
.kb-info h4{margin:0 0 .2rem;font-size:.85rem}.kb-info .set{color:var(--muted);font-size:.7rem}
.kb-info.with-face{display:grid;grid-template-columns:auto minmax(0,1fr);gap:0 .55rem;max-width:min(22rem,84vw);align-content:start}
.kb-info.with-face>.kb-cell{grid-row:1/span 5;align-self:start}
.kb-pending{font-weight:600;margin:.4rem 0}
.kb-cell.in-hand{width:104px;height:104px}
@media (max-width:520px){.kb-cell{width:92px;height:92px}
  .kb-scroll{max-height:max(200px,calc(100vh - var(--dock-h,0px) - 175px))}
  .kb-card{font-size:10px;--kb-edge:17px}
  .kb-e b,.kb-e span{width:15px;height:15px;font-size:10px}.kb-e.w,.kb-e.e{gap:0}
  .kb-mid .band{min-height:11px;font-size:9px;gap:2px;padding:0 2px}.kb-mid .band svg{width:9px;height:9px}
  .kb-mid .nm{font-size:10px;line-height:1.05}.kb-mid .lb{font-size:9px;line-height:1.05}
  .kb-mid .tired{font-size:8px;line-height:1;letter-spacing:0;text-transform:none}
  .kb-cell.in-hand{width:88px;height:88px}}
`;

function ensureStyle() {
  if (document.getElementById("kb-style")) return;
  const s = el("style"); s.id = "kb-style"; s.textContent = CSS;
  document.head.append(s);
}

function clickAction(text) {
  const b = document.querySelector(`#decide button[data-action="${text}"]`);
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
    const add = (key) => { if (!cells.has(key)) cells.set(key, []); if (!cells.get(key).includes(text)) cells.get(key).push(text); };
    if (p[0] === "place" && p.length === 2) {
      add("0,0");
    } else if (p[0] === "place") {
      const a = cards[p[2]];
      if (a && a.status === "board") add(`${a.x + DIRS[p[3]][0]},${a.y + DIRS[p[3]][1]}`);
    } else if (p[0] === "move" && act) {
      add(`${act.x + DIRS[p[1]][0]},${act.y + DIRS[p[1]][1]}`);
    } else if (p[0] === "punch" && act) {
      const lab = byCell.get(`${act.x + DIRS[p[1]][0]},${act.y + DIRS[p[1]][1]}`);
      if (lab) punch.set(lab, text);
    }
  }
  return { cells, punch };
}

// a highlighted cell a move goes to: its direction, as the move's button names it
const ARROW = { N: "↑ north", E: "→ east", S: "↓ south", W: "← west" };
function moveMark(text) {
  const [head, d] = text.split(":");
  return head === "move" && ARROW[d] ? ARROW[d] : "➜";
}

function edge(c, d) {
  const e = el("div", `kb-e ${d.toLowerCase()}`);
  e.dataset.pick = `edge:${c.label}:${d}`;  // the edge of a punched card that takes the punch
  const v = c.board_edges[d];
  e.append(el("b", "", String(v.attack)), el("i", "", "/"), el("span", "", String(v.heart)));
  return e;
}

const FACING = ["▲", "▼"];  // the first seat's cards face board north, the second's are turned to face south

// the ability's kind, as a class: its colour (k-punching, k-moving, k-passive; a kind added later
// gets the plain one) and its icon on the band
const KIND_ICON = {
  punching: "M5 9h9a3 3 0 0 1 0 6H9l-2 3H4V11z M6 5h3v4H6z M10 5h3v4h-3z M14 6h3v4h-3z",
  moving: "M3 6l6 6-6 6zM11 6l6 6-6 6zM18 6h3v12h-3z",
  passive: "M12 2l8 3v6c0 5-3.4 9-8 11-4.6-2-8-6-8-11V5z",
};
function kindOf(card) {
  const kind = (card.ability || {}).kind;
  return typeof kind === "string" && /^[a-z]+$/.test(kind) ? kind : "";
}
function kindIcon(kind) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const p = document.createElementNS("http://www.w3.org/2000/svg", "path");
  p.setAttribute("d", KIND_ICON[kind] || KIND_ICON.passive);
  p.setAttribute("fill", "currentColor");
  svg.append(p);
  return svg;
}

// a card as it lies on the grid, drawn from its data (the shipped cards and a designer's alike):
// its edges as it lies (attack in a burst, heart in a heart), the band in its ability's colour
// with its actions in order, its name, its tag and facing; its ability's words when zoomed
// ``opts.printed``: a card not on the grid yet (a draft), drawn as printed: no tag, no place in play
export function cardTile(c, opts = {}) {
  ensureStyle();
  const kind = kindOf(c.card);
  const t = el("div", `kb-card s${c.owner}${kind ? ` k-${kind}` : ""}${c.exhausted ? " exhausted" : ""}${opts.active ? " active" : ""}${opts.target ? " target" : ""}${opts.target && opts.mine ? " own" : ""}`);
  t.dataset.kind = kind;
  if (opts.printed) {
    t.dataset.card = c.card.name;  // zoomed on its tip like any card
  } else {
    t.dataset.label = c.label;
    t.dataset.tile = c.label;
    t.dataset.pick = `${opts.inHand ? "hand" : "tile"}:${c.label}`;  // direct play, and the last move's mark
  }
  const e = c.board_edges;
  tip(t, `${c.card.name} (${opts.printed ? "as printed" : `${c.label}, ${opts.owner || "seat " + (c.owner + 1)}`})`
    + `${opts.printed ? "" : ` · ${c.exhausted ? "exhausted" : "rested"}`}\n`
    + `${c.card.actions.map((s) => SYMBOL[s]).join(" → ")}\n${c.card.text}\n`
    + `Edges ${opts.printed ? "as printed" : "as it lies"} (attack/heart): north ${e.N.attack}/${e.N.heart}, `
    + `east ${e.E.attack}/${e.E.heart}, south ${e.S.attack}/${e.S.heart}, west ${e.W.attack}/${e.W.heart}`);
  for (const d of ["N", "E", "S", "W"]) t.append(edge(c, d));
  const mid = el("div", "kb-mid");
  const band = el("div", "band");
  band.append(kindIcon(kind), ...c.card.actions.map((s) => el("span", "act", GLYPH[s])));
  mid.append(band, el("div", "nm fit", c.card.name));
  if (!opts.printed) mid.append(el("div", "lb", `${FACING[c.owner]} ${c.label}`));
  if (c.exhausted) mid.append(el("div", "tired", "exhausted"));
  t.append(mid);
  const fx = el("div", "kb-fx");
  fx.append(el("b", "", `${c.card.actions.map((s) => SYMBOL[s]).join(" → ")}`), el("br"), c.card.text);
  t.append(fx);
  return t;
}

let chosenCell = null;  // the highlighted cell a person clicked to place a card on

// a card of a draft, before it is on the grid: its face as printed, in the colour of the seat
// that holds it
function faceTile(card, seat) {
  const e = card.edges;
  const cell = el("div", "kb-cell in-hand");
  cell.append(cardTile({ owner: seat, label: "", exhausted: false, card,
    board_edges: { N: e.north, E: e.east, S: e.south, W: e.west } }, { printed: true }));
  return cell;
}

// a card in words; ``seat`` (a draft's hand): its face too
function infoCard(card, label, extra, seat) {
  const box = el("div", `kb-info${seat === undefined ? "" : " with-face"}`);
  if (seat !== undefined) box.append(faceTile(card, seat));
  if (label) box.dataset.mark = `info:${label}`;  // where a rival's card placed on the grid comes from
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
  const label = ctx.label || ((text) => text);
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
      if (!ctx.reveal) { side.dataset.part = "hand"; side.classList.add("hand-row"); side.tabIndex = 0; }
      side.append(el("strong", "", p === ctx.seat ? "Your hand:" : `${names[p]}'s hand:`));
      hand.forEach((c, i) => {
        const b = infoCard(c, null, `card ${i + 1} of your hand`, p ?? 0); b.dataset.keep = i;
        if (!ctx.reveal) b.dataset.pick = `keep:${i}`;
        side.append(b);
      });
      for (const c of kept || []) side.append(infoCard(c, null, "kept", p ?? 0));
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
  if (chosenCell && !cells.has(chosenCell)) chosenCell = null;
  const pts = onBoard.map((c) => [c.x, c.y]).concat([...cells.keys()].map((k) => k.split(",").map(Number)));
  const wrap = el("div", "kb-scroll");
  wrap.id = "grid";
  wrap.dataset.part = "grid";
  wrap.tabIndex = 0;  // the grid scrolls sideways on a phone
  wrap.setAttribute("role", "group");
  wrap.setAttribute("aria-label", "the grid");
  // a choice made on the board alone (a chosen cell) redraws through the shell when it can,
  // which puts the hand beside the prompt again
  const redraw = () => (ctx.redraw ? ctx.redraw() : renderBoard(root, view, ctx));
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
        const c = at.get(key);
        let cell;
        if (c) {
          cell = el("div", "kb-cell");
          const tile = cardTile(c, { active: c.label === active, target: punch.has(c.label), owner: names[c.owner],
            mine: c.owner === ctx.seat });
          if (punch.has(c.label)) {
            tile.setAttribute("role", "button");
            tile.setAttribute("aria-label", label(punch.get(c.label)));
            tile.addEventListener("click", () => clickAction(punch.get(c.label)));
            tile.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickAction(punch.get(c.label)); } });
          }
          cell.append(tile);
        } else if (cells.has(key)) {
          const opts = cells.get(key);
          const placing = opts[0].startsWith("place");
          cell = el("button", `kb-cell spot${chosenCell === key ? " chosen" : ""}`, placing ? "+" : moveMark(opts[0]));
          cell.dataset.pick = `cell:${key}`;  // after a card of your hand (direct play)
          if (opts.length === 1) cell.dataset.action = opts[0];  // a cell that fits several cards asks which
          cell.setAttribute("aria-label", placing
            ? `${chosenCell === key ? "chosen: " : ""}place a card here (${opts.length} card${opts.length === 1 ? "" : "s"} fit)`
            : label(opts[0]));
          cell.addEventListener("click", () => {
            if (!placing || opts.length === 1) { clickAction(opts[0]); return; }
            chosenCell = chosenCell === key ? null : key;
            redraw();
            root.querySelector("#kb-choose button")?.focus();
          });
        } else {
          cell = el("div", "kb-cell empty");
        }
        cell.dataset.x = x; cell.dataset.y = y;
        g.append(cell);
      }
    }
    wrap.append(g);
    root.append(wrap);
    follow(wrap, g.querySelector(".kb-card.active") || g.querySelector(".kb-card.target")
      || g.querySelector(".kb-cell.spot.chosen") || g.querySelector(".kb-cell.spot"));
  } else {
    wrap.append(el("p", "muted", "The grid is empty."));
    root.append(wrap);
  }
  if (chosenCell) {
    const choose = el("div", "kb-choose");
    choose.id = "kb-choose";
    choose.append(el("strong", "", "Place which card here?"));
    for (const text of cells.get(chosenCell)) {
      const b = el("button", "primary", `Place ${nameOf(view, text.split(":")[1])}`);
      b.title = label(text);
      b.dataset.place = text;
      b.addEventListener("click", () => { chosenCell = null; clickAction(text); });
      choose.append(b);
    }
    const cancel = el("button", "", "Cancel");
    cancel.addEventListener("click", () => { chosenCell = null; redraw(); });
    choose.append(cancel);
    root.append(choose);
  }

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
  const mine = ctx.reveal ? [] : cards.filter((c) => c.owner === ctx.seat && c.status === "hand");
  if (mine.length) root.append(handPart(mine, names));
  for (const p of [0, 1]) {
    const listed = cards.filter((c) => c.owner === p && !mine.includes(c));
    if (!listed.length) continue;  // (your cards still to place are in the dock, under their own heading)
    const side = el("div", "kb-side");
    side.dataset.seat = p;
    const whose = p === ctx.seat && !ctx.reveal ? "Your cards" : `${names[p]}'s cards`;
    side.append(el("strong", "", `${whose} ${FACING[p]}${p === 1 ? " (turned to face south)" : " (facing north)"}:`));
    for (const c of listed) {
      const extra = c.status === "hand" ? "to place" : c.status === "out" ? "knocked out" : (c.exhausted ? "exhausted" : "rested");
      side.append(infoCard(c.card, c.label, extra));
    }
    root.append(side);
  }
}

// the grid's box keeps the card in play (the active card, a card to punch, a cell to use) in
// its middle, when the grid is larger than its box; again when the box changes size (the
// dock beside it grew or shrank)
function follow(box, target) {
  if (!target) return;
  const centre = () => {
    if (!target.isConnected) return;
    const r = target.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    box.scrollTop += r.top + r.height / 2 - (b.top + box.clientHeight / 2);
    box.scrollLeft += r.left + r.width / 2 - (b.left + box.clientWidth / 2);
  };
  centre();
  if (window.ResizeObserver) new ResizeObserver(centre).observe(box);
}

// your cards still to place, which the shell shows beside the prompt
function handPart(mine, names) {
  const box = el("div", "kb-hand");
  box.id = "hand";
  box.dataset.part = "hand";
  box.append(el("h3", "", `Your cards to place · ${mine.length}`));
  const row = el("div", "hand-row");
  for (const c of mine) {
    const cell = el("div", "kb-cell in-hand");
    cell.append(cardTile(c, { owner: names[c.owner], inHand: true }));
    row.append(cell);
  }
  box.append(row);
  return box;
}

function nameOf(view, label) {
  const c = cardsByLabel(view)[label];
  return c ? c.card.name : label;
}

// ---------------------------------------------------------------- pictures for the rules page
const EXAMPLES = [
  { label: "A1", owner: 0, exhausted: false, card: { name: "Example Brawler", actions: ["move", "punch"],
    ability: { kind: "punching", name: "Follow-up" }, text: "Follow-up (punching): +1 attack after it moved." },
  board_edges: { N: { attack: 3, heart: 2 }, E: { attack: 1, heart: 4 }, S: { attack: 0, heart: 3 }, W: { attack: 2, heart: 2 } } },
  { label: "B1", owner: 1, exhausted: true, card: { name: "Example Wall", actions: ["move_or_punch"],
    ability: { kind: "passive", name: "Rooted" }, text: "Rooted (passive): knockback never moves it." },
  board_edges: { N: { attack: 1, heart: 5 }, E: { attack: 2, heart: 3 }, S: { attack: 1, heart: 4 }, W: { attack: 0, heart: 3 } } },
];

// ---------------------------------------------------------------- direct play (see the shell's direct_play.js)
// a card of your hand, then the cell it goes to (the cell first, then the card, is the board's own);
// your rested card on the grid to activate it; the kept card of a draft; the edge that takes a punch
export function picks(text, view) {
  const p = text.split(":");
  const cards = cardsByLabel(view);
  if (p[0] === "place" && p.length === 2) return [[`hand:${p[1]}`, "cell:0,0"]];
  if (p[0] === "place") {
    const a = cards[p[2]];
    if (!a || a.status !== "board") return [];
    return [[`hand:${p[1]}`, `cell:${a.x + DIRS[p[3]][0]},${a.y + DIRS[p[3]][1]}`]];
  }
  if (p[0] === "activate") return [[`tile:${p[1]}`]];
  if (p[0] === "keep") return [[`keep:${p[1]}`]];
  if (p[0] === "hit" && view.punch) return [[`edge:${view.punch.target}:${p[1]}`]];
  return [];
}

// what the last move touched: the cards placed, activated, moved, punched or pushed
export function lastMove(events) {
  const keys = new Set();
  for (const e of events) {
    const d = e.data || {};
    for (const label of [d.card, d.target, ...(Array.isArray(d.cards) ? d.cards : [])]) {
      if (typeof label === "string") keys.add(`tile:${label}`);
    }
  }
  return [...keys];
}

// motion (the shell's motion.js; a tile pushed or moved slides there by itself): a tile placed
// by the rival comes from its line in the rival's list; what was hurt: the tile punched (a copy
// of a tile knocked out flashes and fades where it stood)
export function origins(events, card) {
  return [`info:${card.name}`];
}

export function hits(events) {
  return [...new Set(events.filter((e) => e.type === "punch").map((e) => `tile:${e.data.target}`))];
}

export function picture(name) {
  if (name !== "card") return null;
  ensureStyle();
  const box = el("div", "kb-side");
  for (const c of EXAMPLES) {
    const cell = el("div", "kb-cell");
    cell.append(cardTile(c, { owner: c.owner ? "the second player" : "the first player" }));
    box.append(cell);
  }
  const cap = el("figcaption", "muted", "Left: a rested card of the first player (blue frame). Right: an exhausted "
    + "card of the second player (pink frame, striped). Each edge shows its attack in a red burst and its heart in a "
    + "green heart. The band holds the card's actions in order, in its ability's colour; then its name, its tag "
    + "and which way it faces. Zoom a card (hover, focus or a long press) to read its ability.");
  const fig = el("div");
  fig.append(box, cap);
  return fig;
}

// ---------------------------------------------------------------- help (the seat's view only)
function edgeSample() {
  ensureStyle();
  const e = el("span", "kb-e");
  e.append(el("b", "", "3"), el("i", "", "/"), el("span", "", "2"));
  return e;
}

export function legend() {
  return [
    [edgeSample(), "An edge: its attack (red burst) and its heart (green heart). A punch knocks a card out when its attack beats the heart of the edge it hits."],
    ["orange / teal / violet band", "The card's ability: it acts as the card punches, as it moves, or all the time (passive)."],
    ["▲ ▼", "Which way a card faces: the first player's cards face north, the second player's are turned to face south."],
    ["blue / pink border", "The first / the second player's cards."],
    ["striped, exhausted", "An exhausted card: it cannot be activated until its owner rests, and any of its edges may take a punch."],
    ["➜ ✸", "A card's actions in order: move, punch (➜✸: move or punch)."],
    ["+", "A cell where you may place a card: click it, then pick the card."],
    ["↑ north", "A cell your active card may move to, and which way that is (as its Move button says)."],
    ["red / cyan ring", "A card your active card may punch: red is the rival's, cyan is one of your own."],
    ["A1–B3", "Each card's tag on the board (A: the first player's, B: the second's), as the log names them."],
    ["● ○ ●", "The score token: it moves towards the player who lost a round; pushed off your side, you lose the match."],
  ];
}

// actions the grid offers itself (a highlighted cell, a punch target): the shell folds them
// into a list behind the board when there are many
export function boardAction(text) {
  return /^(place|move|punch):/.test(text);
}

export function outcomeText(outcome, view, ctx) {
  const w = outcome.winners[0];
  if (outcome.draw) return `The match is drawn (${outcome.reason}).`;
  return outcome.reason.startsWith("won") ? `${ctx.names[w]} ${outcome.reason}.` : `${ctx.names[w]} won (${outcome.reason}).`;
}

// ---------------------------------------------------------------- the studio's preview
// each card of a pack being edited, drawn as the table draws it (lying as the first seat's cards
// lie), with its full text beside it; ``cards`` come from the server's content editor
export function previewCards(root, cards) {
  ensureStyle();
  root.replaceChildren(...cards.map((c, i) => {
    const box = el("div", "kb-preview");
    box.dataset.card = c.card.name;
    const cell = el("div", "kb-cell in-hand");
    cell.append(cardTile({ owner: 0, label: `#${i + 1}`, exhausted: false, board_edges: c.board_edges, card: c.card },
      { owner: "your pack" }));
    box.append(cell, infoCard(c.card, "", ""));
    return box;
  }));
}
