// Chat at the table: the players' lines (everyone at the table reads them) and, for
// spectators, the spectators' own; quick phrases for phones; a mute that hides one sender
// from this browser only (remembered per table, and sent again on every reconnect, so the
// server keeps those lines off this connection too). Every name and line is set as text,
// never as markup. The server's side: server/chat.py and docs/live-play.md (Chat).
import { api, h } from "./page.js";

const MUTES = (id) => `knockabout:mutes:${id}`;
let phrases = null;  // [{key, text}], fetched once

async function quickPhrases() {
  if (!phrases) phrases = api("/api/chat/phrases").then((r) => r.phrases).catch(() => []);
  return phrases;
}

function remembered(id) {
  try { return new Set(JSON.parse(localStorage.getItem(MUTES(id))) || []); } catch { return new Set(); }
}

// The chat panel of table `id`; `send(msg)` writes to the table's WebSocket. Returns
// {el, onMessage(msg), onConnect()}: hand it every {"type": "chat"} frame, and call
// onConnect after each hello (it sends the remembered mutes).
export function chatPanel(id, send, spectator) {
  const muted = remembered(id);
  const names = new Map();  // sender -> the name it last spoke under (for the muted list)
  let you = null;
  const seen = new Set();
  const list = h("div", { class: "chat-lines", id: "chat-lines", role: "log", "aria-live": "polite",
    "aria-label": "chat", tabindex: "0" });
  const input = h("input", { id: "chat-input", maxlength: 200, autocomplete: "off", enterkeyhint: "send",
    placeholder: spectator ? "Say something to the other spectators" : "Say something to the table",
    "aria-label": "chat message" });
  const mutedBox = h("p", { class: "chat-muted muted small", id: "chat-muted" });
  const phraseBox = h("div", { class: "chat-phrases", id: "chat-phrases", "aria-label": "quick phrases" });
  const form = h("form", { class: "chat-form", onsubmit: (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text) { send({ type: "chat", text }); input.value = ""; }
  } }, input, h("button", { type: "submit", id: "chat-send" }, "Send"));
  // closed until someone speaks (or the person opens it), so the log keeps its room; a count of
  // the lines not yet read shows on it while it is closed
  const unread = h("span", { class: "chat-unread", id: "chat-unread" });
  let touched = false;
  const el = h("details", { class: "panel chat", id: "chat", "data-part": "chat",
    ontoggle: () => { if (el.open) { unread.textContent = ""; list.scrollTop = list.scrollHeight; } } },
  h("summary", { onclick: () => { touched = true; } }, h("b", {}, "Chat"), " ", unread, h("span", { class: "muted small" },
    spectator ? " · spectators talk among themselves; players never see it" : " · with everyone at this table")),
  list, phraseBox, form, mutedBox);
  quickPhrases().then((all) => phraseBox.replaceChildren(...all.map((p) => h("button", {
    type: "button", class: "chat-phrase", "data-phrase": p.key, onclick: () => send({ type: "chat", phrase: p.key }) }, p.text))));

  function save() { localStorage.setItem(MUTES(id), JSON.stringify([...muted])); }
  function drawMuted() {
    mutedBox.replaceChildren(...(muted.size ? ["Muted: ", ...[...muted].flatMap((s, i) => [i ? ", " : "",
      h("span", { class: "chat-muted-name" }, names.get(s) || s), " ",
      h("button", { type: "button", class: "link chat-unmute", "data-sender": s, onclick: () => mute(s, false) }, "unmute")])] : []));
  }
  function mute(sender, on) {
    if (on) muted.add(sender); else muted.delete(sender);
    save();
    send({ type: "mute", who: sender, muted: on });
    for (const p of list.querySelectorAll(".chat-line")) if (p.dataset.sender === sender) p.hidden = on;
    drawMuted();
  }
  function line(x) {
    if (seen.has(x.n)) return;
    seen.add(x.n);
    names.set(x.sender, x.name);
    const mine = x.sender === you;
    const p = h("p", { class: `chat-line ${x.channel}${mine ? " mine" : ""}`, "data-n": x.n, "data-sender": x.sender },
      h("b", { class: "chat-name" }, x.name), x.channel === "spectators" ? h("span", { class: "muted small" }, " (watching)") : null,
      ": ", h("span", { class: "chat-text" }, x.text),
      mine ? null : h("button", { type: "button", class: "link chat-mute", title: `Hide ${x.name}'s messages (for you only)`,
        "aria-label": `mute ${x.name}`, onclick: () => mute(x.sender, true) }, "mute"));
    p.hidden = muted.has(x.sender);
    list.append(p);
  }
  return {
    el,
    onMessage(msg) {
      if (msg.you) you = msg.you;
      const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
      const before = seen.size;
      for (const x of msg.lines || []) line(x);
      const fresh = seen.size - before;
      if (fresh && !el.open) {
        if (!touched) el.open = true;  // the first words open it; after the person closed it, a count
        else unread.textContent = `(${fresh + (Number(unread.textContent.replace(/\D/g, "")) || 0)} new)`;
      }
      if (atEnd || fresh) list.scrollTop = list.scrollHeight;
      drawMuted();
    },
    onConnect() { for (const s of muted) send({ type: "mute", who: s, muted: true }); },
    setSeat(seat) { if (seat !== null && seat !== undefined) you = `seat:${seat}`; },
  };
}

// A finished game's players' chat beside its replay: the lines said up to the step shown.
export async function replayChat(id) {
  let lines = [];
  try { lines = (await api(`/api/tables/${id}/chat`)).lines; } catch { lines = []; }
  const list = h("div", { class: "chat-lines", id: "replay-chat", role: "log", "aria-label": "chat", tabindex: "0" });
  const el = lines.length ? h("section", { class: "panel chat" }, h("h3", {}, "Chat"), list) : h("span");
  return {
    el,
    show(step) {
      list.replaceChildren(...lines.filter((x) => x.step <= step).map((x) => h("p", { class: "chat-line", "data-n": x.n },
        h("b", { class: "chat-name" }, x.name), ": ", h("span", { class: "chat-text" }, x.text))));
      list.scrollTop = list.scrollHeight;
    },
  };
}
