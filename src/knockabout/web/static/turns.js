// Turn-based play in the browser: the lobby's "Your turn" list (the tables this browser sits
// at whose move is awaited now, asked of the server with the seats' tokens) with its count in
// the tab's title, the time-per-move choice of the new-table form, and a move's time in words.
import { api, h, nav, seats } from "./page.js";

const TITLE = "knockabout";

// seconds in words: "3 d 4 h", "5 h 12 min", "42 s"
export function timeWords(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const d = Math.floor(s / 86400); const hr = Math.floor((s % 86400) / 3600); const m = Math.floor((s % 3600) / 60);
  if (d) return hr ? `${d} d ${hr} h` : `${d} d`;
  if (hr) return m ? `${hr} h ${m} min` : `${hr} h`;
  if (m) return `${m} min`;
  return `${s} s`;
}

// a time per move as the lobby offers it: "1 hour", "3 days"
export function moveTimeName(seconds) {
  if (seconds % 86400 === 0) { const n = seconds / 86400; return `${n} day${n === 1 ? "" : "s"}`; }
  const n = seconds / 3600; return `${n} hour${n === 1 ? "" : "s"}`;
}

// The new-table form's "Time per move" select: live play, or a turn-based time per move.
export function moveTimeSelect(times) {
  return h("select", { id: "move-time", "aria-label": "time per move" },
    h("option", { value: "" }, "Live: everyone at the table now"),
    times.map((t) => h("option", { value: t }, `Turn-based: ${moveTimeName(t)} per move`)));
}

// A turn-based table's options: the game's own rules for turn-based tables wherever the form
// left an option at its default (the server refuses what still cannot wait a day).
export function turnBasedConfig(game, config) {
  const rules = game.turn_based;
  if (!rules) return config;
  const out = { ...config };
  for (const [k, v] of Object.entries(rules.options)) {
    const spec = game.options[k];
    if (!(k in out) || (spec && out[k] === spec.default)) out[k] = v;
  }
  return out;
}

// The "Your turn" panel: refreshed now and every `every` ms while the lobby is shown;
// the count goes to the tab's title. Returns {el, stop}.
export function turnsPanel(every = 20000) {
  const body = h("ul", { class: "turns", id: "your-turn" });
  const el = h("section", { class: "your-turns", id: "turns", hidden: true, "aria-live": "polite" },
    h("h2", {}, "Your turn ", h("span", { class: "turn-count", id: "turn-count" })), body);
  let timer = null;
  async function refresh() {
    const mine = seats.tables().map((id) => ({ table: id, token: (seats.get(id) || {}).token })).filter((s) => s.token);
    let turns = [];
    if (mine.length) {
      try { turns = (await api("/api/turns", { seats: mine.slice(0, 200) })).turns; } catch { turns = []; }
    }
    document.title = turns.length ? `(${turns.length}) Your turn · ${TITLE}` : TITLE;
    el.hidden = !turns.length;
    el.querySelector("#turn-count").textContent = turns.length ? `(${turns.length})` : "";
    body.replaceChildren(...turns.map((t) => {
      const others = t.names.filter((_, i) => i !== t.seat).join(", ");
      return h("li", { "data-table": t.id },
        h("a", { class: "btn primary", href: `/t/${t.id}`, onclick: nav }, "Play"), " ",
        h("b", {}, t.game_name), " with ", h("span", { class: "turn-names" }, others),
        t.left === null ? null : h("span", { class: "muted" }, ` · ${timeWords(t.left)} left`));
    }));
  }
  refresh();
  timer = setInterval(() => {
    if (!document.body.contains(el)) { clearInterval(timer); document.title = TITLE; return; }  // the lobby was left
    refresh();
  }, every);
  return { el, refresh, stop() { clearInterval(timer); document.title = TITLE; } };
}
