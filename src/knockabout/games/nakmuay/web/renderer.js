// Nak Muay Knockout in the browser: fighters, draw and discard piles, direction, your hand.
// Renderer interface (see docs/live-play.md): renderBoard(el, view, ctx), and the optional help the
// shell shows: legend(), picture(name), outcomeText(outcome, view, ctx); direct play: picks(action, view)
// and lastMove(events); motion: origins(events, card) and hits(events). All of it reads the seat's own view only.
// The prompt, the actions' words and the hints come from the game's guide (games/nakmuay/guide.py)
// in each frame, worked out on the server from the seat's own view.

import { el } from "/static/page.js";  // the shell's element builder and tip holder, shared by every renderer
import { tip } from "/static/help.js";

const TITLES = {
  "ko": "KO", "block": "Block", "attack+1": "Attack +1", "attack+2": "Attack +2", "attack+3": "Attack +3",
  "countdown": "10-Second Countdown", "dodge": "Dodge", "scout": "Scout", "sweep": "Sweep",
  "plum": "Clinch: Plum", "collar-tie": "Clinch: Collar Tie", "underhook": "Clinch: Underhook",
  "overhook": "Clinch: Overhook", "body-lock": "Clinch: Body Lock",
};
const CLINCH_TEXT = "Two alike steal a random card; three different steal a named card.";
const TEXT = {
  "ko": "Drawn: play a Block and hide it back in the pile, or you are out.",
  "block": "Stops a KO you draw or a Countdown aimed at you.",
  "attack+1": "The next player draws 1 card unless they Dodge.",
  "attack+2": "The next player draws 2 cards unless they Dodge.",
  "attack+3": "The next player draws 3 cards unless they Dodge.",
  "countdown": "The next player must answer with Block, Dodge or a Clinch in time, or is out.",
  "dodge": "Cancels an Attack or Countdown on you; on your turn, skip your draw.",
  "scout": "Look at the top 3 cards, take one that is not a KO, put the rest back.",
  "sweep": "Shuffle the draw pile, then keep or reverse the direction.",
};
const ORDER = Object.keys(TITLES);

function kindClass(name) {
  if (name.startsWith("attack")) return "k-attack";
  if (["ko", "block", "countdown", "dodge", "scout", "sweep"].includes(name)) return `k-${name}`;
  return "k-clinch";
}

const SVG = {
  block: '<path d="M12 2l8 3v6c0 5-3.5 9-8 11-4.5-2-8-6-8-11V5z" fill="currentColor"/>',
  countdown: '<circle cx="12" cy="13" r="8" fill="none" stroke="currentColor" stroke-width="2.4"/><path d="M12 13V8M12 13l3 2M9 2h6" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>',
  dodge: '<path d="M4 17c2-7 8-10 14-9" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round"/><path d="M15 4l4 4-4 4" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round"/>',
  scout: '<path d="M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="3.2" fill="currentColor"/>',
  sweep: '<path d="M20 12a8 8 0 1 1-3-6.2" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round"/><path d="M18 2v5h-5" fill="none" stroke="currentColor" stroke-width="2.6"/>',
  clinch: '<circle cx="9" cy="12" r="5" fill="none" stroke="currentColor" stroke-width="2.6"/><circle cx="15" cy="12" r="5" fill="none" stroke="currentColor" stroke-width="2.6"/>',
  ko: '<path d="M12 1l2.6 6.5 7-.6-5.3 4.6 2.3 6.7L12 14.4l-6.6 3.8 2.3-6.7L2.4 6.9l7 .6z" fill="currentColor"/>',
};

function glyph(name) {
  if (name.startsWith("attack")) {
    return `<svg viewBox="0 0 24 24" aria-hidden="true"><text x="12" y="17" text-anchor="middle" font-size="14" font-weight="900" fill="var(--c)">+${name.slice(-1)}</text></svg>`;
  }
  const key = SVG[name] ? name : "clinch";
  return `<svg viewBox="0 0 24 24" aria-hidden="true" style="color:var(--c)">${SVG[key]}</svg>`;
}

export function card(name, small = false) {
  const c = el("div", `card ${kindClass(name)}${small ? " small" : ""}`);
  c.dataset.card = name;
  tip(c, `${TITLES[name] || name}: ${TEXT[name] || `Clinch hold. ${CLINCH_TEXT}`}`);
  const title = TITLES[name] || name;
  c.append(el("div", "band fit", title.replace("Clinch: ", "").replace("10-Second ", "")));
  const g = el("div", "glyph"); g.innerHTML = glyph(name); c.append(g);
  c.append(el("div", "txt", name in TEXT ? TEXT[name] : `Clinch hold. ${CLINCH_TEXT}`));
  return c;
}

function sortCards(cards) {
  return [...cards].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
}

