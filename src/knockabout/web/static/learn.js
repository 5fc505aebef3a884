// A game's tutorial in the browser. The screen is a live table's own (app.js's `connect`), fed by
// a link that posts each input to /api/learn/<game> instead of a WebSocket: the server answers
// with the same message a table sends, plus `tutorial` (the step, the part of the screen it
// speaks about, the feedback, and the inputs the lesson accepted so far, which go back with the
// next input: the server keeps nothing). This module adds the step panel, docked at the bottom
// of the window (at the top when the bottom would cover the part it points at), and marks that
// part: the element with the step's `data-part` (a part of a game's own board falls back to the board).
import { go, h, nav, toast } from "./page.js";

const GENERIC_PARTS = ["prompt", "choices", "hand", "board", "log", "players", "timer", "rules"];

export function lessonLink(gameId) {
  let inputs = [];
  let deliver = null;
  let busy = false;
  let started = false;
  let panel = null;
  async function post(input) {
    if (busy) return;
    busy = true;
    try {
      const res = await fetch(`/api/learn/${encodeURIComponent(gameId)}`, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ inputs, input }),
      });
      const msg = await res.json().catch(() => ({ error: `server answered ${res.status}` }));
      if (!res.ok) throw new Error(msg.error || `server answered ${res.status}`);
      inputs = msg.tutorial.inputs;
      started = true;
      deliver(msg);
    } catch (e) {
      if (started) toast(e.message);
      else {  // no lesson to show (no such game, or none for it): say so, with the way back
        document.getElementById("app").replaceChildren(h("p", { class: "panel", id: "lesson-missing" }, e.message, " ",
          h("a", { href: "/", onclick: nav }, "Back to the lobby")));
      }
    } finally { busy = false; }
  }
  return {
    lesson: true,
    open(fn) { deliver = fn; post(null); },
    send(msg) { if (msg.type === "act") post(msg.action); else if (msg.type === "next") post("next"); },
    close() {
      if (panel) panel.remove();
      panel = null;
      document.body.style.paddingTop = document.body.style.paddingBottom = "";
      for (const el of document.querySelectorAll(".lesson-focus")) el.classList.remove("lesson-focus");
    },
    // after every redraw of the table: the step panel, and the part it points at
    drawn(cur) {
      if (!cur.tutorial) return;
      if (!panel) { panel = h("aside", { id: "lesson", class: "lesson", role: "region", "aria-label": "lesson" }); document.body.append(panel); }
      drawPanel(panel, cur.tutorial, gameId, () => post("next"));
      point(panel, cur.tutorial);
    },
  };
}

function drawPanel(panel, t, gameId, next) {
  const fb = t.feedback;
  const feedback = fb && fb.text ? h("p", { class: `lesson-feedback ${fb.kind}`, id: "lesson-feedback", role: "status" },
    fb.kind === "correction" ? "Not quite: " : "✓ ", fb.text) : null;
  const leave = h("a", { class: "btn", href: "/", onclick: nav, id: "lesson-leave" }, "Leave the lesson");
  if (t.done) {
    panel.replaceChildren(h("div", { class: "lesson-body" },
      h("div", { class: "lesson-head" }, h("b", {}, t.title), h("span", { class: "muted" }, "done")),
      feedback,
      h("h2", { class: "h3", id: "lesson-title" }, t.finish.title),
      h("p", { id: "lesson-text" }, t.finish.text),
      h("div", { class: "row" },
        h("button", { class: "primary", id: "lesson-again", onclick: () => go(`/learn/${gameId}?again=${Date.now()}`) }, "Take the lesson again"),
        h("a", { class: "btn", href: "/", onclick: nav, id: "lesson-lobby" }, "Back to the lobby: play a real game"))));
    return;
  }
  const s = t.step;
  panel.replaceChildren(h("div", { class: "lesson-body" },
    h("div", { class: "lesson-head" }, h("b", {}, t.title),
      h("span", { class: "muted", id: "lesson-count" }, `step ${t.index + 1} of ${t.total}`)),
    feedback,
    h("h2", { class: "h3", id: "lesson-title" }, s.title),
    h("p", { id: "lesson-text" }, s.text),
    h("div", { class: "row" },
      s.waits === "next"
        ? h("button", { class: "primary", id: "lesson-next", onclick: (e) => { e.currentTarget.disabled = true; next(); } }, "Next")
        : h("span", { class: "lesson-do", id: "lesson-do" }, "Your move: use the marked part of the table."),
      leave)));
}

function target(highlight) {
  if (!highlight) return null;
  const root = document.getElementById("app");
  const visible = (el) => el.getClientRects().length > 0;
  const find = (part) => [...root.querySelectorAll(`[data-part="${part}"]`)].find(visible);
  return find(highlight) || (GENERIC_PARTS.includes(highlight) ? null : find("board"));
}

// Mark the step's part and keep it in sight: scroll it into the room the panel leaves, and dock the
// panel at the bottom, or at the top when the bottom would cover the part.
function point(panel, t) {
  for (const el of document.querySelectorAll(".lesson-focus")) el.classList.remove("lesson-focus");
  const el = t.done ? null : target(t.step.highlight);
  // the panel may take the room the part leaves (at least 40% of the window, so it stays readable)
  const need = el ? el.getBoundingClientRect().height + 48 : 0;
  panel.style.maxHeight = `${Math.max(window.innerHeight * 0.4, window.innerHeight - need)}px`;
  panel.classList.remove("top");
  document.body.style.paddingTop = "";
  document.body.style.paddingBottom = `${panel.offsetHeight + 16}px`;
  if (!el) return;
  el.classList.add("lesson-focus");
  const room = window.innerHeight - panel.offsetHeight;
  const r = el.getBoundingClientRect();
  // the part's top edge just under the top of the window, or its whole height centred when it fits
  const want = r.height < room - 24 ? (room - r.height) / 2 : 12;
  window.scrollBy({ top: r.top - want, behavior: "instant" });
  const after = el.getBoundingClientRect();
  const p = panel.getBoundingClientRect();
  if (after.bottom > p.top && after.top < p.top) {
    panel.classList.add("top");
    document.body.style.paddingBottom = "";
    document.body.style.paddingTop = `${panel.offsetHeight + 16}px`;
    const q = panel.getBoundingClientRect();
    if (el.getBoundingClientRect().top < q.bottom) window.scrollBy({ top: el.getBoundingClientRect().top - q.bottom - 12, behavior: "instant" });
  }
}
