// Motion: what moved on the table moves on the screen, in at most 400 ms, and nothing moves
// for a person who asks for reduced motion. Everything is worked out from the page itself,
// which draws only this seat's frames: where the cards, tiles and fighters stood before a
// redraw and where they stand after it, and the newest step's events.
//
//  - a thing that is still there but elsewhere (a tile pushed, a fighter moved, a card placed
//    from your hand onto the grid) slides from where it stood;
//  - a card that left one place and arrived in another in the same redraw (played from your
//    hand to the pile, taken from the row into your hand) flies between them;
//  - a card that arrived from nowhere on this page (a card drawn, a rival's card played)
//    flies from the first thing the renderer's `lastMove(events)` names that is not where it
//    landed (the draw pile, the fighter who played it);
//  - the things the renderer's `hits(events)` names (a fighter wounded or knocked out, a card
//    punched) shake and flash.
// Animations use the Web Animations API, so they leave nothing behind in the page.

const DURATION = 320;  // ms; a hit: 380
const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// the identity of a thing across redraws: a tile by its label; a fighter or pile by its
// data-pick key when one element has it; a card by where it is (its part), its name and
// which of the alike it is
function keyed(roots) {
  const out = new Map();
  const seen = new Map();
  const add = (key, el) => { if (!out.has(key)) out.set(key, el); };
  for (const root of roots) {
    for (const el of root.querySelectorAll("[data-tile], [data-card], [data-pick]")) {
      if (el.closest(".zoom")) continue;
      if (el.dataset.tile) { add(`tile|${el.dataset.tile}`, el); continue; }
      if (el.dataset.card) {
        const part = el.closest("[data-part], [id]");
        const where = part ? (part.dataset.part || part.id) : "";
        const base = `card|${where}|${el.dataset.card}`;
        const n = seen.get(base) || 0;
        seen.set(base, n + 1);
        add(`${base}|${n}`, el);
        continue;
      }
      const pick = el.dataset.pick;
      if (pick && root.querySelectorAll(`[data-pick="${CSS.escape(pick)}"]`).length === 1) add(`pick|${pick}`, el);
    }
  }
  return out;
}

function rectOf(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height };
}

function byPick(roots, key) {
  for (const root of roots) {
    const el = root.querySelector(`[data-pick="${CSS.escape(key)}"], [data-mark="${CSS.escape(key)}"]`);
    if (el) return el;
  }
  return null;
}

function slide(el, from, to, scale) {
  const dx = from.x - to.x; const dy = from.y - to.y;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  const s = scale && to.w ? Math.max(0.4, Math.min(2, from.w / to.w)) : 1;
  el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${s})` }, { transform: "none" }],
    { duration: DURATION, easing: "cubic-bezier(.2,.7,.3,1)" });
}

function shake(el) {
  el.animate([
    { transform: "translateX(0)", filter: "none" },
    { transform: "translateX(-5px)", filter: "drop-shadow(0 0 6px #ff5a5f)" },
    { transform: "translateX(5px)", filter: "drop-shadow(0 0 8px #ff5a5f)" },
    { transform: "translateX(-3px)", filter: "drop-shadow(0 0 6px #ff5a5f)" },
    { transform: "translateX(0)", filter: "none" },
  ], { duration: 380, easing: "ease-out" });
}

export function motion() {
  let before = null;  // key -> rect, measured just before a redraw
  return {
    measure(roots) {
      if (reduced()) { before = null; return; }
      before = new Map([...keyed(roots)].map(([k, el]) => [k, rectOf(el)]));
    },
    // after a redraw: the newest step's events say what the move was
    play(roots, rend, events, view, ctx) {
      const was = before;
      before = null;
      if (!was || reduced() || !events.length) return;
      const now = keyed(roots);
      const gone = [...was.keys()].filter((k) => !now.has(k));
      const sources = rend.lastMove ? (rend.lastMove(events, view, ctx) || []) : [];
      for (const [key, el] of now) {
        const to = rectOf(el);
        if (!to.w) continue;
        if (was.has(key)) { slide(el, was.get(key), to, false); continue; }
        if (!key.startsWith("card|")) continue;
        // a card that left another place in this redraw: from there
        const name = key.split("|")[2];
        const left = gone.find((k) => k.startsWith("card|") && k.split("|")[2] === name);
        if (left) { gone.splice(gone.indexOf(left), 1); slide(el, was.get(left), to, true); continue; }
        // else from the first thing the move touched that is not where it landed
        for (const k of sources) {
          const src = byPick(roots, k);
          if (!src || src === el || src.contains(el) || el.contains(src)) continue;
          slide(el, was.get(`pick|${k}`) || rectOf(src), to, true);
          break;
        }
      }
      for (const k of rend.hits ? (rend.hits(events, view, ctx) || []) : []) {
        const el = byPick(roots, k);
        if (el) shake(el);
      }
    },
  };
}
