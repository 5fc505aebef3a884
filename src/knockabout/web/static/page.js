// What every page of the front end uses: the element builder, the toast, the API, what the
// browser remembers (seat tokens, your name, the tables you sit at) and in-app navigation.

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

// the short form game renderers use: a ``tag`` element with class ``cls`` holding ``text``
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

let toastTimer = null;
export function toast(message, kind = "error") {
  const t = document.getElementById("toast");
  t.textContent = message;
  t.dataset.kind = kind;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 6000);
}

// who this browser is (an account, or null for a guest) and the token the server wants on
// every POST (CSRF); loadSession() asks the server, and each account answer brings a new one
export const session = {
  account: null,
  csrf: "",
  ready: null,
  onchange: null,
  set(answer) {
    this.account = answer.account;
    this.csrf = answer.csrf;
    if (this.onchange) this.onchange();
  },
};
export function loadSession() {
  session.ready = fetch("/api/account").then((r) => r.json()).then((a) => session.set(a)).catch(() => {});
  return session.ready;
}

export async function api(path, body) {
  if (body !== undefined && session.ready) await session.ready;
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json", "x-csrf-token": session.csrf },
    body: JSON.stringify(body),
  };
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({ error: `server answered ${res.status}` }));
  if (!res.ok) throw new Error(data.error || `server answered ${res.status}`);
  return data;
}

// seat tokens by table id; the keys also tell which tables this browser sits at
const SEAT = "knockabout:seat:";
export const seats = {
  get(id) { try { return JSON.parse(localStorage.getItem(SEAT + id)); } catch { return null; } },
  set(id, seat, token) { localStorage.setItem(SEAT + id, JSON.stringify({ seat, token })); },
  drop(id) { localStorage.removeItem(SEAT + id); },
  tables() {
    const out = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith(SEAT)) out.push(k.slice(SEAT.length));
    }
    return out;
  },
};
// the invite links of a table's reserved seats, kept by its creator's browser only
export const invites = {
  get(id) { try { return JSON.parse(localStorage.getItem(`knockabout:invites:${id}`)) || []; } catch { return []; } },
  set(id, list) { if (list && list.length) localStorage.setItem(`knockabout:invites:${id}`, JSON.stringify(list)); },
};
// an invite code arrives in the link's fragment (#invite=...), which never reaches the server's logs
export function inviteCode() {
  const m = /(?:^#|&)invite=([A-Za-z0-9_-]+)/.exec(location.hash);
  return m ? m[1] : null;
}
export const myName = {
  get() { return localStorage.getItem("knockabout:name") || ""; },
  set(v) { localStorage.setItem("knockabout:name", v); },
};
export const hints = {
  on() { return localStorage.getItem("knockabout:hints") !== "off"; },
  set(on) { localStorage.setItem("knockabout:hints", on ? "on" : "off"); },
};

let router = () => {};
export function setRouter(fn) { router = fn; }
export function go(path) {
  history.pushState({}, "", path);
  router();
}
export function nav(ev) {
  const a = ev.currentTarget;
  if (ev.metaKey || ev.ctrlKey || ev.shiftKey) return;
  ev.preventDefault();
  go(a.getAttribute("href"));
}

export function ago(seconds) {
  const s = Math.max(0, Date.now() / 1000 - seconds);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(seconds * 1000).toLocaleDateString();
}
