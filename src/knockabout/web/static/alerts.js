// Turn alerts: when a decision opens for you while the table's tab is in the background,
// the tab's title and icon change, the "turn" sound plays (if sound is on, see sound.js)
// and, if you allowed it, the browser shows a notification. The tab keeps its alert until
// you look at it again. Notifications are asked for by a switch ("Notify me"), whose
// choice is kept per browser; the browser's own permission has the last word.
import { h, toast } from "./page.js";
import { playSound, sound } from "./sound.js";

const TITLE = "knockabout";
const KEY = "knockabout:notify";

// the tab's icon (static/icon.svg), and the same with a dot while a move waits for you
export const ICONS = { plain: "/static/icon.svg", alert: "/static/icon-turn.svg" };

function setIcon(href) {
  let link = document.querySelector("link[rel~='icon']");
  if (!link) { link = h("link", { rel: "icon" }); document.head.append(link); }
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
}

export function hidden() { return document.visibilityState === "hidden"; }

export const notify = {
  supported() { return typeof window.Notification === "function"; },
  wanted() { try { return localStorage.getItem(KEY) === "on"; } catch { return false; } },
  allowed() { return notify.supported() && notify.wanted() && Notification.permission === "granted"; },
  async set(on) {
    try { localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* private mode: this page only */ }
    if (!on || !notify.supported()) return on && notify.supported();
    const answer = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
    if (answer !== "granted") {
      toast("This browser blocks notifications from this site; allow them in its site settings to be told of your turn.");
      return false;
    }
    return true;
  },
};

// the "Notify me" switch for the table's help panel (none where the browser has no notifications)
export function notifyToggle() {
  if (!notify.supported()) return null;
  const box = h("input", { type: "checkbox", id: "notify-on", checked: notify.allowed(),
    onchange: async (e) => { e.target.checked = await notify.set(e.target.checked); } });
  return h("label", { class: "check", title: "A browser notification when it is your move and this tab is not shown" },
    box, " Notify me when it is my move");
}

// One table's alerts. `update(mine, words)` after every redraw: `mine` says whether a
// decision is yours, `words` ({game, prompt}) what to say of it. Returns a `stop()` too.
export function turnAlerts() {
  let wasMine = false;
  let unseen = false;  // a decision opened for you while the tab was hidden, not looked at yet
  let note = null;
  let last = { mine: false, game: "", prompt: "" };

  function show() {
    const { mine, game } = last;
    document.title = !mine ? TITLE : unseen ? `▶ Your move! · ${game} · ${TITLE}` : `● Your move · ${TITLE}`;
    setIcon(mine && unseen ? ICONS.alert : ICONS.plain);
  }
  function seen() {
    if (hidden()) return;
    unseen = false;
    if (note) { note.close(); note = null; }
    show();
  }
  function opened() {
    unseen = true;
    playSound("turn");
    if (notify.allowed()) {
      try {
        note = new Notification(`Your move · ${last.game}`, { body: last.prompt, tag: "knockabout-turn", icon: ICONS.alert });
        note.onclick = () => { window.focus(); if (note) note.close(); };
      } catch { note = null; }  // (a browser that allows notifications only from a service worker)
    }
  }
  document.addEventListener("visibilitychange", seen);
  window.addEventListener("focus", seen);
  // a page reloaded with sound on: the first click lets audio start again
  const wake = () => { if (sound.on()) sound.set(true); };
  document.addEventListener("pointerdown", wake, { once: true });
  return {
    update(mine, words = {}) {
      last = { mine, game: words.game || "", prompt: words.prompt || "" };
      if (mine && !wasMine && hidden()) opened();
      if (!mine) { unseen = false; if (note) { note.close(); note = null; } }
      wasMine = mine;
      show();
    },
    stop() {
      document.removeEventListener("visibilitychange", seen);
      window.removeEventListener("focus", seen);
      document.removeEventListener("pointerdown", wake);
      if (note) note.close();
      document.title = TITLE;
      setIcon(ICONS.plain);
    },
  };
}