// view.pending has every field of the schema; those that do not apply are null.
function pendingLine(view, names) {
  const p = view.pending || {};
  if (p.value != null) return `${names[p.attacker]} attacks ${names[p.target]} with Attack +${p.value}: Dodge or take it.`;
  if (p.countdown) return `COUNTDOWN! ${names[p.target]} must answer ${names[p.attacker]}'s Countdown or be counted out.`;
  if (p.ko) return `${names[p.drawer]} drew a KO!`;
  if (p.scout != null) return `${names[p.scout]} is scouting.`;
  if (p.steal != null) return `${names[p.thief]} is choosing whom to clinch (${p.steal}).`;
  if (p.named != null) return `${names[p.thief]} is questioning ${names[p.target]}.`;
  return "";
}

export function renderBoard(root, view, ctx) {
  const names = ctx.names;
  const d = view.decision || {};
  root.replaceChildren();
  const fighters = el("div", "nm-fighters");
  for (let i = 0; i < view.players; i++) {
    const f = el("div", `nm-fighter${d.player === i ? " deciding" : ""}${view.active[i] ? "" : " out"}`);
    f.dataset.seat = i;
    f.dataset.pick = `fighter:${i}`;  // a target of direct play, and where the last move is marked
    const head = el("div", "name", names[i]);
    if (ctx.seat === i) head.append(tip(el("span", "badge you", "you"), "Your seat."));
    if (view.current === i && view.active[i]) head.append(tip(el("span", "badge turn", "turn"), `It is ${names[i]}'s turn.`));
    if (!view.active[i]) head.append(tip(el("span", "badge out", "knocked out"), `${names[i]} drew a KO without a Block and is out.`));
    f.append(head);
    f.append(el("div", "meta", `${view.hand_sizes[i]} card${view.hand_sizes[i] === 1 ? "" : "s"}`));
    if (!ctx.reveal) {
      const backs = el("div", "backs");
      backs.id = `backs-${i}`;  // a card drawn flies here from the pile (the shell's motion.js)
      for (let k = 0; k < Math.min(view.hand_sizes[i], 12); k++) { const b = el("i"); b.dataset.back = "card"; backs.append(b); }
      f.append(backs);
    }
    const no = (view.no_answers || {})[String(i)];
    if (no && no.length) {
      f.append(tip(el("div", "meta", `said no to: ${no.map((c) => TITLES[c] || c).join(", ")}`),
        `${names[i]} was asked for these cards by a Clinch and did not have them then.`));
    }
    if (ctx.reveal && ctx.reveal[i] && ctx.reveal[i].hand) {
      const hand = el("div", "cards");
      for (const c of sortCards(ctx.reveal[i].hand)) hand.append(card(c, true));
      f.append(hand);
    }
    fighters.append(f);
  }
  root.append(fighters);

  const center = el("div", "nm-center");
  const draw = el("div", "nm-pile");
  const back = el("div", "card back", String(view.draw_pile));
  back.id = "draw-pile";
  back.dataset.pick = "pile:draw";
  tip(back, `Draw pile: ${view.draw_pile} cards, ${view.ko_in_pile} of them KO.`);
  draw.append(back, el("div", "", `draw pile · ${view.ko_in_pile} KO inside`));
  const disc = el("div", "nm-pile");
  const top = view.discard.length ? card(view.discard[view.discard.length - 1]) : el("div", "card empty", "empty");
  top.dataset.pick = "pile:discard";  // where a played card goes
  if (!top.hasAttribute("data-tip")) tip(top, "The discard pile: played cards go here.");
  disc.append(top);
  disc.append(el("div", "", `discard · ${view.discard.length}`));
  const dir = tip(el("div", "nm-dir", view.direction === "clockwise" ? "↻" : "↺"),
    `Play goes ${view.direction}: Attacks and Countdowns hit the next fighter that way.`);
  dir.append(el("small", "", `${view.direction} · turn ${view.turn}`));
  center.append(draw, disc, dir);
  root.append(center);

  const line = pendingLine(view, names);
  if (line) root.append(el("div", "nm-pending", line));

  if (view.hand) {
    const hand = el("div", "nm-hand");
    hand.id = "hand";
    hand.dataset.part = "hand";  // the shell shows it beside the prompt
    hand.append(el("h3", "", `Your hand · ${view.hand.length} card${view.hand.length === 1 ? "" : "s"}`));
    const cards = el("div", "cards hand-row");
    for (const c of sortCards(view.hand)) { const k = card(c); k.dataset.pick = `hand:${c}`; cards.append(k); }
    if (!view.hand.length) cards.append(el("span", "muted", "no cards"));
    hand.append(cards);
    const seen = (view.pending || {}).seen;
    if (seen && seen.length) {
      hand.append(el("h3", "", "You see on the pile (top first)"));
      const s = el("div", "cards hand-row");
      seen.forEach((c, i) => { const k = card(c); k.dataset.pick = `seen:${i}`; s.append(k); });
      hand.append(s);
    }
    if (view.known_pile && view.known_pile.length) {
      hand.append(el("p", "muted", "You know in the pile: " + view.known_pile
        .map((k) => `${TITLES[k.card] || k.card} at ${k.depth === 0 ? "the top" : `${k.depth} below the top`}`).join(", ")));
    }
    root.append(hand);
  }
}

