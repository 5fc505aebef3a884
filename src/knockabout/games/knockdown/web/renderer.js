// Knockdown in the browser: the arena (SVG), both fighters with wound cubes and tokens, the Attack Row,
// hands with symbols, fighter sheets, and the tower challenge. The 10-second clock of the challenge is the
// table's timer (drawn by app.js from the decision's time limit). The tested person gets the puzzle
// (ctx.challenge: numbered cubes lying on a field) and clicks the cubes in order to stack them; the picks go
// to the server (ctx.answer), which judges them against the puzzle and its own clock.
// Renderer interface (see docs/live-play.md): renderBoard(el, view, ctx), and the optional help the
// shell shows: legend(), picture(name), outcomeText(outcome, view, ctx); direct play: picks(action, view)
// and lastMove(events, view); motion: origins() and hits(events). All of it reads the seat's own view
// only. The prompt, each action's words (a card or skill's text on its button, whether an attack reaches)
// and the hints are the game's guide (games/knockdown/presentation/guide.py), in the frame.

import { el } from "/static/page.js";  // the shell's element builder and tip holder, shared by every renderer
import { tip } from "/static/help.js";

// Card symbols drawn as small inline SVG icons (no emoji font needed).
const SYM_PATH = {
  punch: "M5 9h9a3 3 0 0 1 0 6H9l-2 3H4V11z M6 5h3v4H6z M10 5h3v4h-3z M14 6h3v4h-3z",
  kick: "M7 3h4v9l6 3v4H6l1-7z",
  block: "M12 3l7 3v5c0 5-3 8-7 10-4-2-7-5-7-10V6z",
  dash: "M4 6l6 6-6 6V6z M12 6l6 6-6 6V6z",
  wild: "M12 3l2.6 6H21l-5.2 4 2 6.5L12 15.8 6.2 19.5l2-6.5L3 9h6.4z",
};
const SVG_NS = "http://www.w3.org/2000/svg";
function symIcon(s) {
  const path = SYM_PATH[s];
  if (!path) return el("span", "sym-text", s);
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "16");
  svg.setAttribute("height", "16");
  svg.setAttribute("class", `sym sym-${s}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", s);
  const title = document.createElementNS(SVG_NS, "title");
  title.textContent = s;
  const p = document.createElementNS(SVG_NS, "path");
  p.setAttribute("d", path);
  p.setAttribute("fill", "currentColor");
  svg.append(title, p);
  return svg;
}
const SEAT_COLOR = ["#c62828", "#1565c0"];
const SEAT_TEXT = ["#ff8a80", "#90b8ff"];  // the seat colours, light enough to read on the dark panel
const CELL = 44;


const SYMBOL_TEXT = {
  punch: "Punch symbol", kick: "Kick symbol", block: "Block symbol: pays for blocking an attack",
  dash: "Dash symbol: discard the card to move a space", wild: "Wild symbol: pays for any symbol",
};

function ensureStyle() {
  if (document.getElementById("kd-style")) return;
  const s = el("style");
  s.id = "kd-style";
  s.textContent = `
  .kd { display: flex; flex-direction: column; gap: .45rem; }
  .kd-top { font-weight: 600; }
  .kd-top::after { content: "i"; display: inline-block; width: 1.15em; height: 1.15em; line-height: 1.1em;
    margin-left: .35em; border: 1px solid currentColor; border-radius: 50%; text-align: center; font-size: .8em; opacity: .75; }
  /* the title and whose turn it is on one line when they fit; the arena and the Attack Row side by side
     when they fit (a desktop sees both above the dock), one under the other on a phone */
  .kd-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: .15rem 1rem; }
  .kd-play { display: flex; flex-wrap: wrap; align-items: flex-start; gap: .6rem 1.2rem; }
  .kd-arena { flex: 1 1 300px; min-width: 0; }
  /* the arena is drawn at most its own size and, on the first screen, never under the dock: the
     shell keeps the dock's height in --dock-h (table_layout.js); 125px is what stands above the arena */
  .kd-arena svg { display: block; max-width: 100%; height: auto;
                  max-height: max(100px, calc(100vh - var(--dock-h, 0px) - 125px)); }
  .kd-arena svg text { pointer-events: none; }
  #attack-row { flex: 0 1 auto; min-width: 0; }
  #attack-row h3 { font-size: .95rem; margin: 0 0 .2rem; }
  @media (max-width: 820px) { .kd-head { font-size: .88rem; } }
  .kd-fighters { display: grid; grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); gap: .6rem; }
  .kd-fighter { border: 2px solid var(--kd-c); border-radius: .5rem; padding: .4rem .6rem; }
  .kd-fighter.deciding { box-shadow: 0 0 0 3px var(--kd-c); }
  .kd-fighter .name { font-weight: 700; color: var(--kd-t); }
  .kd-cubes { display: flex; flex-wrap: wrap; gap: 2px; margin: .2rem 0; min-height: 14px; }
  .kd-cube { width: 12px; height: 12px; border-radius: 2px; border: 2px solid #8b0000; }
  .kd-cube.heavy { background: #8b0000; }
  .kd-chip { display: inline-block; font-size: .75rem; padding: 0 .35rem; margin: 1px; border-radius: .6rem;
             background: #5e35b1; color: #fff; }
  .kd-cards { display: flex; flex-wrap: wrap; gap: .35rem; }
  /* an Attack card, as printed: a frame and two bands in its type's colour (--kt), the symbols it
     pays with on the top band, the name, the wound pool and range in large figures, the effect's
     first words (all of it when zoomed), the type and K.O. on the bottom band */
  .kd-card { --kt: #555; width: 100px; min-height: 124px; border-radius: 8px; border: 2px solid var(--kt); padding: 0;
             background: #fffaf0; color: #1b1b1b; display: flex; flex-direction: column; overflow: hidden;
             font-size: 11px; line-height: 1.15; box-shadow: 0 2px 6px #0007; white-space: normal; }
  .kd-card.t-strike { --kt: #b3261e; } .kd-card.t-ability { --kt: #6a1b9a; }
  .kd-card.t-reaction { --kt: #00695c; } .kd-card.t-none { --kt: #56642a; }
  .kd-card.empty { background: transparent; border: 1px dashed #777; color: var(--muted); align-items: center;
                   justify-content: center; box-shadow: none; }
  .kd-card .band { background: var(--kt); color: #fff; display: flex; align-items: center; gap: 3px; padding: 2px 4px;
                   min-height: 19px; }
  .kd-card .band .sym { width: 17px; height: 17px; }
  .kd-card .band .none { font-size: 10px; font-style: italic; }
  .kd-card .pos { margin-left: auto; font-weight: 800; font-size: 11px; }
  .kd-card .nm { font-weight: 800; font-size: 11.5px; text-align: center; padding: 2px 3px 0; min-height: 28px;
                 display: grid; align-items: center; }
  .kd-card .figs { display: flex; justify-content: center; align-items: center; gap: 7px; min-height: 24px; }
  .kd-card .fig { display: inline-flex; align-items: center; gap: 2px; font-size: 21px; font-weight: 900; line-height: 1; }
  .kd-card .fig .kd-cube { width: 11px; height: 11px; }
  .kd-card .figs .nil { font-size: 10px; color: #5c5c5c; }
  .kd-card .rng { display: flex; align-items: center; justify-content: center; gap: 3px; font-weight: 800; font-size: 14px;
                  min-height: 17px; }
  .kd-card .rng svg { width: 14px; height: 14px; flex: 0 0 auto; }
  .kd-card .rng.word { font-size: 10px; }
  .kd-card .fx { font-size: 8.5px; line-height: 1.2; color: #333; padding: 1px 4px 0; margin-bottom: 2px; overflow: hidden;
                 display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; }
  .kd-card .foot { margin-top: auto; background: var(--kt); color: #fff; display: flex; align-items: center;
                   padding: 1px 4px; min-height: 15px; font-size: 9px; font-weight: 700; letter-spacing: .06em;
                   text-transform: uppercase; }
  .kd-card .ko { margin-left: auto; background: #ffd54f; color: #3b2600; border-radius: 3px; padding: 0 3px;
                 letter-spacing: 0; font-weight: 900; }
  .zoom .kd-card .fx { display: block; -webkit-line-clamp: unset; white-space: pre-line; font-size: 8.5px; }
  @media (max-width: 820px) {
    .kd-card { width: 78px; min-height: 116px; font-size: 10px; }
    .kd-card .band { min-height: 18px; padding: 1px 3px; }
    .kd-card .band .sym { width: 15px; height: 15px; }
    .kd-card .nm { font-size: 10.5px; min-height: 26px; padding: 2px 2px 0; }
    .kd-card .fig { font-size: 18px; }
    .kd-card .figs { min-height: 22px; gap: 5px; }
    .kd-card .rng { font-size: 13px; min-height: 16px; }
    .kd-card .fx { font-size: 8px; padding: 1px 3px 0; }
    .kd-card .foot { font-size: 8px; letter-spacing: .02em; padding: 1px 3px; }
  }
  .kd-sheet li { font-size: .8rem; margin-bottom: .2rem; }
  .kd-pending { font-weight: 700; color: var(--accent); }
  .kd-tower { border: 2px dashed #b26a00; border-radius: .5rem; padding: .5rem; }
  .kd-tower .stack { display: flex; flex-direction: column-reverse; align-items: center; gap: 2px; }
  .kd-tower .stack i { width: 22px; height: 14px; background: #8b0000; border-radius: 2px; display: block; }
  .kd-tower .stack i.light { background: #fff; border: 2px solid #8b0000; }
  .kd-tgame { display: flex; gap: .5rem; align-items: flex-end; flex-wrap: nowrap; }
  .kd-field { position: relative; background: #efe6d2; border-radius: .4rem; border: 1px solid #c9b88f;
              --cell: min(46px, calc((100vw - 3.2rem - 56px) / var(--cols)));
              width: calc(var(--cols) * var(--cell) + 8px); height: calc(var(--rows) * var(--cell) + 8px); }
  .kd-tcube { position: absolute; width: calc(var(--cell) - 8px); height: calc(var(--cell) - 16px); min-height: 24px;
              padding: 0; border-radius: 3px; font-weight: 700;
              border: 2px solid #8b0000; background: #fff; color: #8b0000; cursor: pointer; }
  .kd-tcube.heavy { background: #8b0000; color: #fff; }
  .kd-tstack { display: flex; flex-direction: column-reverse; align-items: center; gap: 1px; min-width: 46px;
               min-height: 40px; border-bottom: 4px solid #6d4c41; padding: 0 3px; transition: transform .4s; }
  .kd-tstack i { width: 36px; height: 14px; font-size: .62rem; line-height: 10px; font-style: normal; text-align: center;
                 border: 2px solid #8b0000; background: #fff; color: #8b0000; border-radius: 2px; display: block; }
  .kd-tstack i.heavy { background: #8b0000; color: #fff; }
  .kd-tstack.toppled { transform: rotate(75deg) translateX(20px); transform-origin: bottom left; }
  .kd-tstatus { font-weight: 700; }
  .kd-tstatus.bad { color: #c62828; }
  `;
  document.head.append(s);
}

function cardInfo(view, name) {
  return (view.cards || {})[name] || { symbols: [], heavy: 0, light: 0, range: "", type: "", ko: false, text: name };
}

// the card's type, as a class: its colour (t-strike, t-ability, t-reaction; t-none for a card with
// no type, such as Contamination); a type a designer adds later gets the plain frame
const TYPE_CLASS = /^[a-z]+$/;
function typeClass(type) {
  return type && TYPE_CLASS.test(type) ? `t-${type}` : "t-none";
}

// a range in large figures: "range 1-2" -> "1–2"; a word (projectile, any range) stays a word
const RANGE_ICON = "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zm0 4a5 5 0 1 1 0 10 5 5 0 0 1 0-10zm0 3.2a1.8 1.8 0 1 0 0 3.6 1.8 1.8 0 0 0 0-3.6z";
function rangePart(range) {
  const r = String(range || "");
  const figure = /^range (\d+(?:-\d+)?)$/.exec(r);
  const part = el("div", `rng${figure ? "" : " word"}`);
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const p = document.createElementNS(SVG_NS, "path");
  p.setAttribute("d", RANGE_ICON);
  p.setAttribute("fill", "currentColor");
  p.setAttribute("fill-rule", "evenodd");
  svg.append(p);
  part.append(svg, el("span", "", figure ? figure[1].replace("-", "–") : r === "any range" ? "any" : r));
  return part;
}

function woundFigure(n, heavy) {
  const f = el("span", `fig ${heavy ? "heavy" : "light"}`, String(n));
  f.append(el("i", `kd-cube${heavy ? " heavy" : ""}`));
  return f;
}

// an Attack card's face, drawn from its entry in the view's catalog (``view.cards``), the same for
// the shipped cards and a designer's; ``symbols`` (a hand card's, which skills may add to) overrides
// the printed ones. Its full text is on its tip (hover, focus, long press; zoomed there).
export function card(view, name, pos, symbols) {
  ensureStyle();
  if (!name) return el("div", "kd-card empty", "empty");
  const c = cardInfo(view, name);
  const d = el("div", `kd-card ${typeClass(c.type)}`);
  d.dataset.card = name;
  d.dataset.type = c.type || "";
  tip(d, `${name}: ${c.text}`);
  const band = el("div", "band");
  const syms = symbols || c.symbols;
  for (const sym of syms) band.append(symIcon(sym));
  if (!syms.length) band.append(el("span", "none", "no symbol"));
  if (pos) band.append(el("span", "pos", `#${pos}`));
  d.append(band);
  d.append(el("div", "nm fit", name));
  const figs = el("div", "figs");
  if (c.heavy) figs.append(woundFigure(c.heavy, true));
  if (c.light) figs.append(woundFigure(c.light, false));
  if (!c.heavy && !c.light) figs.append(el("span", "nil", "no wounds"));
  d.append(figs);
  if (c.range && c.range !== "-") d.append(rangePart(c.range));
  if (c.effect) d.append(el("div", "fx", c.effect));
  const foot = el("div", "foot", c.type && c.type !== "-" ? c.type : "");
  if (c.ko) foot.append(el("span", "ko", "K.O."));
  d.append(foot);
  return d;
}

function arenaSvg(view) {
  const a = view.arena;
  const w = a.width * CELL + 4;
  const h = a.height * CELL + 4;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("width", w);
  svg.setAttribute("height", h);
  svg.setAttribute("preserveAspectRatio", "xMinYMin meet");  // when the height is capped, drawn from the left
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${a.name} arena`);
  const where = {};
  for (const f of view.fighters) where[f.space] = f;
  const traps = new Set((a.traps || []).map((t) => t.space));
  const candles = a.candles;
  a.spaces.forEach((sp, i) => {
    const r = document.createElementNS(ns, "rect");
    r.setAttribute("x", 2 + sp.x * CELL); r.setAttribute("y", 2 + sp.y * CELL);
    r.setAttribute("width", CELL - 3); r.setAttribute("height", CELL - 3); r.setAttribute("rx", 5);
    let fill = "#e9e4d8";
    if (candles && (sp.x <= candles[0] || sp.x >= candles[1])) fill = "#ffab91";
    else if (sp.tags.includes("dangerous")) fill = "#ffcc80";
    else if ((a.corridors || []).includes(i)) fill = "#a5d6a7";
    r.setAttribute("fill", fill);
    r.setAttribute("stroke", sp.tags.includes("start") ? "#6d4c41" : "#bbb");
    r.dataset.space = String(i);
    r.dataset.pick = `space:${i}`;  // a space to move or blink to (direct play), marked by the last move
    const title = document.createElementNS(ns, "title");
    title.textContent = `${sp.label} ${sp.tags.join(" ")}`;
    r.append(title);
    svg.append(r);
    // the board coordinate the log uses ("moves to d1"), faint in the corner
    const coord = document.createElementNS(ns, "text");
    coord.setAttribute("x", 2 + sp.x * CELL + 4); coord.setAttribute("y", 2 + sp.y * CELL + 11);
    coord.setAttribute("font-size", "10"); coord.setAttribute("fill", "#6f675a");
    coord.setAttribute("class", "kd-coord"); coord.textContent = sp.label;
    svg.append(coord);
    if (traps.has(i)) {
      const t = document.createElementNS(ns, "text");
      t.setAttribute("x", 2 + sp.x * CELL + CELL / 2); t.setAttribute("y", 2 + sp.y * CELL + CELL - 8);
      t.setAttribute("text-anchor", "middle"); t.setAttribute("font-size", "13"); t.textContent = "⚠";
      svg.append(t);
    }
    const f = where[i];
    if (f) {
      const c = document.createElementNS(ns, "circle");
      c.setAttribute("cx", 2 + sp.x * CELL + CELL / 2 - 1); c.setAttribute("cy", 2 + sp.y * CELL + CELL / 2 - 1);
      c.setAttribute("r", CELL / 2 - 5); c.setAttribute("fill", SEAT_COLOR[f.seat]);
      c.dataset.fighter = f.id;
      c.dataset.pick = `fighter:${f.seat}`;  // the one an attack is aimed at
      svg.append(c);
      const t = document.createElementNS(ns, "text");
      t.setAttribute("x", 2 + sp.x * CELL + CELL / 2 - 1); t.setAttribute("y", 2 + sp.y * CELL + CELL / 2 + 4.5);
      t.setAttribute("text-anchor", "middle"); t.setAttribute("font-size", "15"); t.setAttribute("fill", "#fff");
      t.setAttribute("font-weight", "700"); t.textContent = f.name.slice(0, 2);
      t.dataset.follows = `fighter:${f.seat}`;  // moves with its token (the shell's motion.js)
      svg.append(t);
    }
  });
  return svg;
}

function fighterBox(view, f, ctx) {
  const d = view.decision || {};
  const box = el("div", `kd-fighter${d.player === f.seat ? " deciding" : ""}`);
  box.style.setProperty("--kd-c", SEAT_COLOR[f.seat]);
  box.style.setProperty("--kd-t", SEAT_TEXT[f.seat]);
  box.dataset.seat = f.seat;
  const name = el("div", "name", `${ctx.names[f.seat]}: ${f.name} (${f.class}) `);
  const toWin = ["", "one wins", "two win", "three win"][view.rounds_to_win ?? 2];  // null: two, as printed
  if (f.victories) name.append(tip(el("span", "stars", "★".repeat(f.victories)), `${f.victories} round victory (${toWin} the match)`));
  box.append(name);
  const cubes = tip(el("div", "kd-cubes"), `Wounds: ${f.heavy} heavy (filled) and ${f.light} light (hollow). `
    + "A Knockdown Test gets harder with every cube.");
  cubes.dataset.mark = `wounds:${f.seat}`;  // shaken when the fighter is wounded
  for (let i = 0; i < f.heavy; i++) cubes.append(el("i", "kd-cube heavy"));
  for (let i = 0; i < f.light; i++) cubes.append(el("i", "kd-cube"));
  box.append(cubes);
  const toks = el("div");
  for (const [t, n] of Object.entries(f.tokens || {})) {
    toks.append(tip(el("span", "kd-chip", `${t} ×${n}`), `${n} ${t} token${n === 1 ? "" : "s"}: see the fighter sheet and skills for what they do.`));
  }
  box.append(toks);
  const sk = f.skills.map((s) => s.name).join(", ") || "no active skill";
  const skills = el("div", "", `Skills: ${sk}${f.hidden_skills ? ` (+${f.hidden_skills} face down)` : ""}`);
  tip(skills, [...f.skills.map((s) => `${s.name}: ${s.text}`),
    f.hidden_skills ? `${f.hidden_skills} more skill card${f.hidden_skills === 1 ? "" : "s"} face down: kept secret until played.` : ""]
    .filter(Boolean).join("\n") || "No active skill.");
  box.append(skills);
  box.append(el("div", "", `Hand ${f.hand.length}/${f.hand_limit}`));
  if (f.seat !== ctx.seat || ctx.reveal) {  // your own hand is drawn beside the prompt (handPart)
    const hand = el("div", "kd-cards");
    f.hand.forEach((name, i) => hand.append(card(view, name, null, f.hand_symbols[i])));
    box.append(hand);
  }
  const sheet = el("details", "kd-sheet");
  sheet.append(el("summary", "", "Fighter sheet"));
  const ul = el("ul");
  for (const sp of f.sheet.specials) ul.append(el("li", "", sp.text));  // the full text, no tooltip needed
  if (f.sheet.ko_effect) ul.append(el("li", "", `K.O. effect: ${f.sheet.ko_effect}`));
  sheet.append(ul);
  box.append(sheet);
  return box;
}

// your hand, which the shell shows beside the prompt
function handPart(view, f) {
  const box = el("div", "kd-hand");
  box.id = "hand";
  box.dataset.part = "hand";
  box.dataset.pick = "hand";  // where a card taken from the row goes
  box.append(el("h3", "", `Your hand · ${f.hand.length} of ${f.hand_limit}`));
  const row = el("div", "kd-cards hand-row");
  f.hand.forEach((name, i) => {
    const c = card(view, name, null, f.hand_symbols[i]);  // the symbols it pays with for you (skills add some)
    c.dataset.pick = `hand:${i}`;
    row.append(c);
  });
  box.append(f.hand.length ? row : el("p", "muted", "no cards yet: take them from the Attack Row"));
  return box;
}

function pendingLine(view, names) {
  const d = view.decision || {};
  const p = view.pending || {};
  const atk = view.attack;
  const who = d.player !== undefined && d.player >= 0 ? names[d.player] : "";
  switch (d.kind) {
    case "tower_challenge": return `Knockdown Test! ${who} must stack ${p.cubes} cubes into a tower within ${p.seconds} s.`;
    case "block": return atk ? `${names[atk.by]}'s ${atk.name} hits ${who}: block or take it.` : "";
    case "reaction": return `${who} may react: ${(p.reactions || []).join(", ")}.`;
    case "knockdown": return atk ? `${atk.name} has a K.O. effect: ${who} may start a Knockdown Test.` : "";
    case "turn": return `${who}'s turn: action ${view.actions_done + 1} of ${view.actions_allowed}.`;
    case "skill_draft": case "skill_face_up": return `Skill draft: ${who} is choosing.`;
    default: return d.kind ? `${who}: ${d.prompt || d.kind}` : "";
  }
}

// picks on the open tower puzzles, by challenge id (a redraw of the board keeps them), and where the
// cubes lie now: the server sends only where they lie when the puzzle opens; when the puzzle says
// `reshuffle`, the cubes still lying move to new spots after each correct pick, drawn here.
const towerPicks = {};

function movedLayout(ch, st) {
  const [cols, rows] = ch.grid;
  const free = [];
  for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) free.push([x, y]);
  const rnd = new Uint32Array(free.length);
  crypto.getRandomValues(rnd);
  for (let i = free.length - 1; i > 0; i--) {
    const j = rnd[i] % (i + 1);
    [free[i], free[j]] = [free[j], free[i]];
  }
  let k = 0;
  return ch.cubes.map((c, i) => (st.ids.includes(c.id) ? st.layout[i] : free[k++]));
}

export function towerGame(ch, ctx) {
  const st = towerPicks[ch.id]
    || (towerPicks[ch.id] = { ids: [], toppled: false, sent: false, layout: ch.layout.map((xy) => xy.slice()) });
  const n = ch.cubes.length;
  const byId = Object.fromEntries(ch.cubes.map((c) => [c.id, c]));
  const wrap = el("div");
  wrap.id = "tower-game";
  const status = el("div", `kd-tstatus${st.toppled ? " bad" : ""}`, st.toppled ? "Your tower toppled!"
    : st.ids.length === n ? "Tower complete: the table is judging it…"
      : `Pick cube ${st.ids.length + 1} of ${n}${ch.reshuffle && st.ids.length ? " (the cubes moved!)" : ""}`);
  status.id = "tower-status";
  wrap.append(status);
  const game = el("div", "kd-tgame");
  const [cols, rows] = ch.grid;
  const field = el("div", "kd-field");
  field.id = "tower-field";
  // cells shrink to fit a narrow screen (--cell, in the style sheet)
  field.style.setProperty("--cols", cols);
  field.style.setProperty("--rows", rows);
  const layout = st.layout;
  const pick = (c) => {
    if (st.sent) return;
    st.ids.push(c.id);
    if (c.place !== st.ids.length) st.toppled = true;
    else if (ch.reshuffle && st.ids.length < n) st.layout = movedLayout(ch, st);
    if (st.toppled || st.ids.length === n) { st.sent = true; ctx.answer(st.ids.slice()); }
    wrap.replaceWith(towerGame(ch, ctx));
  };
  ch.cubes.forEach((c, i) => {
    if (st.ids.includes(c.id)) return;
    const b = el("button", `kd-tcube ${c.weight}`, String(c.place));
    b.dataset.cube = c.id;
    b.dataset.place = c.place;
    b.title = `cube ${c.id}: place ${c.place} (${c.weight})`;
    b.style.left = `calc(8px + ${layout[i][0]} * var(--cell))`;
    b.style.top = `calc(10px + ${layout[i][1]} * var(--cell))`;
    b.disabled = st.sent;
    b.addEventListener("click", () => pick(c));
    field.append(b);
  });
  const stack = el("div", `kd-tstack${st.toppled ? " toppled" : ""}`);
  stack.id = "tower-stack";
  for (const id of st.ids) {
    const c = byId[id];
    const cube = el("i", c.weight, String(c.place));
    cube.dataset.cube = id;
    stack.append(cube);
  }
  game.append(field, stack);
  wrap.append(game);
  return wrap;
}

function towerPanel(view, ctx) {
  const p = view.pending || {};
  const box = el("div", "kd-tower");
  box.id = "tower";
  const ch = ctx.challenge;
  if (ch && ch.kind === "tower" && ctx.seat === p.tested) {
    box.dataset.part = "challenge";  // the shell opens it in a view that fits the screen, with the rule and timer
    box.append(towerGame(ch, ctx));
    return box;
  }
  box.append(el("div", "", ctx.seat === p.tested
    ? `Build your tower: every one of your ${p.cubes} wound cubes, one touching the table, none touching more than two.`
    : `${ctx.names[p.tested]} is building a tower of ${p.cubes} cubes.`));
  const me = view.fighters[p.tested];
  const stack = el("div", "stack");
  for (let i = 0; i < me.heavy; i++) stack.append(el("i"));
  for (let i = 0; i < me.light; i++) stack.append(el("i", "light"));
  box.append(stack);
  box.append(el("small", "", "The table's timer counts the 10 seconds; the server decides whether the tower stands."));
  return box;
}

export function renderBoard(root, view, ctx) {
  ensureStyle();
  root.replaceChildren();
  const wrap = el("div", "kd");
  const a = view.arena;
  const head = el("div", "kd-head");
  const top = el("div", "kd-top", `Round ${view.round} · turn ${view.turn} · ${a.name}`);
  // the arena's rule is on the title's tip (hover, focus or a long press), so the arena stays in view
  tip(top, `${a.name}: ${a.rule_text}`);
  head.append(top);
  const line = pendingLine(view, ctx.names);
  if (line) head.append(el("div", "kd-pending", line));
  wrap.append(head);
  const play = el("div", "kd-play");
  const arena = el("div", "kd-arena");
  arena.id = "arena";
  arena.style.maxWidth = `${a.width * CELL + 4}px`;  // never drawn larger than its own size
  arena.append(arenaSvg(view));
  play.append(arena);
  const row = el("div");
  row.id = "attack-row";
  row.dataset.part = "row";
  row.append(el("h3", "", `Attack Row · deck ${view.deck}${view.candles_in_deck ? ` (${view.candles_in_deck} Candle cards)` : ""}`));
  const cards = el("div", "kd-cards");
  view.row.forEach((name, i) => { const c = card(view, name, i + 1); c.dataset.pick = `row:${i}`; cards.append(c); });
  row.append(cards);
  play.append(row);
  wrap.append(play);
  if ((view.decision || {}).kind === "tower_challenge") wrap.append(towerPanel(view, ctx));
  const fighters = el("div", "kd-fighters");
  for (const f of view.fighters) fighters.append(fighterBox(view, f, ctx));
  wrap.append(fighters);
  const mine = view.fighters.find((f) => f.seat === ctx.seat);
  if (mine && !ctx.reveal) wrap.append(handPart(view, mine));
  root.append(wrap);
}

// ---------------------------------------------------------------- pictures for the rules page
const EXAMPLE_CARDS = {
  "Example Kick": { symbols: ["kick", "block"], heavy: 1, light: 1, range: "range 1-2", type: "strike", ko: true,
    text: "1 heavy and 1 light wound at range 1 to 2. K.O. effect: a Knockdown Test may follow.",
    effect: "Backward 1: push your opponent 1 space straight away from you." },
  "Example Rush": { symbols: ["dash"], heavy: 0, light: 0, range: "any range", type: "ability", ko: false,
    text: "An Ability at any range: you may move up to 2 spaces. It cannot be blocked.",
    effect: "You may move yourself up to 2 spaces." },
};

// ---------------------------------------------------------------- direct play (see the shell's direct_play.js)
const STEP = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };

function orders(items) {  // every order of a few cards (payment cards may be picked in any order)
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) => orders([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
}

function spaceAt(view, x, y) {
  const i = view.arena.spaces.findIndex((sp) => sp.x === x && sp.y === y);
  return i < 0 ? null : i;
}

// the things an action is made of: a row card, then the rival it hits or your hand it goes to;
// the space a step or a Blink goes to; the cards of your hand that pay or are chosen
export function picks(text, view) {
  const d = view.decision || {};
  const me = d.player ?? view.seat;
  if (me === null || me === undefined || me !== view.seat) return [];
  const [head, arg] = text.split(":");
  const mine = view.fighters.find((f) => f.seat === me);
  const rival = view.fighters.find((f) => f.seat !== me);
  switch (head) {
    case "attack": return rival ? [[`row:${arg}`, `fighter:${rival.seat}`]] : [];
    case "row": return [[`row:${arg}`, "hand"]];
    case "move": {
      const at = view.arena.spaces[mine.space];
      const [dx, dy] = STEP[arg] || [0, 0];
      const to = spaceAt(view, at.x + dx, at.y + dy);
      return to === null ? [] : [[`space:${to}`]];
    }
    case "space": case "corridor": return [[`space:${arg}`]];
    case "pay": return orders(arg.split("+")).map((o) => o.map((i) => `hand:${i}`));
    case "card": return ((view.pending || {}).owner ?? me) === me ? [[`hand:${arg}`]] : [];
    default: return [];
  }
}

// what the last move touched: the fighters it involved, the space moved to, the row card used
export function lastMove(events) {
  const keys = new Set();
  for (const e of events) {
    const d = e.data || {};
    if (["turn", "game_over", "action", "row_card", "new_round"].includes(e.type)) continue;
    if (d.player !== undefined && d.player !== null) keys.add(`fighter:${d.player}`);
    if (d.target !== undefined && d.target !== null) keys.add(`fighter:${d.target}`);
    if (e.type === "moved") keys.add(`space:${d.to}`);
  }
  return [...keys];
}

// motion (the shell's motion.js): a card that arrives from the deck grows into the Attack Row
// (nothing on the board stands for the deck); what was hurt: the fighter wounded (its token on
// the arena and its wound cubes)
export function origins() { return []; }

export function hits(events) {
  const seats = new Set();
  for (const e of events) {
    const d = e.data || {};
    if (e.type === "wounds" && (d.heavy || d.light)) seats.add(d.player);
    if (e.type === "wound_moved") seats.add(d.to);
  }
  return [...seats].flatMap((p) => [`fighter:${p}`, `wounds:${p}`]);
}

export function picture(name) {
  if (name !== "card") return null;
  ensureStyle();
  const view = { cards: EXAMPLE_CARDS };
  const row = el("div", "kd-cards");
  for (const n of Object.keys(EXAMPLE_CARDS)) row.append(card(view, n));
  const fig = el("div");
  fig.append(row, el("figcaption", "muted", "Two Attack cards: the symbols they pay with on the top band, the "
    + "name, the wounds they deal in large figures (filled cube: heavy, hollow: light), the range, the first words "
    + "of the effect (all of it when you zoom the card), and on the bottom band the type (the frame's colour: red "
    + "Strike, purple Ability) and K.O. when a Knockdown Test may follow."));
  return fig;
}

// ---------------------------------------------------------------- help (seat's view only)
export function legend() {
  const sym = (s) => { const w = el("span"); w.append(symIcon(s)); return w; };
  return [
    [sym("punch"), "Punch symbol"], [sym("kick"), "Kick symbol"], [sym("block"), SYMBOL_TEXT.block],
    [sym("dash"), SYMBOL_TEXT.dash], [sym("wild"), SYMBOL_TEXT.wild],
    ["■ □", "Wound cubes: heavy (filled) and light (hollow); an attack card shows the wounds it deals in large figures."],
    ["red / purple / teal frame", "An Attack card's type: Strike (can be blocked), Ability or Reaction (cannot be blocked)."],
    ["◎ 1–2", "An attack's range in spaces (any: unlimited; projectile: any distance in a straight line)."],
    ["★", "A round won; two win the match."],
    ["K.O.", "The attack has a K.O. effect: the one hit may face a Knockdown Test."],
    ["(+N face down)", "Skill cards still hidden: only their owner knows them."],
    ["#1–#4", "The place of a card in the Attack Row."],
    ["a1, b2 …", "Arena spaces, named as the log names them (column letter, row number)."],
    ["coloured spaces", "Orange: beyond the candles or dangerous; green: corridor; ⚠ a trap; dark edge: a start space."],
  ];
}

export function outcomeText(outcome, view, ctx) {
  const w = outcome.winners[0];
  if (outcome.draw) return `The turn limit (${view.max_turns}) was reached with the fighters level.`;
  if (outcome.reason.startsWith("knockdown")) return `${ctx.names[w]} won two rounds by knocking the rival out in a Knockdown Test.`;
  if (outcome.reason.startsWith("fewest wounds")) return `The turn limit was reached: ${ctx.names[w]} had the fewest wounds.`;
  return outcome.reason;
}

// ---------------------------------------------------------------- the studio's preview
// a box being edited: each fighter's sheet and each Attack card as the table draws them;
// ``cards`` come from the server's content editor
export function previewCards(root, cards) {
  ensureStyle();
  const view = { cards: Object.fromEntries(cards.filter((c) => c.kind === "card").map((c) => [c.name, c])) };
  const sheets = el("div", "kd-fighters");
  for (const f of cards.filter((c) => c.kind === "fighter")) {
    const box = el("div", "kd-fighter kd-preview");
    box.style.setProperty("--kd-c", SEAT_COLOR[0]);
    box.style.setProperty("--kd-t", SEAT_TEXT[0]);
    box.dataset.fighter = f.name;
    box.append(el("div", "name", `${f.name} (${f.class})`));
    const ul = el("ul");
    for (const sp of f.specials) ul.append(el("li", "", sp.text));
    if (f.ko_effect) ul.append(el("li", "", `K.O. effect: ${f.ko_effect}`));
    box.append(ul);
    sheets.append(box);
  }
  const row = el("div", "kd-cards");
  for (const name of Object.keys(view.cards)) row.append(card(view, name));
  root.replaceChildren(sheets, row);
}
