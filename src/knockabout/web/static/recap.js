// What changed while you waited: the last move marked on the board (the renderer's
// `lastMove(events, view, ctx)` names the things it touched, by their `data-pick` or
// `data-mark` keys) and a short "since your last turn" list in the dock when a decision opens
// for you. Both read only the events this seat's frames carried (the log's own lines).
import { h } from "./page.js";

const SHOWN = 4;  // lines of the recap; the rest are in the log

export function recapper() {
  let since = [];  // narrated events since this seat last acted
  let last = [];  // the events of the newest step
  return {
    // new events from a frame (a sync starts afresh: the recap covers what happens from now on)
    add(events, sync) {
      if (sync) since = [];
      // (the table's own lines, who goes first and a move taken back, are no move: after an
      // undo the last move is again the one before the moves taken back)
      const moves = events.filter((e) => e.type !== "start" && e.type !== "undone");
      const steps = moves.map((e) => e.step ?? 0);
      if (steps.length) {
        const newest = Math.max(...steps);
        last = moves.filter((e) => (e.step ?? 0) === newest);
      }
      if (!sync) since.push(...events.filter((e) => e.text && e.type !== "turn" && e.type !== "start"));
    },
    acted() { since = []; },
    // the last move, marked on the board (and on your hand)
    mark(roots, rend, view, ctx) {
      for (const r of roots) for (const e of r.querySelectorAll(".last-move")) e.classList.remove("last-move");
      if (!rend.lastMove || !last.length) return;
      for (const key of rend.lastMove(last, view, ctx) || []) {
        for (const r of roots) {
          for (const e of r.querySelectorAll(`[data-pick="${CSS.escape(key)}"], [data-mark="${CSS.escape(key)}"]`)) {
            e.classList.add("last-move");
          }
        }
      }
    },
    // the recap box, when a decision is yours and something happened since your last one
    box(myMove) {
      if (!myMove || !since.length) return null;
      const lines = since.slice(-SHOWN);
      const more = since.length - lines.length;
      return h("div", { class: "recap", id: "recap", "aria-label": "since your last turn" },
        h("b", {}, "Since your last turn"),
        h("ul", {}, lines.map((e) => h("li", { class: `ev-${e.type}` }, e.text))),
        more > 0 ? h("small", { class: "muted" }, `and ${more} earlier (see the log)`) : null);
    },
  };
}