// ---------------------------------------------------------------- pictures for the rules page
export function picture(name) {
  const sets = {
    danger: ["ko", "block"],
    attacks: ["attack+1", "attack+2", "countdown", "dodge"],
    tricks: ["scout", "sweep", "plum", "collar-tie"],
  };
  if (!sets[name]) return null;
  const row = el("div", "cards");
  for (const c of sets[name]) row.append(card(c));
  return row;
}

// ---------------------------------------------------------------- direct play (see the shell's direct_play.js)
const RESPONSES = new Set(["attack_response", "countdown_response", "ko_block"]);

function nextActive(view, seat) {  // the fighter an Attack or a Countdown is aimed at
  const step = view.direction === "clockwise" ? 1 : -1;
  let q = (seat + step + view.players) % view.players;
  while (!view.active[q] && q !== seat) q = (q + step + view.players) % view.players;
  return q;
}

function orders(items) {  // every order of a few cards (a Clinch triple may be picked in any order)
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) => orders([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
}

// the things an action is made of: on your turn a card, then where it goes (the fighter it is
// aimed at, or the discard pile); an answer to an attack, a Countdown or a KO is the card alone
export function picks(text, view) {
  const kind = (view.decision || {}).kind || "";
  const [head, arg] = text.split(":");
  const hand = (name) => `hand:${name}`;
  const then = (keys, where) => (RESPONSES.has(kind) ? [keys] : [[...keys, where]]);
  const aimed = view.seat === null || view.seat === undefined ? null : `fighter:${nextActive(view, view.seat)}`;
  switch (head) {
    case "draw": return [["pile:draw"]];
    case "attack": return aimed ? [[hand(`attack+${arg}`), aimed]] : [];
    case "countdown": return RESPONSES.has(kind) ? [] : aimed ? [[hand("countdown"), aimed]] : [];
    case "dodge": case "scout": case "sweep": case "block": return then([hand(head)], "pile:discard");
    case "clinch": return [[hand(arg)]];
    case "pair": return [[hand(arg), hand(arg), "pile:discard"]];
    case "triple": return orders(arg.split("+")).map((o) => [...o.map(hand), "pile:discard"]);
    case "target": return [[`fighter:${arg}`]];
    case "scout-take": return arg === "none" ? [] : [[`seen:${arg}`]];
    default: return [];
  }
}

// what the last move touched: who acted, whom it was aimed at, the card it put on the pile
export function lastMove(events) {
  const keys = new Set();
  for (const e of events) {
    const d = e.data || {};
    if (e.type === "turn" || e.type === "game_over") continue;
    if (d.player !== undefined) keys.add(`fighter:${d.player}`);
    if (d.target !== undefined && d.target !== null) keys.add(`fighter:${d.target}`);
    if (["attack", "countdown", "dodge", "scout", "sweep", "clinch_triple", "steal_target", "block_ko", "countdown_answered"]
      .includes(e.type)) keys.add("pile:discard");
    if (["draw", "drew", "draw_ko", "scout_return", "hid_ko", "sweep"].includes(e.type)) keys.add("pile:draw");
  }
  return [...keys];
}

// ---------------------------------------------------------------- motion (the shell's motion.js)
// where a card that arrived came from: into a hand (yours, or a fighter's backs) from the draw
// pile, or from the fighter a Clinch stole it from; onto the discard pile from the fighter who played it
export function origins(events, card) {
  const last = (pred) => [...events].reverse().find(pred);
  if (card.where === "hand" || card.where.startsWith("backs-")) {
    const steal = last((e) => e.type === "steal" && (e.data || {}).target !== undefined);
    return steal ? [`fighter:${steal.data.target}`] : ["pile:draw"];
  }
  const played = last((e) => !["turn", "game_over", "draw", "drew", "draw_ko"].includes(e.type)
    && e.data && e.data.player !== undefined);
  return played ? [`fighter:${played.data.player}`] : [];
}

// what was hurt: a fighter who drew a KO or was knocked out
export function hits(events) {
  return [...new Set(events.filter((e) => e.type === "draw_ko" || e.type === "eliminated")
    .map((e) => `fighter:${e.data.player}`))];
}

// ---------------------------------------------------------------- help (seat's view only)
export function legend() {
  return [
    ["KO", TEXT.ko], ["Block", TEXT.block], ["Attack +N", "The next player draws N cards unless they Dodge."],
    ["Countdown", TEXT.countdown], ["Dodge", TEXT.dodge], ["Scout", TEXT.scout], ["Sweep", TEXT.sweep],
    ["Clinch holds", `Plum, Collar Tie, Underhook, Overhook, Body Lock. ${CLINCH_TEXT} Any one answers a Countdown.`],
    ["↻ ↺", "The direction of play."], ["KO inside", "How many KO cards the draw pile still holds."],
    ["said no to", "Cards a fighter was asked for by a Clinch and did not have."],
  ];
}

export function outcomeText(outcome, view, ctx) {
  if (outcome.reason === "turn limit") return "The turn limit was reached: the fighters still standing share the result.";
  const w = outcome.winners[0];
  return `${ctx.names[w]} is the last fighter standing: everyone else drew a KO without a Block or was counted out.`;
}
