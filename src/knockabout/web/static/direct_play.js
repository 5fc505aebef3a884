// Direct play: click or tap the things an action is made of (a card in your hand, then its
// target on the board) instead of its button. The buttons stay: they are the keyboard's and the
// screen reader's way, and every action has one.
//
// A renderer names the things it draws with `data-pick="<key>"` ("hand:3", "row:0", "fighter:1",
// "cell:0,1") and says which keys make up each legal action: `picks(action, view, ctx)` returns
// the ways to pick it, each a list of keys in order ([] when the action has no visible parts).
// The shell marks what may be picked next; a pick that completes exactly one action (and starts
// no longer one) sends it; when a pick completes several, or completes one that could go on,
// the pick bar offers them by name. Escape, the bar's Cancel, or picking a chosen thing again
// takes picks back. Only what the seat's own view shows is ever named.
import { h } from "./page.js";

const state = { version: null, keys: [], nth: [] };  // the picks so far, on this decision

function sameStart(keys, prefix) {
  return prefix.every((k, i) => keys[i] === k);
}

// every way to pick every legal action: [{action, keys}]
function ways(legal, view, rend, ctx) {
  if (!rend.picks) return [];
  const out = [];
  for (const a of legal) for (const keys of rend.picks(a, view, ctx) || []) if (keys.length) out.push({ action: a, keys });
  return out;
}

// which element is the n-th of those with a key (two alike cards in a hand are two things)
function elementsOf(roots, key) {
  return roots.flatMap((r) => [...r.querySelectorAll(`[data-pick="${CSS.escape(key)}"]`)]);
}

export function directPlay(ui, { version, legal, view, rend, ctx, label, act }) {
  const roots = [ui.board, ui.handDock];
  const all = ways(legal, view, rend, ctx);
  if (state.version !== version) { state.version = version; state.keys = []; state.nth = []; }
  const reset = () => { state.keys = []; state.nth = []; mark(); };
  ui.directPlay = null;
  if (!all.length) { ui.pickBar.replaceChildren(); ui.pickBar.hidden = true; return; }

  function mark() {
    for (const r of roots) for (const e of r.querySelectorAll(".pickable, .picked")) e.classList.remove("pickable", "picked");
    const chosen = state.keys.map((k, i) => elementsOf(roots, k)[state.nth[i]]).filter(Boolean);
    for (const e of chosen) e.classList.add("picked");
    const going = all.filter((w) => w.keys.length > state.keys.length && sameStart(w.keys, state.keys));
    const next = new Set(going.map((w) => w.keys[state.keys.length]));
    for (const key of next) {
      for (const e of elementsOf(roots, key)) {
        if (chosen.includes(e)) continue;
        e.classList.add("pickable");
        if (!e.hasAttribute("tabindex")) e.setAttribute("tabindex", "0");
      }
    }
    drawBar();
  }

  function drawBar() {
    const done = [...new Set(all.filter((w) => w.keys.length === state.keys.length && sameStart(w.keys, state.keys))
      .map((w) => w.action))];
    if (!state.keys.length) {
      ui.pickBar.hidden = true;
      ui.pickBar.replaceChildren();
      return;
    }
    const going = all.some((w) => w.keys.length > state.keys.length && sameStart(w.keys, state.keys));
    ui.pickBar.hidden = false;
    ui.pickBar.replaceChildren(...[
      h("span", { class: "pick-what" }, done.length ? "Play:" : "Now pick where it goes: it is marked."),
      ...done.map((a) => h("button", { class: "primary", type: "button", "data-pick-action": a,
        onclick: () => { reset(); act(a); } }, label(a))),
      done.length && going ? h("span", { class: "muted" }, "or pick more") : null,
      h("button", { type: "button", id: "pick-cancel", onclick: reset }, "Cancel")].filter(Boolean));
  }

  function pick(e) {
    const key = e.dataset.pick;
    const nth = elementsOf(roots, key).indexOf(e);
    if (e.classList.contains("picked")) {  // picked again: take it back, and what came after it
      const i = state.keys.findIndex((k, j) => k === key && state.nth[j] === nth);
      state.keys = state.keys.slice(0, i); state.nth = state.nth.slice(0, i);
      mark();
      return;
    }
    const keys = [...state.keys, key];
    const going = all.filter((w) => w.keys.length >= keys.length && sameStart(w.keys, keys));
    if (!going.length) return;
    const done = [...new Set(going.filter((w) => w.keys.length === keys.length).map((w) => w.action))];
    const further = going.some((w) => w.keys.length > keys.length);
    if (done.length === 1 && !further) { reset(); act(done[0]); return; }
    state.keys = keys; state.nth = [...state.nth, nth];
    mark();
  }

  ui.directPlay = { pick, reset };
  mark();
}

// one listener for the page: a click (or Enter/Space) on a marked thing picks it, before the
// renderer's own handlers see it
export function installDirectPlay(ui) {
  ui.pickBar = h("div", { class: "pick-bar", id: "pick-bar", role: "status", "aria-live": "polite", hidden: true });
  ui.dock.insertBefore(ui.pickBar, ui.decide);
  const target = (ev) => (ev.target instanceof Element ? ev.target.closest(".pickable, .picked") : null);
  ui.root.addEventListener("click", (ev) => {
    const e = target(ev);
    if (!e || !ui.directPlay) return;
    ev.preventDefault(); ev.stopPropagation();
    ui.directPlay.pick(e);
  }, true);
  ui.root.addEventListener("keydown", (ev) => {
    if (!ui.directPlay) return;
    if (ev.key === "Escape" && state.keys.length) { ui.directPlay.reset(); return; }
    if (ev.key !== "Enter" && ev.key !== " ") return;
    const e = target(ev);
    if (!e) return;
    ev.preventDefault(); ev.stopPropagation();
    ui.directPlay.pick(e);
  }, true);
}
