// Motion: what moved on the table moves on the screen, in at most 400 ms, and nothing moves
// for a person who asks for reduced motion. Everything is worked out from the page itself,
// which draws only this seat's frames: where the cards, tiles and fighters stood before a
// redraw and where they stand after it, and the events of the frame that caused the redraw.
//
//  - a thing that is still there but elsewhere (a tile pushed, a fighter moved, a card placed
//    from your hand onto the grid) slides from where it stood;
//  - a card that left one place and arrived in another in the same redraw (played from your
//    hand to the pile, taken from the row into your hand) flies between them (a copy of it
//    flies above the page, so no scrolling row or the phone's dock clips it);
//  - a card or tile that arrived from nowhere on this page (a card drawn, a rival's card
//    played) flies from the first thing the renderer's `origins(events, {name, where})` names
//    for it (the draw pile, the fighter who played it), or, when it names none that is drawn,
//    grows into its place;
//  - the things the renderer's `hits(events)` names (a fighter wounded or knocked out, a card
//    punched) shake and flash red; a thing hit that left the board (a card knocked out) flashes
//    and fades where it stood.
// A copy is removed as soon as its animation ends.
// Animations use the Web Animations API, so they leave nothing behind in the page; `play`
// says what it animated (for the sounds, static/sound.js).

export const LONGEST = 400;  // ms: no animation here lasts longer (tests/web/test_motion.py checks)
const SLIDE = 320;
const GROW = 260;
const HIT = 380;
const EASE = "cubic-bezier(.2,.7,.3,1)";  // a slide: most of the way early, then settling
const FLY = "cubic-bezier(.3,.2,.2,1)";  // a card's flight: the journey itself is seen
const RED = "#ff5a5f";

export const reducedMotion = () => !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

// the identity of a thing across redraws: a tile by its label; a fighter or pile by its
// data-pick key when one element has it; a card (or a card's back, `data-back`, as a rival's
// hand shows it) by where it is (its part or the nearest id), its name and which of the alike it is
function keyed(roots) {
  const out = new Map();
  const seen = new Map();
  const add = (key, el) => { if (!out.has(key)) out.set(key, el); };
  const picks = new Map();  // how many elements of the roots carry each data-pick key
  const all = roots.flatMap((root) => [...root.querySelectorAll("[data-tile], [data-card], [data-back], [data-pick]")]);
  for (const el of all) if (el.dataset.pick) picks.set(el.dataset.pick, (picks.get(el.dataset.pick) || 0) + 1);
  for (const el of all) {
    if (el.closest(".zoom")) continue;
    if (el.dataset.tile) { add(`tile|${el.dataset.tile}`, el); continue; }
    const card = el.dataset.card || el.dataset.back;
    if (card) {
      const base = `card|${partOf(el)}|${card}`;
      const n = seen.get(base) || 0;
      seen.set(base, n + 1);
      add(`${base}|${n}`, el);
      continue;
    }
    const pick = el.dataset.pick;
    if (pick && picks.get(pick) === 1) add(`pick|${pick}`, el);
  }
  return out;
}

function partOf(el) {
  const part = el.closest("[data-part], [id]");
  return part ? (part.dataset.part || part.id) : "";
}

function rectOf(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height, left: r.left, top: r.top };
}

function allByKey(roots, key) {
  const sel = `[data-pick="${CSS.escape(key)}"], [data-mark="${CSS.escape(key)}"]`;
  return roots.flatMap((root) => [...root.querySelectorAll(sel)]).filter((el) => !el.closest(".zoom"));
}

// a thing inside an SVG drawing moves in the drawing's units, not the screen's
function unit(el) {
  const svg = el instanceof SVGElement && el.ownerSVGElement;
  const m = svg && svg.getScreenCTM();
  return m && m.a ? m.a : 1;
}

// dx, dy: from where it stood to where it stands, in screen pixels; s: its scale there
function slide(el, dx, dy, s, roots) {
  const u = unit(el);
  const frames = [{ transform: `translate(${dx / u}px, ${dy / u}px) scale(${s})` }, { transform: "none" }];
  el.animate(frames, { duration: SLIDE, easing: EASE });
  // what is drawn with it (an SVG token's letters) says so with data-follows="<its key>"
  const key = el.dataset.pick;
  if (key) {
    for (const root of roots) {
      for (const f of root.querySelectorAll(`[data-follows="${CSS.escape(key)}"]`)) f.animate(frames, { duration: SLIDE, easing: EASE });
    }
  }
}

