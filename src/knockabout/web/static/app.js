// knockabout front end: lobby, live table (one WebSocket per seat or spectator), replays.
// Plain ES modules, no build step. Game-specific drawing lives in each game's package: the
// server serves the module a game declares (its `web_renderer`) at /games/<game>/renderer.js,
// or the generic one (see docs/live-play.md for the renderer interface). The shell reads
// only the frame's own fields (decision, legal, outcome); the view is the renderer's.

const app = document.getElementById("app");
const crumb = document.getElementById("crumb");
const netstate = document.getElementById("netstate");

// ---------------------------------------------------------------- helpers
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "html") el.innerHTML = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

let toastTimer = null;
function toast(message) {
  const t = document.getElementById("toast");
  t.textContent = message;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 6000);
}

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  };
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({ error: `server answered ${res.status}` }));
  if (!res.ok) throw new Error(data.error || `server answered ${res.status}`);
  return data;
}

const seats = {
  get(id) { try { return JSON.parse(localStorage.getItem(`knockabout:seat:${id}`)); } catch { return null; } },
  set(id, seat, token) { localStorage.setItem(`knockabout:seat:${id}`, JSON.stringify({ seat, token })); },
  drop(id) { localStorage.removeItem(`knockabout:seat:${id}`); },
};
// the invite links of a table's reserved seats, kept by its creator's browser only
const invites = {
  get(id) { try { return JSON.parse(localStorage.getItem(`knockabout:invites:${id}`)) || []; } catch { return []; } },
  set(id, list) { if (list && list.length) localStorage.setItem(`knockabout:invites:${id}`, JSON.stringify(list)); },
};
// an invite code arrives in the link's fragment (#invite=...), which never reaches the server's logs
function inviteCode() {
  const m = /(?:^#|&)invite=([A-Za-z0-9_-]+)/.exec(location.hash);
  return m ? m[1] : null;
}
const myName = {
  get() { return localStorage.getItem("knockabout:name") || ""; },
  set(v) { localStorage.setItem("knockabout:name", v); },
};

const renderers = {};
async function renderer(gameId) {
  if (!renderers[gameId]) {
    renderers[gameId] = await import(`/games/${encodeURIComponent(gameId)}/renderer.js`)
      .catch(() => import("/static/generic.js"));
  }
  return renderers[gameId];
}

// ---------------------------------------------------------------- lobby
async function lobby() {
  crumb.textContent = "lobby";
  const { games, bots } = await api("/api/games");
  const defaultBot = bots.includes("easy") ? "easy" : bots[0];
  const gameSel = h("select", { id: "game" }, games.map((g) => h("option", { value: g.id }, g.name)));
  const nameIn = h("input", { id: "name", value: myName.get(), placeholder: "your name", maxlength: 24 });
  const playersIn = h("input", { id: "players", type: "number", value: 3 });
  const seatsBox = h("div", { id: "seats" });
  const listedIn = h("input", { id: "listed", type: "checkbox", checked: true });
  const optionsBox = h("div", { id: "options" });

  if (games.some((g) => g.id === "nak-muay")) gameSel.value = "nak-muay";
  const game = () => games.find((g) => g.id === gameSel.value);
  function drawSeats() {
    const g = game();
    let n = Math.max(g.min_players, Math.min(g.max_players, Number(playersIn.value) || g.min_players));
    playersIn.min = g.min_players; playersIn.max = g.max_players; playersIn.value = n;
    playersIn.disabled = g.min_players === g.max_players;
    const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    seatsBox.replaceChildren(h("label", {}, h("span", {}, "Seat 1"), h("b", {}, "you")));
    for (let i = 1; i < n; i++) {
      const sel = h("select", { "data-seat": i, "aria-label": `seat ${i + 1}` },
        h("option", { value: "open" }, "open: anyone with the table link joins"),
        h("option", { value: "invite" }, "invite: kept for its own invite link"),
        bots.map((b) => h("option", { value: b }, `bot: ${b}`)));
      sel.value = old[i - 1] || defaultBot;
      seatsBox.append(h("label", {}, h("span", {}, `Seat ${i + 1}`), sel));
    }
  }
  function drawOptions() {
    optionsBox.replaceChildren();
    for (const [key, spec] of Object.entries(game().options)) {
      let input;
      if (spec.enum) {
        input = h("select", { name: key }, spec.enum.map((v) => h("option", { value: v }, v)));
        input.value = spec.default;
      } else if (spec.type === "boolean") {
        input = h("input", { name: key, type: "checkbox" });
        input.checked = !!spec.default;
      } else if (spec.type === "array") {
        input = h("input", { name: key, value: (spec.default || []).join(", "), placeholder: "comma-separated" });
      } else if (spec.type === "number" || spec.type === "integer") {
        input = h("input", { name: key, type: "number", value: spec.default,
          step: spec.type === "integer" ? 1 : "any", min: spec.minimum ?? spec.exclusiveMinimum, max: spec.maximum });
      } else {
        input = h("input", { name: key, value: spec.default ?? "" });
      }
      input.dataset.kind = spec.type || "string";
      optionsBox.append(h("label", {}, h("span", {}, spec.description || key), input));
    }
  }
  gameSel.addEventListener("change", () => { drawSeats(); drawOptions(); });
  playersIn.addEventListener("change", drawSeats);
  drawSeats(); drawOptions();

  async function create(ev) {
    ev.preventDefault();
    myName.set(nameIn.value.trim());
    const config = {};
    for (const el of optionsBox.querySelectorAll("[name]")) {
      if (el.type === "checkbox") config[el.name] = el.checked;
      else if (el.dataset.kind === "number" || el.dataset.kind === "integer") config[el.name] = Number(el.value);
      else if (el.dataset.kind === "array") config[el.name] = el.value.split(",").map((x) => x.trim()).filter(Boolean);
      else config[el.name] = el.value;
    }
    const seatList = ["me", ...[...seatsBox.querySelectorAll("select")].map((s) => s.value)];
    try {
      const made = await api("/api/tables", { game: gameSel.value, seats: seatList, config, name: nameIn.value,
        listed: listedIn.checked });
      seats.set(made.id, made.seat, made.token);
      invites.set(made.id, made.invites);
      go(`/t/${made.id}`);
    } catch (e) { toast(e.message); }
  }

  const list = h("tbody");
  app.replaceChildren(
    h("div", { class: "grid2" },
      h("form", { class: "panel", onsubmit: create, id: "create" },
        h("h2", {}, "New table"),
        h("label", {}, h("span", {}, "Game"), gameSel),
        h("label", {}, h("span", {}, "Your name"), nameIn),
        h("label", {}, h("span", {}, "Players"), playersIn),
        seatsBox,
        h("label", {}, h("span", {}, "Show in the lobby (else only the link finds it)"), listedIn),
        h("h3", {}, "Rules and table options"),
        optionsBox,
        h("p", {}, h("button", { class: "primary", type: "submit", id: "create-btn" }, "Create table"))),
      h("section", { class: "panel" },
        h("h2", {}, "Tables"),
        h("table", { class: "list" }, h("thead", {}, h("tr", {}, h("th", {}, "game"), h("th", {}, "seats"),
          h("th", {}, "status"), h("th", {}, ""))), list))));
  const { tables } = await api("/api/tables");
  if (!tables.length) list.append(h("tr", {}, h("td", { colspan: 4, class: "muted" }, "No tables yet.")));
  const gameName = Object.fromEntries(games.map((g) => [g.id, g.name]));
  for (const t of tables) {
    const who = t.seats.map((s) => s.kind === "empty" ? (s.reserved ? "(invited)" : "(open)") : s.name).join(", ");
    const o = t.outcome;
    const status = o && o.winners ? (o.draw ? "draw" : `${t.seats[o.winners[0]].name} won`) : t.status;
    const link = t.status === "finished"
      ? h("a", { class: "btn", href: `/replay/${t.id}`, onclick: nav }, "Replay")
      : h("a", { class: "btn", href: `/t/${t.id}`, onclick: nav }, t.free_seats?.length ? "Join" : "Open");
    list.append(h("tr", {}, h("td", {}, gameName[t.game] || t.game), h("td", {}, who), h("td", {}, status),
      h("td", {}, link)));
  }
}

// ---------------------------------------------------------------- a table
async function tablePage(id) {
  crumb.textContent = `table ${id}`;
  const saved = seats.get(id);
  let info;
  try { info = await api(`/api/tables/${id}`); } catch (e) {
    app.replaceChildren(h("p", { class: "panel" }, e.message, " ", h("a", { href: "/", onclick: nav }, "Back to the lobby")));
    return;
  }
  if (info.status === "finished" && !info.version) return go(`/replay/${id}`);  // kept only in the store
  if (saved || info.status === "finished") return connect(id, saved ? saved.token : null);
  const nameIn = h("input", { value: myName.get(), placeholder: "your name", maxlength: 24, id: "join-name" });
  const freeBox = h("div", { class: "row" });
  const code = inviteCode();
  const take = (i, label, body) => freeBox.append(h("button", { class: "primary", "data-seat": i, onclick: async () => {
    myName.set(nameIn.value.trim());
    try {
      const got = await api(`/api/tables/${id}/join`, { name: nameIn.value, ...body });
      seats.set(id, got.seat, got.token);
      history.replaceState(null, "", location.pathname);  // the invite is used: drop it from the address
      connect(id, got.token);
    } catch (e) { toast(e.message); }
  } }, label));
  if (code && (info.reserved_seats || []).length) take("invite", "Take your invited seat", { invite: code });
  for (const i of info.free_seats) take(i, `Take seat ${i + 1}`, { seat: i });
  const canJoin = freeBox.childElementCount > 0;
  app.replaceChildren(h("section", { class: "panel" },
    h("h2", {}, `${info.game_name || info.game} table`),
    h("p", {}, "Seats: ", info.seats.map((s) => s.kind === "empty" ? (s.reserved ? "(invited)" : "(open)") : s.name).join(", ")),
    canJoin ? h("div", {}, h("label", {}, h("span", {}, "Your name"), nameIn), freeBox)
      : h("p", { class: "muted" }, "Every seat is taken."),
    h("p", {}, h("button", { id: "watch", onclick: () => connect(id, null) }, "Watch as a spectator"))));
}

function connect(id, token) {
  const ui = {
    timer: h("div", { id: "timer" }),
    result: h("div", { id: "result" }),
    decide: h("section", { id: "decide" }),
    board: h("section", { id: "board", class: "panel" }),
    side: h("aside", { id: "side" }),
    players: h("div", { class: "panel", id: "players" }),
    log: h("div", { class: "log", id: "log", "aria-live": "polite" }),
  };
  const invite = `${location.origin}/t/${id}`;
  ui.side.append(
    h("div", { class: "panel" }, h("b", {}, "Invite"), h("div", { class: "invite" },
      h("input", { value: invite, readonly: true, id: "invite", onfocus: (e) => e.target.select() }),
      h("button", { onclick: () => navigator.clipboard?.writeText(invite).then(() => toast("Link copied")) }, "Copy")),
      ...invites.get(id).map((inv) => h("div", { class: "invite" }, h("span", {}, `Seat ${inv.seat + 1}`),
        h("input", { value: `${location.origin}${inv.url}`, readonly: true, class: "invite-link", "data-seat": inv.seat,
          onfocus: (e) => e.target.select() })))),
    ui.players,
    h("h3", {}, "What happened"), ui.log);
  app.replaceChildren(h("div", { class: "play" }, h("div", {}, ui.timer, ui.result, ui.decide, ui.board), ui.side));

  let inbox = Promise.resolve();  // messages are handled one after another, in order
  let startLine = null;  // "X goes first": its name is filled in again once seats are taken
  let cur = null; let rend = null; let ws = null; let retry = 0; let closedForGood = false; let tick = null;

  function names() { return cur.table.seats.map((s, i) => s.name + (i === cur.seat ? " (you)" : "")); }

  function addEvents(events, reset) {
    if (reset) ui.log.replaceChildren();
    events.forEach((e, i) => {
      const next = events[i + 1];
      // "X draws a card" is redundant right before "X drew <card>" (the drawer's own line)
      if (!e.text || (e.type === "draw" && next && next.type === "drew" && next.data.player === e.data.player)) return;
      const line = h("p", { class: `ev-${e.type}` }, e.text);
      if (e.type === "start") { line.dataset.player = e.data.player; startLine = line; }
      ui.log.append(line);
    });
    ui.log.scrollTop = ui.log.scrollHeight;
  }

  function drawTimer() {
    const c = cur && cur.clock;
    if (!c) { ui.timer.replaceChildren(); return; }
    const left = Math.max(0, c.left - (performance.now() - cur.at) / 1000);
    const who = c.seat === cur.seat ? "You have" : `${cur.table.seats[c.seat].name} has`;
    ui.timer.replaceChildren(h("div", { class: `timer${c.seat === cur.seat ? " mine" : ""}`, role: "timer" },
      h("span", { class: "secs", id: "secs" }, Math.ceil(left)),
      h("div", { style: "flex:1" }, h("div", {}, `${who} ${Math.ceil(left)}s to answer`),
        h("div", { class: "bar" }, h("i", { style: `width:${(100 * left / c.limit).toFixed(1)}%` })))));
  }

  function draw() {
    const v = cur.view; const t = cur.table; const nm = names();
    crumb.textContent = `${t.game_name} · table ${id} · ${cur.seat === null ? "watching" : `seat ${cur.seat + 1}`}`;
    // a judged decision (e.g. Knockdown's tower): the puzzle is this seat's alone, answered through ctx.answer
    const challenge = cur.challenge && cur.challenge.version === cur.version ? cur.challenge : null;
    rend.renderBoard(ui.board, v, { seat: cur.seat, names: nm, challenge,
      answer: (picks) => send({ type: "answer", answer: picks, version: cur.version }) });
    if (startLine) startLine.textContent = `The cards are dealt: ${nm[Number(startLine.dataset.player)]} goes first.`;
    ui.players.replaceChildren(h("b", {}, "At the table"), ...t.seats.map((s, i) => {
      const state = s.kind === "bot" ? `bot · ${s.level}` : s.kind === "empty" ? "open seat"
        : s.away ? "away · a bot plays for now" : s.connected ? "online" : "offline";
      return h("div", { class: "seatline", "data-seat": i },
        h("span", { class: `dot ${s.kind === "bot" ? "bot" : s.connected ? "on" : "off"}` }), nm[i], " ",
        h("span", { class: "muted" }, state));
    }));
    drawTimer();
    ui.decide.replaceChildren();
    ui.result.replaceChildren();
    if (t.status === "waiting") {
      ui.decide.append(h("p", { class: "panel" }, "Waiting for players to join: share the invite link. Open seats: ",
        t.seats.flatMap((s, i) => s.kind === "empty" ? [`${i + 1}${s.reserved ? " (invite link)" : ""}`] : []).join(", ")));
    }
    if (cur.outcome) {
      const o = cur.outcome;
      const text = o.draw ? `Draw among ${o.winners.map((w) => nm[w]).join(", ")}` : `${nm[o.winners[0]]} wins!`;
      ui.result.append(h("div", { class: "panel result", id: "outcome" }, text, " ",
        h("a", { class: "btn", href: `/replay/${id}`, onclick: nav }, "Replay step by step")));
    }
    const d = cur.decision;
    const legal = cur.legal || [];
    const myMove = !!(d && legal.length && d.player === cur.seat && t.status === "playing");
    document.title = myMove ? "● Your move · knockabout" : "knockabout";
    if (myMove && challenge) {
      ui.decide.append(h("div", { class: "panel", id: "challenge", "data-kind": d.kind },
        h("div", { class: "prompt" }, d.prompt || "Your challenge"),
        h("p", {}, challenge.rule || "Solve the challenge on the board."),
        h("p", { class: "muted" }, "The table's clock decides: only a right answer in time counts.")));
    } else if (myMove) {
      const many = legal.length > 10;
      const box = h("div", { class: `actions${many ? " many" : ""}`, id: "actions", "data-kind": d.kind });
      for (const a of legal) {
        box.append(h("button", { "data-action": a, class: ["draw", "take", "no-response"].includes(a) ? "" : "primary",
          onclick: (e) => { for (const b of box.querySelectorAll("button")) b.disabled = true;
            send({ type: "act", action: a, version: cur.version }); } },
          rend.actionLabel(a, v, { seat: cur.seat, names: nm })));
      }
      ui.decide.append(h("div", { class: "panel" }, h("div", { class: "prompt" }, d.prompt || "Your decision"), box));
    } else if (d && t.status === "playing") {
      const who = t.seats[d.player];
      ui.decide.append(h("p", { class: "muted", id: "waiting" },
        `Waiting for ${who.name}${who.kind === "person" && who.away ? " (away: a bot plays for now)" : ""}…`));
    }
  }

  function send(msg) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
    else toast("Not connected; reconnecting…");
  }

  async function onMessage(ev) {
    const msg = JSON.parse(ev.data);
    if (msg.type === "error") {
      if (!cur) {  // the hello was refused
        closedForGood = true;
        if (token) seats.drop(id);
        app.replaceChildren(h("p", { class: "panel" }, msg.message, " ", h("a", { href: `/t/${id}`, onclick: nav }, "Back")));
        return;
      }
      toast(msg.message);
      if (cur) draw();
      return;
    }
    if (msg.type !== "sync" && msg.type !== "update") return;
    if (!rend) rend = await renderer(msg.table.game);
    cur = { ...msg, at: performance.now() };
    addEvents(msg.events, msg.type === "sync");
    draw();
  }

  function open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws/tables/${id}`);
    ws.addEventListener("open", () => {
      retry = 0; netstate.hidden = true;
      ws.send(JSON.stringify({ type: "hello", token }));
    });
    ws.addEventListener("message", (ev) => { inbox = inbox.then(() => onMessage(ev)); });
    ws.addEventListener("close", (ev) => {
      if (closedForGood || ev.code >= 4400) return;
      netstate.hidden = false; netstate.textContent = "connection lost: reconnecting…";
      retry = Math.min(retry + 1, 5);
      setTimeout(open, 400 * retry);
    });
  }
  tick = setInterval(() => { if (cur && cur.clock) drawTimer(); }, 200);
  cleanup = () => { closedForGood = true; clearInterval(tick); if (ws) ws.close(); };
  open();
}

// ---------------------------------------------------------------- replays
async function replayPage(id) {
  crumb.textContent = `replay ${id}`;
  let data;
  try { data = await api(`/api/tables/${id}/replay/0`); } catch (e) {
    app.replaceChildren(h("p", { class: "panel" }, e.message, " ", h("a", { href: "/", onclick: nav }, "Back to the lobby")));
    return;
  }
  const rend = await renderer(data.game);
  const slider = h("input", { type: "range", min: 0, max: data.steps, value: 0, id: "step-slider", "aria-label": "step" });
  const label = h("span", { id: "step-label" });
  const board = h("section", { class: "panel", id: "board" });
  const events = h("div", { class: "log", id: "log", style: "height:auto;min-height:6rem" });
  let playing = null;
  async function show(step) {
    step = Math.max(0, Math.min(data.steps, step));
    data = await api(`/api/tables/${id}/replay/${step}`);
    slider.value = step;
    label.textContent = `step ${step} / ${data.steps}${data.action ? ` · ${data.names[data.seat]}: ${data.action}` : ""}`;
    rend.renderBoard(board, data.view, { seat: null, names: data.names, reveal: data.views });
    events.replaceChildren(...(data.events.length ? data.events.filter((e) => e.text).map((e) => h("p", { class: `ev-${e.type}` }, e.text))
      : [h("p", { class: "muted" }, step ? "" : "The deal. Press ▶ to step through the game.")]));
  }
  const btn = (text, title, fn, idv) => h("button", { title, onclick: fn, id: idv }, text);
  const bar = h("div", { class: "replay-bar" },
    btn("|◀", "first step", () => show(0)), btn("◀", "previous step", () => show(Number(slider.value) - 1), "prev"),
    btn("▶", "next step", () => show(Number(slider.value) + 1), "next"),
    btn("▶|", "last step", () => show(data.steps), "last"),
    btn("auto", "play automatically", () => {
      if (playing) { clearInterval(playing); playing = null; return; }
      playing = setInterval(() => { if (Number(slider.value) >= data.steps) { clearInterval(playing); playing = null; } else show(Number(slider.value) + 1); }, 700);
    }),
    slider, label,
    h("a", { class: "btn", href: `/api/tables/${id}/record`, download: "" }, "Download record"));
  slider.addEventListener("input", () => show(Number(slider.value)));
  app.replaceChildren(h("h2", {}, "Replay"), bar, board, h("h3", {}, "This step"), events);
  show(0);
}

// ---------------------------------------------------------------- routing
let cleanup = null;

function nav(ev) {
  const a = ev.currentTarget;
  if (ev.metaKey || ev.ctrlKey || ev.shiftKey) return;
  ev.preventDefault();
  go(a.getAttribute("href"));
}

function go(path) {
  history.pushState({}, "", path);
  route();
}

function route() {
  if (cleanup) { cleanup(); cleanup = null; }
  netstate.hidden = true;
  const parts = location.pathname.split("/").filter(Boolean);
  const done = (p) => p.catch((e) => toast(e.message));
  if (parts[0] === "t" && parts[1]) return done(tablePage(parts[1]));
  if (parts[0] === "replay" && parts[1]) return done(replayPage(parts[1]));
  return done(lobby());
}

window.addEventListener("popstate", route);
route();
