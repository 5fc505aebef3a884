// knockabout front end: lobby, live table (one WebSocket per seat or spectator), replays.
// Plain ES modules, no build step. Game-specific drawing lives in each game's package: the
// server serves the module a game declares (its `web_renderer`) at /games/<game>/renderer.js,
// or the generic one (see docs/live-play.md for the renderer interface). The shell reads
// only the frame's own fields (decision, legal, outcome); the view is the renderer's.
// After its sync a connection gets patch frames: RFC 6902 JSON Patches of the last
// message, applied with fast-json-patch (vendored, MIT) to the copy kept in `follow`.
import { notifyToggle, turnAlerts } from "./alerts.js";
import { chatPanel, replayChat } from "./chat.js";
import { actionButton, decisionWords, hintLines, labeller, promptBox } from "./decision.js";
import { directPlay, installDirectPlay } from "./direct_play.js";
import { leaderboardPage, ratingBox } from "./ladder.js";
import { fitText } from "./fit.js";
import { installTips, openRules } from "./help.js";
import { lessonLink } from "./learn.js";
import { accountBar, loginPage, profilePage, settingsPage, signupPage } from "./account.js";
import { lobby } from "./lobby.js";
import { motion } from "./motion.js";
import { recapper } from "./recap.js";
import { playSound, soundToggle } from "./sound.js";
import { placeParts, showLastLine, tableLayout } from "./table_layout.js";
import { api, go, h, hints, inviteCode, invites, loadSession, myName, nav, seats, setRouter, toast } from "./page.js";
import { timeWords } from "./turns.js";
import { tickUndo, undoButton, undoRequestPanel, undoResult } from "./undo.js";
import { applyPatch } from "./vendor/fast-json-patch/core.mjs";

const app = document.getElementById("app");
const crumb = document.getElementById("crumb");
const netstate = document.getElementById("netstate");

const renderers = {};
async function renderer(gameId) {
  if (!renderers[gameId]) {
    renderers[gameId] = await import(`/games/${encodeURIComponent(gameId)}/renderer.js`)
      .catch(() => import("/static/generic.js"));
  }
  return renderers[gameId];
}

const LOCAL = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