// the slides planned for one redraw: a thing inside another that slides (a card in a hand that
// moved down the page) moves with it, so only what is left of its own move is added
function slideAll(plan, roots) {
  const byEl = new Map(plan.map((p) => [p.el, p]));
  const shift = (p) => ({ dx: p.from.x - p.to.x, dy: p.from.y - p.to.y });
  // the flying cards' looks are read before any copy joins the page (one style pass, not one each)
  const looks = new Map(plan.filter((p) => p.scale).map((p) => [p.el, lookOf(p.el)]));
  let n = 0;
  for (const p of plan) {
    let { dx, dy } = shift(p);
    let up = p.el.parentElement;
    while (up && !byEl.has(up)) up = up.parentElement;
    if (up) { const q = shift(byEl.get(up)); dx -= q.dx; dy -= q.dy; }
    if (p.scale) { fly(p.el, p.from, p.to, looks.get(p.el)); n++; continue; }  // (a flight's copy is on the screen, not in its place)
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    slide(p.el, dx, dy, 1, roots);
    n++;
  }
  return n;
}

function grow(el) {
  el.animate([{ transform: "scale(.82)", opacity: 0.2 }, { transform: "none", opacity: 1 }],
    { duration: GROW, easing: EASE });
}

function shake(el) {
  el.animate([
    { transform: "translateX(0)", filter: "none" },
    { transform: "translateX(-5px)", filter: `drop-shadow(0 0 6px ${RED})` },
    { transform: "translateX(5px)", filter: `drop-shadow(0 0 8px ${RED})` },
    { transform: "translateX(-3px)", filter: `drop-shadow(0 0 6px ${RED})` },
    { transform: "translateX(0)", filter: "none" },
  ], { duration: HIT, easing: "ease-out" });
}

// a copy of a thing, fixed on the screen at ``at`` above the page (nothing in it can be picked,
// focused or read aloud), removed when its animation ends. ``look``: a live thing's own look
// (what its place's style gives it, as a card's back in a fighter's box), set on the copy.
const LOOK = ["background", "border", "borderRadius", "boxSizing", "color", "font", "padding"];
function lookOf(el) {
  const look = getComputedStyle(el);
  return Object.fromEntries(LOOK.map((k) => [k, look[k]]));
}

function copyAt(el, at, animate, look = null) {
  const copy = el.cloneNode(true);
  for (const e of [copy, ...copy.querySelectorAll("*")]) {
    for (const attr of ["id", "data-pick", "data-mark", "data-card", "data-tile", "data-back", "data-tip", "tabindex", "role",
      "aria-label", "aria-describedby"]) e.removeAttribute(attr);
    e.classList?.remove("pickable", "picked", "last-move", "target", "active", "own");
  }
  copy.setAttribute("aria-hidden", "true");
  copy.classList.add("motion-copy");
  if (look) Object.assign(copy.style, look);
  Object.assign(copy.style, { position: "fixed", left: `${at.left}px`, top: `${at.top}px`, width: `${at.w}px`,
    height: `${at.h}px`, margin: "0", pointerEvents: "none", zIndex: "30", transformOrigin: "50% 50%" });
  document.body.append(copy);
  const a = animate(copy);
  const done = () => copy.remove();
  a.finished.then(done, done);
}

// a card's flight from one place to another: a copy travels above everything (no scrolling
// row or dock clips it) while the card itself waits, unseen, where it lands
function fly(el, from, to, look) {
  const s = to.w ? Math.max(0.4, Math.min(2, from.w / to.w)) : 1;
  copyAt(el, to, (copy) => copy.animate([{ transform: `translate(${from.x - to.x}px, ${from.y - to.y}px) scale(${s})` },
    { transform: "none" }], { duration: SLIDE, easing: FLY }), look);
  el.animate([{ opacity: 0 }, { opacity: 0 }], { duration: SLIDE });
}

