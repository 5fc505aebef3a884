// The table page's frame, the same for every game: the board; the dock (the timer, your hand,
// then the prompt and its choices), kept at the bottom of the screen so a decision and the
// cards it is about are always in view; the side (who is at the table, the log, the invite and
// help). On a phone the side moves below the board, the dock is fixed to the bottom of the
// screen and a one-line log strip in it opens the whole log. A timed judged decision (a
// puzzle the table judges, such as Knockdown's tower) opens in a view of its own that fits
// the screen. Parts carry `data-part` (prompt, choices, hand, board, log, players, timer,
// rules, challenge) so help and tutorials can point at them.
import { h, toast } from "./page.js";

export function tableLayout(app, { invite, localOnly, invites, lesson = false }) {
  const ui = {
    timer: h("div", { id: "timer", "data-part": "timer" }),
    result: h("div", { id: "result" }),
    decide: h("section", { id: "decide", "aria-label": "your decision" }),
    handDock: h("div", { id: "hand-dock" }),
    board: h("section", { id: "board", class: "panel", "data-part": "board", "aria-label": "the table" }),
    players: h("div", { class: "panel", id: "players", "data-part": "players" }),
    log: h("div", { class: "log", id: "log", "data-part": "log", role: "log", "aria-live": "polite",
      "aria-label": "what happened", tabindex: "0" }),
    help: h("div", { class: "panel", id: "help" }),
    logLine: h("span", { class: "log-line", id: "log-line" }),
  };
  ui.logStrip = h("button", { class: "log-strip", id: "log-strip", type: "button", "aria-expanded": "false",
    "aria-controls": "log-panel", onclick: () => openLog(ui, !ui.root.classList.contains("log-open")) },
  h("span", { class: "log-strip-label" }, "Log"), ui.logLine);
  ui.dock = h("div", { class: "dock", id: "dock" }, ui.logStrip, ui.timer, ui.handDock, ui.result, ui.decide);
  ui.logPanel = h("section", { class: "panel log-panel", id: "log-panel", "aria-labelledby": "log-title",
    onkeydown: (e) => { if (e.key === "Escape" && ui.root.classList.contains("log-open")) openLog(ui, false); } },
  h("div", { class: "log-head" }, h("h2", { class: "h3", id: "log-title" }, "What happened"),
    h("button", { class: "log-close", id: "log-close", type: "button", onclick: () => openLog(ui, false) }, "Close")),
  ui.log);
  ui.inviteBox = invite === null ? null : h("details", { class: "panel invite-box", id: "invite-box" },
    h("summary", {}, h("b", {}, "Invite"), h("span", { class: "muted small" }, " a friend to this table")),
    h("label", { for: "invite", class: "sr" }, "Table link"),
    h("div", { class: "invite" },
      h("input", { value: invite, readonly: true, id: "invite", onfocus: (e) => e.target.select() }),
      h("button", { id: "copy-invite", type: "button",
        onclick: () => navigator.clipboard?.writeText(invite).then(() => toast("Link copied", "ok")) }, "Copy")),
    localOnly ? h("small", { class: "hint", id: "invite-note" }, "This address works on this computer only. To play on your network, "
      + "start the server with knockabout serve --host 0.0.0.0 and open it by this computer's network address.") : null,
    ...invites.map((inv) => h("div", { class: "invite" }, h("span", {}, `Seat ${inv.seat + 1}`),
      h("input", { value: `${location.origin}${inv.url}`, readonly: true, class: "invite-link", "data-seat": inv.seat,
        "aria-label": `invite link for seat ${inv.seat + 1}`, onfocus: (e) => e.target.select() }))));
  ui.challengeView = h("div", { class: "challenge-view", id: "challenge-view", role: "dialog", "aria-modal": "true",
    "aria-label": "your challenge", hidden: true });
  ui.side = h("aside", { id: "side", "aria-label": "players and log" }, ui.players, ui.logPanel, ui.inviteBox, ui.help);
  // in a lesson the step panel is the bar at the screen's edge, and the dock stays in the page
  ui.root = h("div", { class: `table-page${lesson ? " in-lesson" : ""}` },
    h("div", { class: "play-main" }, ui.board, ui.dock), ui.side, ui.challengeView);
  app.replaceChildren(h("h1", { class: "sr" }, "Table"), ui.root);
  // the log keeps its newest line in view unless the reader scrolled back
  ui.logPinned = true;
  ui.log.addEventListener("scroll", () => {
    ui.logPinned = ui.log.scrollTop + ui.log.clientHeight >= ui.log.scrollHeight - 4;
  }, { passive: true });
  // the phone keeps room below the page for the fixed dock
  if (window.ResizeObserver) {
    new ResizeObserver(() => ui.root.style.setProperty("--dock-h", `${ui.dock.offsetHeight}px`)).observe(ui.dock);
  }
  window.scrollTo(0, 0);  // a table always opens at its top, wherever the page it came from was scrolled
  return ui;
}

function openLog(ui, open) {
  ui.root.classList.toggle("log-open", open);
  ui.logStrip.setAttribute("aria-expanded", String(open));
  if (open) { ui.log.scrollTop = ui.log.scrollHeight; ui.log.focus(); } else if (document.activeElement && ui.logPanel.contains(document.activeElement)) {
    ui.logStrip.focus();
  }
}

// the newest line of the log, on the phone's strip; the log itself at its end (after a
// redraw changed its height too)
export function showLastLine(ui) {
  const last = ui.log.lastElementChild;
  ui.logLine.textContent = last ? last.textContent : "";
  if (ui.logPinned) ui.log.scrollTop = ui.log.scrollHeight;
}

// After the renderer drew the board: its hand goes to the dock (beside the prompt), and a
// judged challenge, with the timer and the prompt, to the view that fits the screen.
export function placeParts(ui, challengeOpen) {
  if (ui.logPinned) ui.log.scrollTop = ui.log.scrollHeight;
  const hand = ui.board.querySelector("[data-part='hand']");
  if (hand) ui.handDock.replaceChildren(hand); else ui.handDock.replaceChildren();
  // a hand too long for its row scrolls sideways: the keyboard can reach and scroll it too
  for (const row of ui.handDock.querySelectorAll(".hand-row")) {
    const reachable = row.querySelector("button, [tabindex]:not([tabindex='-1'])");
    if (!reachable && row.scrollWidth > row.clientWidth) row.tabIndex = 0;
  }
  const puzzle = challengeOpen ? ui.board.querySelector("[data-part='challenge']") : null;
  if (puzzle) {
    const prompt = ui.decide.firstElementChild;
    ui.challengeView.replaceChildren(ui.timer, ...(prompt ? [prompt] : []), puzzle);
    if (ui.challengeView.hidden) {
      ui.challengeView.hidden = false;
      document.body.classList.add("challenge-open");
      const first = puzzle.querySelector("button:not([disabled])");
      if (first) first.focus({ preventScroll: true });
    }
  } else {
    if (ui.timer.parentElement !== ui.dock) ui.dock.insertBefore(ui.timer, ui.handDock);
    if (!ui.challengeView.hidden) {
      ui.challengeView.hidden = true;
      ui.challengeView.replaceChildren();
      document.body.classList.remove("challenge-open");
    }
  }
}
