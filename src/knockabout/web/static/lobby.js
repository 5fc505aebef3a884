// The lobby: a card per game (what it is, players, length, rules, a quick game against a
// bot), the new-table form (seats, and the game's options as real controls), your tables
// (remembered in this browser) and every recent table with its created time.
import { openRules } from "./help.js";
import { optionControls } from "./options.js";
import { ago, api, go, h, invites, myName, nav, seats, session, toast } from "./page.js";
import { quickMatch } from "./ladder.js";
import { moveTimeSelect, turnBasedConfig, turnsPanel } from "./turns.js";

const players = (g) => (g.min_players === g.max_players ? `${g.min_players} players` : `${g.min_players}–${g.max_players} players`);

function gameCard(g, pick, quick) {
  const l = g.lobby;
  return h("article", { class: "game-card panel", "data-game": g.id },
    h("h3", {}, g.name),
    h("p", { class: "facts" }, players(g), l ? ` · ${l.minutes[0]}–${l.minutes[1]} min` : ""),
    l ? h("p", { class: "blurb" }, l.summary) : null,
    h("div", { class: "row" },
      h("button", { class: "primary quick", "data-game": g.id, onclick: () => quick(g),
        title: session.account ? "A rated game against a bot (no undo)" : "A game against a bot; you may take back moves" },
        "Quick game vs a bot"),
      h("button", { class: "setup", onclick: () => pick(g) }, "Set up a table"),
      h("button", { class: "quickmatch-btn", "data-game": g.id, onclick: () => quickMatch(g) }, "Quick match"),
      h("a", { class: "btn leaderboard-link", href: `/leaderboard/${g.id}`, onclick: nav }, "Leaderboard"),
      g.tutorial ? h("button", { class: "learn", "data-game": g.id, onclick: () => go(`/learn/${g.id}`) }, "Learn to play") : null,
      l && l.has_rules ? h("button", { class: "rules-btn", onclick: (e) => openRules(g.id, e.currentTarget) }, "Rules") : null));
}