// a thing hit that is no longer drawn: its old copy where it stood, flashing and fading out
function fadeOut(old, at) {
  copyAt(old, at, (copy) => copy.animate([
    { transform: "none", opacity: 1, filter: `drop-shadow(0 0 8px ${RED})` },
    { transform: "scale(1.08) rotate(-4deg)", opacity: 0.8, filter: `drop-shadow(0 0 12px ${RED})`, offset: 0.35 },
    { transform: "scale(.6) rotate(8deg)", opacity: 0, filter: "none" },
  ], { duration: HIT, easing: "ease-in" }));
}

export function motion() {
  let before = null;  // key -> {rect, el}, measured just before a redraw
  let marked = null;  // data-pick or data-mark key -> {rect, el} of the first element with it
  return {
    measure(roots) {
      if (reducedMotion()) { before = null; marked = null; return; }
      before = new Map([...keyed(roots)].map(([k, el]) => [k, { rect: rectOf(el), el }]));
      for (const k of [...before.keys()]) if (!before.get(k).rect.w) before.delete(k);
      marked = new Map();
      for (const root of roots) {
        for (const el of root.querySelectorAll("[data-pick], [data-mark]")) {
          const k = el.dataset.pick || el.dataset.mark;
          if (!marked.has(k) && !el.closest(".zoom")) marked.set(k, { rect: rectOf(el), el });
        }
      }
    },
    // after a redraw caused by a frame: its events say what the move was. Returns what moved:
    // {slid, arrived, hit} (counts), all 0 when nothing was animated.
    play(roots, rend, events, view, ctx) {
      const did = { slid: 0, arrived: 0, hit: 0 };
      const was = before; const wasMarked = marked;
      before = null; marked = null;
      if (!was || reducedMotion() || !events || !events.length) return did;
      const now = keyed(roots);
      const gone = [...was.keys()].filter((k) => !now.has(k));
      const hitKeys = rend.hits ? (rend.hits(events, view, ctx) || []) : [];
      const plan = [];  // {el, from, to, scale}: the slides and flights
      const flights = new Set();
      for (const [key, el] of now) {
        const to = rectOf(el);
        if (!to.w) continue;
        if (was.has(key)) {  // (a part of the page, such as your hand as a whole, is a place, not a thing that moves)
          const old = was.get(key);
          // a tile that changed parts (placed from your hand onto the grid) flies; else it slides
          if (!el.dataset.part) plan.push({ el, from: old.rect, to, scale: partOf(old.el) !== partOf(el) });
          continue;
        }
        if (!key.startsWith("card|") && !key.startsWith("tile|")) continue;
        did.arrived++;
        const [kind, where, name] = key.startsWith("tile|") ? ["tile", "", key.slice(5)] : key.split("|");
        // a card that left another place in this redraw: from there
        const left = kind === "card" && gone.find((k) => k.startsWith("card|") && k.split("|")[2] === name);
        if (left) {
          gone.splice(gone.indexOf(left), 1);
          plan.push({ el, from: was.get(left).rect, to, scale: true }); flights.add(el);
          continue;
        }
        // else from the first thing the move started from that is drawn elsewhere
        const origins = rend.origins ? (rend.origins(events, { name, where }, view, ctx) || []) : [];
        let flew = false;
        for (const k of origins) {
          const src = allByKey(roots, k)[0];
          if (!src || src === el || src.contains(el) || el.contains(src)) continue;
          const from = wasMarked.has(k) ? wasMarked.get(k).rect : rectOf(src);
          if (!from.w) continue;
          plan.push({ el, from, to, scale: true }); flights.add(el);
          flew = true;
          break;
        }
        if (!flew) grow(el);
      }
      did.slid = Math.max(0, slideAll(plan, roots) - flights.size);
      for (const k of hitKeys) {
        const els = allByKey(roots, k);
        for (const el of els) shake(el);
        if (els.length) { did.hit++; continue; }
        const old = wasMarked.get(k);  // drawn before this redraw, gone now: a copy fades where it stood
        if (old && old.rect.w) { fadeOut(old.el, old.rect); did.hit++; }
      }
      return did;
    },
  };
}
