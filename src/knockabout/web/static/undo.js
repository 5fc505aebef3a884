// Taking back a move at the table (the server's rules: server/undo.py). The frame says
// whether this seat may ask now (`can_undo`) and any open request (`table.undo_request`:
// who asks, whose answers are missing, the seconds left). Against bots the move goes at
// once; between people the others are asked, and each accepts or refuses. How a request
// ended comes as an `undo_result` frame; the moves taken back come as a fresh sync, whose
// log ends with the table's own line ("Ann took back 1 step.").
import { h, toast } from "./page.js";
import { timeWords } from "./turns.js";

// the Undo button, where this seat may ask now (null elsewhere)
export function undoButton(frame, send) {
  if (!frame.can_undo || frame.outcome) return null;
  const others = frame.table.seats.some((s, i) => i !== frame.seat && s.kind === "person");
  return h("button", { class: "undo-btn", id: "undo", type: "button",
    title: others ? "Ask the other players to let you take back your last move" : "Take back your last move",
    onclick: (e) => { e.currentTarget.disabled = true; send({ type: "undo", version: frame.version }); } },
  others ? "Ask to undo" : "Undo");
}

// seconds left of the open request, counted down from when its frame came (`frame.at`)
function left(r, frame) {
  return Math.max(0, Math.ceil(r.left - (performance.now() - frame.at) / 1000));
}

// The open request as this seat sees it: the asker waits, whoever is asked answers,
// everyone else watches (null when none is open).
export function undoRequestPanel(frame, names, send) {
  const r = frame.table.undo_request;
  if (!r || frame.outcome) return null;
  const asker = r.seat === frame.seat ? "You" : names[r.seat];
  const what = `${r.steps} step${r.steps === 1 ? "" : "s"}`;
  const waiting = r.waiting.map((i) => names[i]).join(", ");
  const secs = h("span", { class: "undo-left", id: "undo-left", "data-deadline": String(r.left) }, timeWords(left(r, frame)));
  const answer = (accept) => (e) => {
    for (const b of e.currentTarget.parentElement.querySelectorAll("button")) b.disabled = true;
    send({ type: "undo_answer", id: r.id, accept });
  };
  const mine = frame.seat !== null && r.waiting.includes(frame.seat);
  const text = r.seat === frame.seat
    ? `You asked to take back your last move (${what}). Waiting for ${waiting}… `
    : mine ? `${asker} asks to take back their last move (${what}). `
      : `${asker} asks to take back their last move (${what}); waiting for ${waiting}. `;
  return h("div", { class: `panel undo-request${mine ? " asked" : ""}`, id: "undo-request", role: "status",
    "data-request": String(r.id) },
  h("p", {}, text, secs),
  mine ? h("div", { class: "row" },
    h("button", { class: "primary", id: "undo-accept", type: "button", onclick: answer(true) }, "Allow"),
    h("button", { id: "undo-refuse", type: "button", onclick: answer(false) }, "Refuse")) : null);
}

// the request's seconds, kept counting between frames
export function tickUndo(root, frame) {
  const r = frame && frame.table.undo_request;
  const el = root.querySelector("#undo-left");
  if (r && el) el.textContent = timeWords(left(r, frame));
}

// How a request ended, said once (a move taken back is also in the log).
export function undoResult(msg, frame, names) {
  const asker = frame && msg.seat === frame.seat ? "your" : `${names[msg.seat]}'s`;
  const by = msg.by === null || msg.by === undefined ? "" : frame && msg.by === frame.seat ? "You" : names[msg.by];
  if (msg.result === "done") toast(`${asker[0].toUpperCase()}${asker.slice(1)} last move was taken back.`, "ok");
  else if (msg.result === "refused") toast(`${by} refused to take back ${asker} move.`);
  else if (msg.result === "expired") toast(`The request to take back ${asker} move ran out of time.`);
  else if (msg.result === "void") toast(`A move was made, so the request to take back ${asker} move was dropped.`);
}