export async function lobby(app, crumb) {
  crumb.textContent = "lobby";
  const { games, bots, move_times: moveTimes } = await api("/api/games");
  const moveIn = moveTimeSelect(moveTimes || []);
  const defaultBot = bots.includes("easy") ? "easy" : bots[0];
  const gameSel = h("select", { id: "game", "aria-label": "game" }, games.map((g) => h("option", { value: g.id }, g.name)));
  const nameIn = h("input", { id: "name", value: myName.get(), placeholder: "your name", maxlength: 24, autocomplete: "nickname" });
  if (session.ready) await session.ready;
  if (session.account) { nameIn.value = session.account.name; nameIn.disabled = true; }  // you play by your account's name
  const playersIn = h("input", { id: "players", type: "number", value: 3, inputmode: "numeric" });
  const playersHint = h("small", { class: "hint", id: "players-hint" });
  const seatsBox = h("div", { id: "seats" });
  const listedIn = h("input", { id: "listed", type: "checkbox", checked: true });
  const undoIn = h("input", { id: "undo-allowed", type: "checkbox" });
  const optionsBox = h("div", { id: "options" });
  let readOptions = () => ({});

  if (games.some((g) => g.id === "nak-muay")) gameSel.value = "nak-muay";
  const game = () => games.find((g) => g.id === gameSel.value);
  function drawSeats() {
    const g = game();
    const n = Math.max(g.min_players, Math.min(g.max_players, Number(playersIn.value) || g.min_players));
    playersIn.min = g.min_players; playersIn.max = g.max_players; playersIn.value = n;
    playersIn.disabled = g.min_players === g.max_players;
    playersHint.textContent = players(g);
    const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    seatsBox.replaceChildren(h("div", { class: "seat-row" }, h("span", {}, "Seat 1"), h("b", {}, "you")));
    for (let i = 1; i < n; i++) {
      const sel = h("select", { "data-seat": i, "aria-label": `seat ${i + 1}` },
        h("option", { value: "open" }, "open: anyone with the table link joins"),
        h("option", { value: "invite" }, "invite: kept for its own invite link"),
        (g.bots || bots).map((b) => h("option", { value: b }, `bot: ${b}`)));
      const kept = old[i - 1];
      sel.value = kept && (kept === "open" || kept === "invite" || (g.bots || bots).includes(kept)) ? kept : defaultBot;
      seatsBox.append(h("label", { class: "seat-row" }, h("span", {}, `Seat ${i + 1}`), sel));
    }
  }
  function drawOptions() { readOptions = optionControls(optionsBox, game()); }
  const gameInfo = h("p", { class: "muted", id: "game-info" });
  const drawInfo = () => { gameInfo.textContent = game().lobby ? game().lobby.summary : ""; };
  gameSel.addEventListener("change", () => { drawSeats(); drawOptions(); drawInfo(); });
  playersIn.addEventListener("change", drawSeats);
  drawSeats(); drawOptions(); drawInfo();

  async function start(body) {
    if (!session.account) myName.set(nameIn.value.trim());
    try {
      const made = await api("/api/tables", { name: nameIn.value, listed: listedIn.checked, ...body });
      seats.set(made.id, made.seat, made.token);
      invites.set(made.id, made.invites);
      go(`/t/${made.id}`);
    } catch (e) { toast(e.message); }
  }
  function create(ev) {
    ev.preventDefault();
    const seatList = ["me", ...[...seatsBox.querySelectorAll("select")].map((s) => s.value)];
    const moveTime = Number(moveIn.value) || null;  // a turn-based table: the game's rules for it
    start({ game: gameSel.value, seats: seatList, config: moveTime ? turnBasedConfig(game(), readOptions()) : readOptions(),
      undo: undoIn.checked, ...(moveTime ? { move_time: moveTime } : {}) });
  }
  // A guest's quick game against bots lets them take back moves, as the terminal does (a
  // guest is never rated). A signed-in player's is a rated game instead: no undo, so it
  // counts for their rating and the bot's (a table that allows undo rates nobody).
  const quick = (g) => start({ game: g.id, seats: ["me", ...Array(g.default_players - 1).fill(defaultBot)], config: {},
    undo: !session.account });
  const pick = (g) => {
    gameSel.value = g.id; gameSel.dispatchEvent(new Event("change"));
    form.scrollIntoView({ behavior: "smooth", block: "start" }); gameSel.focus();
  };

  const form = h("form", { class: "panel", onsubmit: create, id: "create" },
    h("h2", {}, "New table"),
    h("label", {}, h("span", {}, "Game"), gameSel), gameInfo,
    h("label", {}, h("span", {}, "Your name"), nameIn),
    h("label", {}, h("span", {}, "Players"), playersIn, playersHint),
    seatsBox,
    h("label", {}, h("span", {}, "Time per move"), moveIn),
    h("label", { class: "check" }, listedIn, " Show in the lobby (else only the link finds it)"),
    h("label", { class: "check" }, undoIn, " Allow undo: a player may take back their last move (other players "
      + "must agree; the table is not rated)"),
    h("h3", {}, "Options"),
    optionsBox,
    h("p", {}, h("button", { class: "primary", type: "submit", id: "create-btn" }, "Create table")));
  // each table a card: a row of a list on a wide screen, a card of its own on a phone
  const mine = h("ul", { id: "my-tables", class: "table-cards", "aria-labelledby": "my-tables-title" });
  const list = h("ul", { id: "all-tables", class: "table-cards", "aria-labelledby": "all-tables-title" });
  const tableOf = (body, caption, idv) => h("div", { class: "table-list" }, h("h3", { class: "list-title", id: idv }, caption), body);
  app.replaceChildren(
    h("h1", { class: "sr" }, "knockabout lobby"),
    h("section", { class: "games", "aria-label": "games" }, games.map((g) => gameCard(g, pick, quick))),
    h("div", { class: "grid2" }, form,
      h("section", { class: "panel", id: "tables" }, turnsPanel().el, h("h2", {}, "Tables"),
        tableOf(mine, "Tables you sit at", "my-tables-title"), tableOf(list, "Recent tables", "all-tables-title"))));

  const gameName = Object.fromEntries(games.map((g) => [g.id, g.name]));
  await drawTables();
  watchTables(drawTables, () => list.isConnected);

  async function drawTables() {
    const { tables } = await api("/api/tables");
    const remembered = new Set(seats.tables());
    const row = (t) => {
      const who = t.seats.map((s) => (s.kind === "empty" ? (s.reserved ? "(invited)" : "(open)") : s.name)).join(", ");
      const o = t.outcome;
      const status = o && o.winners ? (o.draw ? "draw" : `${t.seats[o.winners[0]].name} won`) : t.status;
      const link = t.status === "finished"
        ? h("a", { class: "btn", href: `/replay/${t.id}`, onclick: nav }, "Replay")
        : h("a", { class: "btn", href: `/t/${t.id}`, onclick: nav }, remembered.has(t.id) ? "Back to it" : t.free_seats?.length ? "Join" : "Watch");
      const when = t.created_at ? h("time", { datetime: new Date(t.created_at * 1000).toISOString(),
        title: new Date(t.created_at * 1000).toLocaleString() }, ago(t.created_at)) : "";
      return h("li", { class: "table-card", "data-table": t.id, "data-status": t.status },
        h("span", { class: "tc-game" }, gameName[t.game] || t.game),
        h("span", { class: "tc-seats" }, who),
        h("span", { class: "tc-status" }, status, when ? " · " : "", when),
        link);
    };
    mine.replaceChildren(); list.replaceChildren();
    for (const t of tables) (remembered.has(t.id) ? mine : list).append(row(t));
    if (!mine.children.length) mine.append(h("li", { class: "muted empty" }, "None yet: the tables you create or join are kept here."));
    if (!list.children.length) list.append(h("li", { class: "muted empty" }, "No other tables yet."));
  }
}

// The lobby's live updates (WS /ws/lobby, from every server of the deployment): a table
// made, joined, started or finished anywhere redraws the lists, at most every 300 ms,
// while the lobby is shown (`shown`); a lost connection is opened again.
let watching = null;
function watchTables(redraw, shown) {
  if (watching) watching.close();
  let retry = 0, timer = null;
  const open = () => {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/lobby`);
    watching = ws;
    ws.addEventListener("open", () => { retry = 0; });
    ws.addEventListener("message", () => {
      if (!shown()) { ws.close(); return; }
      if (!timer) timer = setTimeout(() => { timer = null; if (shown()) redraw().catch(() => {}); }, 300);
    });
    ws.addEventListener("close", () => {
      if (watching !== ws || !shown()) return;
      retry = Math.min(retry + 1, 5);
      setTimeout(() => { if (watching === ws && shown()) open(); }, 1000 * retry);
    });
  };
  open();
}