// The table as this connection's frames tell it: the last sync/update message minus its
// `type` and `events` (what patches change). `read` turns a frame into the whole message
// it stands for (a patch into an update, with its new events), or null when a patch does
// not fit the copy (another base version, an op that fails): then ask for a fresh sync.
function follower() {
  let state = null;
  return {
    read(msg) {
      if (msg.type === "sync" || msg.type === "update") {
        const { type, events, ...rest } = msg;
        state = structuredClone(rest);  // its own copy: what the page draws is never patched
        return msg;
      }
      if (!state || msg.base !== state.version) { state = null; return null; }
      try {
        state = applyPatch(state, msg.ops, true).newDocument;  // validated; the copy is never handed out
      } catch (e) { state = null; return null; }
      if (state.version !== msg.version) { state = null; return null; }
      return { ...structuredClone(state), type: "update", events: msg.events };
    },
  };
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

// `link`: where the table's messages come from and where moves go (none: the table's WebSocket);
// a lesson's link (learn.js) posts each input and draws the step panel after every redraw.
function connect(id, token, link = null) {
  const lesson = !!(link && link.lesson);
  // the address this browser used: a friend on the network opens the same one
  const ui = tableLayout(app, { invite: lesson ? null : `${location.origin}/t/${id}`, localOnly: LOCAL.has(location.hostname),
    invites: lesson ? [] : invites.get(id), lesson });
  const chat = lesson ? null : chatPanel(id, (m) => send(m), !token);
  let ratings = null;  // what the finished table did to ratings (ladder.js), made when it ends
  if (chat) ui.logPanel.after(chat.el);  // below the log, which keeps its lines beside the players
  installDirectPlay(ui);
  const recap = recapper();
  const alerts = turnAlerts();  // the title, the tab's icon, a sound and a notification when your move opens (alerts.js)

  let inbox = Promise.resolve();  // messages are handled one after another, in order
  let startLine = null;  // "X goes first": its name is filled in again once seats are taken
  let cur = null; let rend = null; let ws = null; let retry = 0; let closedForGood = false; let tick = null;
  const moves = motion();  // what a frame moved, animated (static/motion.js)
  let moved = null;  // the events of the frame not drawn yet (null: a redraw of the page's own)
  let endHeard = false;  // the end's sound plays once, when the move that ended the game arrives
  let follow = follower(); let resyncing = false;
  let helpFor = null;
  let shownStatus = null;  // the invite opens by itself while the table waits for players

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
    showLastLine(ui);
  }

  function drawTimer() {
    const c = cur && cur.clock;
    if (!c) { ui.timer.replaceChildren(); return; }
    const left = c.paused ? c.left : Math.max(0, c.left - (performance.now() - cur.at) / 1000);
    const who = c.seat === cur.seat ? "You have" : `${cur.table.seats[c.seat].name} has`;
    const long = c.limit >= 3600;  // a turn-based table's time per move
    ui.timer.replaceChildren(h("div", { class: `timer${c.seat === cur.seat ? " mine" : ""}${long ? " move-time" : ""}`, role: "timer" },
      h("span", { class: "secs", id: "secs" }, long ? timeWords(left) : Math.ceil(left)),
      h("div", { style: "flex:1" }, h("div", {}, long ? `${who} ${timeWords(left)} to move` : `${who} ${Math.ceil(left)}s to answer`
        + (c.paused ? " at a real table; in this lesson the clock waits." : "")),
        h("div", { class: "bar" }, h("i", { style: `width:${(100 * left / c.limit).toFixed(1)}%` })))));
  }

  function drawHelp(game, name) {
    if (helpFor === game) return;
    helpFor = game;
    const legend = rend.legend ? rend.legend() : [];
    ui.help.replaceChildren(...[
      h("div", { class: "row" }, h("b", {}, "Help"),
        h("button", { id: "rules-open", "data-part": "rules", "aria-label": `Rules of ${name}`,
          onclick: (e) => openRules(game, e.currentTarget) }, "Rules"),
        h("label", { class: "check" }, h("input", { type: "checkbox", id: "hints-on", checked: hints.on(),
          onchange: (e) => { hints.set(e.target.checked); redraw(); } }), " hints"), soundToggle()),
      // where you wait for other people (not bots), a notification can call you back to the table
      !lesson && cur.seat !== null && cur.table.seats.some((s, i) => i !== cur.seat && s.kind !== "bot")
        ? h("p", { class: "notify-row" }, notifyToggle()) : null,
      legend.length ? h("details", { id: "legend" }, h("summary", {}, "Legend: symbols and marks"),
        h("dl", { class: "legend" }, legend.flatMap(([mark, text]) => [h("dt", {}, mark), h("dd", {}, text)]))) : null,
      h("p", { class: "muted small" }, "Hover, focus or long-press any card, symbol or chip for its full text.")].filter(Boolean));
  }

  function endPanel(o, nm) {
    const t = cur.table;
    const mineSeat = cur.seat !== null && token;
    const text = o.draw ? `Draw among ${o.winners.map((w) => nm[w]).join(", ")}`
      : o.winners[0] === cur.seat ? "You win!" : `${nm[o.winners[0]]} wins!`;
    const how = rend.outcomeText ? rend.outcomeText(o, cur.view, { seat: cur.seat, names: nm }) : o.reason;
    const again = async (e) => {
      e.currentTarget.disabled = true;
      try {
        const got = await api(`/api/tables/${id}/rematch`, { token });
        seats.set(got.id, got.seat, got.token);
        go(`/t/${got.id}`);
      } catch (err) { toast(err.message); e.currentTarget.disabled = false; }
    };
    return h("div", { class: "panel result end", id: "outcome", role: "status" },
      h("div", { class: "winner" }, text),
      how ? h("div", { class: "how", id: "outcome-how" }, how) : null,
      ratings ? ratings.el : null,
      h("div", { class: "row" },
        mineSeat ? h("button", { class: "primary", id: "rematch", onclick: again },
          t.rematch ? "Join the rematch" : "Rematch") : null,
        !mineSeat && t.rematch ? h("a", { class: "btn primary", href: `/t/${t.rematch}`, onclick: nav }, "Watch the rematch") : null,
        h("a", { class: "btn", id: "replay-link", href: `/replay/${id}`, onclick: nav }, "Replay step by step"),
        h("a", { class: "btn", href: "/", onclick: nav }, "Back to the lobby")));
  }

  function draw() {
    const v = cur.view; const t = cur.table; const nm = names();
    drawHelp(t.game, t.game_name);
    if (lesson) crumb.textContent = `${t.game_name} · lesson`;
    else {
      crumb.replaceChildren(h("span", { class: "crumb-game" }, t.game_name), h("span", { class: "crumb-table" }, ` · table ${id}`),
        ` · ${cur.seat === null ? "watching" : `seat ${cur.seat + 1}`}`);
    }
    if (t.status !== shownStatus && ui.inviteBox) { ui.inviteBox.open = t.status === "waiting"; shownStatus = t.status; }
    // a judged decision (e.g. Knockdown's tower): the puzzle is this seat's alone, answered through ctx.answer
    const challenge = cur.challenge && cur.challenge.version === cur.version ? cur.challenge : null;
    const closed = !!(challenge && challenge.opened === false);  // a turn-based table's: opened by its player
    if (chat) chat.setSeat(cur.seat);
    const d = cur.decision;
    // a judged decision offers no actions (the table records the answer's pass or fail): its challenge is the move
    const mine = !!(d && ((cur.legal || []).length || challenge) && d.player === cur.seat && t.status === "playing");
    const words = mine ? decisionWords(cur, rend, { seat: cur.seat, names: nm, myMove: true }) : null;
    const drawn = [ui.board, ui.handDock];  // where the board's things are (the hand goes to the dock)
    moves.measure(drawn);
    rend.renderBoard(ui.board, v, { seat: cur.seat, names: nm, challenge: closed ? null : challenge, label: labeller(words), redraw,
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
    if (cur.outcome && !lesson && !ratings) ratings = ratingBox(id, cur.seat);
    if (cur.outcome && !lesson) ui.result.append(endPanel(cur.outcome, nm));
    const myMove = mine;
    const undoReq = lesson ? null : undoRequestPanel(cur, nm, send);
    if (undoReq) ui.decide.append(undoReq);
    const undoBtn = lesson ? null : undoButton(cur, send);
    alerts.update(myMove, { game: t.game_name, prompt: words ? words.title : "" });
    const hintLine = words && hints.on() && !cur.outcome ? hintLines(words) : null;
    if (myMove && closed) {
      ui.decide.append(h("div", { class: "panel your-turn", id: "challenge", "data-kind": d.kind },
        promptBox(words, t.game, "Your challenge"), hintLine,
        h("p", {}, challenge.rule || "", h("span", { class: "muted" },
          ` You have ${challenge.limit} seconds from the moment you start; nothing of it is shown before.`)),
        h("button", { class: "primary", id: "challenge-start", onclick: (e) => { e.currentTarget.disabled = true;
          send({ type: "challenge", open: true, version: cur.version }); } }, `Start (${challenge.limit} seconds)`)));
    } else if (myMove && challenge) {
      ui.decide.append(h("div", { class: "panel your-turn", id: "challenge", "data-kind": d.kind },
        promptBox(words, t.game, "Your challenge"), hintLine,
        h("p", {}, challenge.rule || "Solve the challenge on the board.",
          h("span", { class: "muted" }, " The table's clock decides: only a right answer in time counts."))));
    } else if (myMove) {
      // actions the board itself offers (a highlighted cell, a target) fold into a list when there are many
      const offered = words.actions;
      const onBoard = rend.boardAction ? offered.filter((a) => rend.boardAction(a.action, v)) : [];
      const fold = onBoard.length > 4;
      const shown = fold ? offered.filter((a) => !onBoard.includes(a)) : offered;
      const many = shown.length > 10;
      const box = h("div", { class: `actions${many ? " many" : ""}`, id: "actions", "data-kind": d.kind, "data-part": "choices" });
      const folded = h("div", { class: "actions many", id: "board-actions" });
      const button = (a, into) => {
        const tipText = rend.actionTip ? rend.actionTip(a.action, v, { seat: cur.seat, names: nm }) : "";
        into.append(actionButton(a, () => act(a.action), tipText));
      };
      for (const a of shown) button(a, box);
      if (fold) for (const a of onBoard) button(a, folded);
      const list = fold ? h("details", { class: "board-list" },
        h("summary", {}, `Or choose from a list (${onBoard.length} moves on the board)`), folded) : null;
      if (!shown.length) box.append(h("span", { class: "muted board-help" }, fold
        ? "Choose on the board: click what is marked (or use the list below)."
        : "Choose on the board: click what is marked."));
      ui.decide.append(h("div", { class: "panel your-turn" }, withUndo(promptBox(words, t.game, "Your move"), undoBtn),
        recap.box(myMove), hintLine, box, list));
    } else if (d && t.status === "playing") {
      const who = t.seats[d.player];
      ui.decide.append(h("div", { class: "panel waiting" }, h("p", { class: "waiting-line" }, h("span", { class: "muted", id: "waiting" },
        `Waiting for ${who.name}${who.kind === "person" && who.away ? " (away: a bot plays for now)" : ""}…`), undoBtn)));
    } else if (undoBtn) {
      ui.decide.append(h("div", { class: "panel" }, h("p", { class: "waiting-line" }, undoBtn)));
    }
    placeParts(ui, !!(myMove && challenge && !closed));
    const ctx = { seat: cur.seat, names: nm };
    directPlay(ui, { version: cur.version, legal: myMove && !challenge ? (cur.legal || []) : [], view: v, rend, ctx,
      label: labeller(words), act });
    recap.mark(drawn, rend, v, ctx);
    fitText(ui.root);
    // what the frame moved moves on the screen, from the events it carried, and makes its sound
    const events = moved || [];
    moved = null;
    const did = moves.play(drawn, rend, events, v, ctx);
    if (cur.outcome && events.length && !endHeard) { endHeard = true; playSound("end"); }
    else if (did.hit) playSound("hit");
    else if (did.arrived) playSound("card");
    else if (did.slid) playSound("place");
  }

  // the prompt with the Undo button at the end of its title line (none: the prompt alone)
  function withUndo(prompt, button) {
    if (button) prompt.querySelector(".prompt-title").append(button);
    return prompt;
  }

  // an action chosen by its button or on the board
  function act(action) {
    for (const b of ui.decide.querySelectorAll("button[data-action]")) b.disabled = true;
    recap.acted();
    send({ type: "act", action, version: cur.version });
  }

  function redraw() {  // the table, then what a lesson's link adds to it
    draw();
    if (link && link.drawn) link.drawn(cur);
  }

  function send(msg) {
    if (link) { link.send(msg); return; }
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
      if (cur) redraw();
      return;
    }
    if (msg.type === "chat") { if (chat) chat.onMessage(msg); return; }
    if (msg.type === "ratings") { if (ratings) ratings.show(msg.changes); return; }
    if (msg.type === "undo_result") { if (cur) undoResult(msg, cur, names()); return; }
    if (msg.type !== "sync" && msg.type !== "update" && msg.type !== "patch") return;
    if (msg.type !== "patch") resyncing = false;
    else if (resyncing) return;  // out of step: patches wait for the sync asked for
    const whole = follow.read(msg);
    if (!whole) {  // a patch that does not fit: start again from a fresh sync
      resyncing = true;
      send({ type: "sync" });
      return;
    }
    if (!rend) rend = await renderer(whole.table.game);
    cur = { ...whole, at: performance.now() };
    addEvents(whole.events, whole.type === "sync");
    recap.add(whole.events, whole.type === "sync");
    moved = whole.type === "sync" ? null : whole.events;
    redraw();
  }

  function open() {
    if (link) { link.open((msg) => { inbox = inbox.then(() => onMessage({ data: JSON.stringify(msg) })); }); return; }
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws/tables/${id}`);
    ws.addEventListener("open", () => {
      retry = 0; netstate.hidden = true; follow = follower(); resyncing = false;
      ws.send(JSON.stringify({ type: "hello", token }));
      if (chat) chat.onConnect();
    });
    ws.addEventListener("message", (ev) => { inbox = inbox.then(() => onMessage(ev)); });
    ws.addEventListener("close", (ev) => {
      if (closedForGood || ev.code >= 4400) return;
      netstate.hidden = false; netstate.textContent = "connection lost: reconnecting…";
      retry = Math.min(retry + 1, 5);
      setTimeout(open, 400 * retry);
    });
  }
  tick = setInterval(() => { if (cur && cur.clock) drawTimer(); if (cur) tickUndo(ui.decide, cur); }, 200);
  cleanup = () => { closedForGood = true; clearInterval(tick); alerts.stop(); if (ws) ws.close(); if (link) link.close(); };
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
  const talk = await replayChat(id);  // what the players said, up to the step shown
  const slider = h("input", { type: "range", min: 0, max: data.steps, value: 0, id: "step-slider", "aria-label": "step" });
  const label = h("span", { id: "step-label" });
  const board = h("section", { class: "panel", id: "board" });
  const events = h("div", { class: "log", id: "log", role: "log", "aria-label": "this step", tabindex: "0", style: "height:auto;min-height:6rem" });
  let playing = null;
  async function show(step) {
    step = Math.max(0, Math.min(data.steps, step));
    data = await api(`/api/tables/${id}/replay/${step}`);
    slider.value = step;
    // the action in the words the table used (the server's, from the game's guide; else the renderer's)
    let said = data.said || data.action;
    if (data.action && !data.said && rend.actionLabel && data.seat !== null && step) {
      const before = await api(`/api/tables/${id}/replay/${step - 1}`);
      said = rend.actionLabel(data.action, before.views[data.seat], { seat: data.seat, names: data.names });
    }
    label.textContent = `step ${step} / ${data.steps}${data.action ? ` · ${data.names[data.seat]}: ${said}` : ""}`;
    rend.renderBoard(board, data.view, { seat: null, names: data.names, reveal: data.views });
    fitText(board);
    events.replaceChildren(...(data.events.length ? data.events.filter((e) => e.text).map((e) => h("p", { class: `ev-${e.type}` }, e.text))
      : [h("p", { class: "muted" }, step ? "" : "The deal. Press ▶ to step through the game.")]));
    talk.show(step);
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
  app.replaceChildren(h("h2", {}, "Replay"), bar, board, h("h3", {}, "This step"), events, talk.el);
  show(0);
}

// ---------------------------------------------------------------- routing
let cleanup = null;

function route() {
  if (cleanup) { cleanup(); cleanup = null; }
  netstate.hidden = true;
  document.body.classList.remove("challenge-open");
  window.scrollTo(0, 0);  // every page opens at its top, wherever the last one was scrolled
  const parts = location.pathname.split("/").filter(Boolean);
  const studioLink = document.querySelector(".topbar .topnav[href='/studio']");  // says where you are itself
  if (studioLink && parts[0] === "studio") studioLink.setAttribute("aria-current", "page");
  else if (studioLink) studioLink.removeAttribute("aria-current");
  const done = (p) => p.catch((e) => toast(e.message));
  if (parts[0] === "t" && parts[1]) return done(tablePage(parts[1]));
  if (parts[0] === "replay" && parts[1]) return done(replayPage(parts[1]));
  if (parts[0] === "leaderboard" && parts[1]) return done(leaderboardPage(app, crumb, decodeURIComponent(parts[1])));
  if (parts[0] === "learn" && parts[1]) return connect(null, null, lessonLink(decodeURIComponent(parts[1])));
  if (parts[0] === "studio") return done(import("./studio.js").then((m) => m.studio(app, crumb)).then((c) => { cleanup = c; }));
  if (parts[0] === "signup") return signupPage(app, crumb);
  if (parts[0] === "login") return loginPage(app, crumb);
  if (parts[0] === "account") return done(loadSession().then(() => settingsPage(app, crumb)));
  if (parts[0] === "u" && parts[1]) return done(profilePage(app, crumb, decodeURIComponent(parts[1])));
  return done(lobby(app, crumb));
}

setRouter(route);
loadSession();
accountBar(document.getElementById("account"));
installTips();
window.addEventListener("popstate", route);
route();
