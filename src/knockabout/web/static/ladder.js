// Ratings and quick match in the browser: the lobby's "Quick match" (wait for players of
// your level, or bots at it after a while; POST /api/quickmatch, then ask how it goes), each
// game's leaderboard page (/leaderboard/GAME), and what a finished table did to its players'
// ratings (the end panel). Names are set as text, never as markup.
import { api, go, h, myName, nav, seats, toast } from "./page.js";

let waiting = null;  // the wait in progress: {ticket, timer, box}

function stopWaiting() {
  if (!waiting) return;
  clearInterval(waiting.timer);
  waiting.box.remove();
  waiting = null;
}

// Start a quick match of `game` (from /api/games) with `players` seats (its usual number).
export async function quickMatch(game, players = null, name = myName.get()) {
  if (waiting) return;
  let got;
  try { got = await api("/api/quickmatch", { game: game.id, players, name }); } catch (e) { toast(e.message); return; }
  const status = h("span", { id: "quickmatch-status" }, "Looking for players of your level…");
  const box = h("div", { class: "quickmatch panel", id: "quickmatch", role: "status", "aria-live": "polite" },
    h("b", {}, `Quick match · ${game.name}`), " ", status, " ",
    h("button", { id: "quickmatch-cancel", onclick: async () => {
      const ticket = waiting && waiting.ticket;
      stopWaiting();
      if (ticket) await fetch(`/api/quickmatch/${ticket}`, { method: "DELETE" }).catch(() => null);
    } }, "Cancel"));
  document.body.append(box);
  waiting = { ticket: got.ticket, box, timer: null };
  const check = async () => {
    if (!waiting) return;
    let now;
    try { now = await api(`/api/quickmatch/${waiting.ticket}`); } catch (e) { stopWaiting(); toast(e.message); return; }
    if (now.status === "waiting") {
      status.textContent = `Looking for players near ${now.rating}… ${Math.round(now.waited)} s`;
    } else if (now.status === "seated") {
      stopWaiting();
      seats.set(now.table, now.seat, now.token);
      go(`/t/${now.table}`);
    } else {
      stopWaiting();
      toast(now.message || "no table could be made");
    }
  };
  waiting.timer = setInterval(check, 1000);
  check();
}

function row(r, who) {
  const pct = r.win_rate === null ? "–" : `${Math.round(100 * r.win_rate)}\u00a0%`;
  return h("tr", { "data-player": r.player },
    h("td", {}, r.rank ?? ""), h("td", { class: "lb-name" }, who),
    h("td", {}, String(r.rating), h("span", { class: "muted small" }, ` ±${r.plus_minus}`),
      r.provisional ? h("span", { class: "muted small prov" }, " (provisional)") : null),
    h("td", {}, String(r.games)), h("td", {}, pct));
}

function table(caption, rows) {
  return h("table", { class: "list leaderboard" }, h("caption", {}, caption),
    h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "Games", "Won"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows));
}

// The leaderboard page of one game.
export async function leaderboardPage(app, crumb, gameId) {
  crumb.textContent = "leaderboard";
  let lb;
  try { lb = await api(`/api/games/${encodeURIComponent(gameId)}/leaderboard`); } catch (e) {
    app.replaceChildren(h("p", { class: "panel" }, e.message, " ", h("a", { href: "/", onclick: nav }, "Back to the lobby")));
    return;
  }
  crumb.textContent = `${lb.name} · leaderboard`;
  const people = lb.people.length ? lb.people.map((r) => row(r, h("a", { href: `/u/${encodeURIComponent(r.name)}`, onclick: nav }, r.name)))
    : [h("tr", {}, h("td", { colspan: 5, class: "muted" }, "Nobody is rated yet: rated games are quick matches and tables of signed-in players on the standard options."))];
  app.replaceChildren(h("section", { class: "panel", id: "leaderboard" },
    h("h1", {}, `${lb.name}: leaderboard`),
    h("p", { class: "muted" }, "Ordered by the rating we are sure of (rating minus three times its uncertainty)."),
    table("Players", people),
    table("Bots (rated from their games against people: pick the one at your level)",
      lb.bots.map((r) => row({ ...r, rank: null }, r.name)))));
}

// What a finished table did to ratings, for its end panel: a box, filled now or when the
// server's {"type": "ratings"} message comes (call show(changes)).
export function ratingBox(tableId, seat) {
  const box = h("div", { class: "rating-changes", id: "rating-changes", hidden: true });
  const show = (changes) => {
    if (!changes || !changes.length) return;
    box.hidden = false;
    box.replaceChildren(h("b", {}, "Ratings"), ...changes.map((c) => {
      const diff = c.after - c.before;
      return h("div", { class: `rating-change${c.seat === seat ? " mine" : ""}`, "data-seat": c.seat },
        h("span", { class: "rc-name" }, c.seat === seat ? "Your rating" : c.name), ": ",
        `${c.before} → ${c.after} (${diff >= 0 ? "+" : ""}${diff})`);
    }));
  };
  api(`/api/tables/${tableId}/ratings`).then((r) => show(r.changes)).catch(() => null);
  return { el: box, show };
}
