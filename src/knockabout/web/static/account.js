// Accounts in the browser: the top bar's "Log in / Sign up" (or your name), the sign-up,
// log-in and account pages, and each player's profile. Accounts are optional: a guest
// plays exactly as before, and signing up (or logging in) makes the tables this browser
// sits at the account's. Every name is put on the page as text, never as markup.
import { ago, api, go, h, nav, seats, session, toast } from "./page.js";

// the top bar's corner: who is logged in, or the way to log in
export function accountBar(bar) {
  const draw = () => {
    const me = session.account;
    bar.replaceChildren(me
      ? h("span", { class: "who" }, h("a", { href: `/u/${encodeURIComponent(me.name)}`, onclick: nav, id: "me" }, me.name),
        " · ", h("a", { href: "/account", onclick: nav }, "Account"))
      : h("span", { class: "who" }, h("a", { href: "/login", onclick: nav, id: "login-link" }, "Log in"),
        " · ", h("a", { href: "/signup", onclick: nav }, "Sign up")));
  };
  session.onchange = draw;
  draw();
}

// the seats this browser holds (table id and seat token), for an account to claim
function heldSeats() {
  return seats.tables().map((id) => ({ table: id, token: (seats.get(id) || {}).token })).filter((c) => c.token);
}

function field(label, attrs) {
  const input = h("input", { required: true, ...attrs });
  return [h("label", {}, h("span", {}, label), input), input];
}

function claimBox() {
  const held = heldSeats();
  if (!held.length) return [null, () => []];
  const box = h("input", { type: "checkbox", id: "claim", checked: true });
  const label = h("label", { class: "check" }, box,
    ` Make the ${held.length === 1 ? "table" : `${held.length} tables`} this browser sits at mine`);
  return [label, () => (box.checked ? held : [])];
}

function formPage(app, crumb, { title, intro, submit, fields, send, after }) {
  crumb.textContent = title.toLowerCase();
  const problem = h("p", { class: "form-problem", role: "alert", hidden: true });
  const [claimLabel, claims] = claimBox();
  const button = h("button", { class: "primary", type: "submit" }, submit);
  const form = h("form", { class: "panel account-form", onsubmit: async (ev) => {
    ev.preventDefault();
    problem.hidden = true;
    button.disabled = true;
    try {
      const answer = await send(claims());
      after(answer);
    } catch (e) {
      problem.textContent = e.message;
      problem.hidden = false;
    } finally { button.disabled = false; }
  } }, h("h2", {}, title), intro ? h("p", { class: "muted" }, intro) : null, ...fields, claimLabel, problem,
  h("p", {}, button));
  app.replaceChildren(form);
  const first = form.querySelector("input");
  if (first) first.focus();
}

export function signupPage(app, crumb) {
  const [nameL, nameIn] = field("Name (2–24 letters, digits, _ . -)", { autocomplete: "username", maxlength: 24, id: "su-name" });
  const [passL, passIn] = field("Password (at least 8 characters)", { type: "password", autocomplete: "new-password", minlength: 8, id: "su-pass" });
  formPage(app, crumb, {
    title: "Sign up", submit: "Create my account",
    intro: "An account keeps your games and your record under one name. You can play without one.",
    fields: [nameL, passL],
    send: (claim) => api("/api/account/signup", { name: nameIn.value.trim(), password: passIn.value, claim }),
    after: (a) => { session.set(a); toast(`Welcome, ${a.account.name}`, "ok"); go(`/u/${encodeURIComponent(a.account.name)}`); },
  });
  app.querySelector("form").append(h("p", { class: "muted" }, "Have an account? ", h("a", { href: "/login", onclick: nav }, "Log in")));
}

export function loginPage(app, crumb) {
  const [nameL, nameIn] = field("Name", { autocomplete: "username", maxlength: 64, id: "li-name" });
  const [passL, passIn] = field("Password", { type: "password", autocomplete: "current-password", id: "li-pass" });
  formPage(app, crumb, {
    title: "Log in", submit: "Log in", fields: [nameL, passL],
    send: (claim) => api("/api/account/login", { name: nameIn.value.trim(), password: passIn.value, claim }),
    after: (a) => { session.set(a); go("/"); },
  });
  app.querySelector("form").append(h("p", { class: "muted" }, "No account yet? ", h("a", { href: "/signup", onclick: nav }, "Sign up")));
}

export function settingsPage(app, crumb) {
  crumb.textContent = "account";
  const me = session.account;
  if (!me) {
    app.replaceChildren(h("p", { class: "panel" }, "You are not logged in. ",
      h("a", { href: "/login", onclick: nav }, "Log in"), " or ", h("a", { href: "/signup", onclick: nav }, "sign up"), "."));
    return;
  }
  const [oldL, oldIn] = field("Current password", { type: "password", autocomplete: "current-password", id: "pw-old" });
  const [newL, newIn] = field("New password (at least 8 characters)", { type: "password", autocomplete: "new-password", minlength: 8, id: "pw-new" });
  const pwProblem = h("p", { class: "form-problem", role: "alert", hidden: true });
  const change = h("form", { class: "panel account-form", id: "change-password", onsubmit: async (ev) => {
    ev.preventDefault();
    pwProblem.hidden = true;
    try {
      session.set(await api("/api/account/password", { password: oldIn.value, new_password: newIn.value }));
      oldIn.value = newIn.value = "";
      toast("Password changed; your other devices are logged out", "ok");
    } catch (e) { pwProblem.textContent = e.message; pwProblem.hidden = false; }
  } }, h("h2", {}, "Change password"), oldL, newL, pwProblem, h("p", {}, h("button", { class: "primary", type: "submit" }, "Change password")));

  const [delL, delIn] = field("Password", { type: "password", autocomplete: "current-password", id: "del-pass" });
  const sure = h("input", { type: "checkbox", id: "del-sure", required: true });
  const delProblem = h("p", { class: "form-problem", role: "alert", hidden: true });
  const remove = h("form", { class: "panel account-form danger-zone", id: "delete-account", onsubmit: async (ev) => {
    ev.preventDefault();
    delProblem.hidden = true;
    try {
      session.set(await api("/api/account/delete", { password: delIn.value }));
      toast("Your account is deleted", "ok");
      go("/");
    } catch (e) { delProblem.textContent = e.message; delProblem.hidden = false; }
  } }, h("h2", {}, "Delete account"),
  h("p", { class: "muted" }, "Your name and password are removed. The games you played stay, with your seat shown as \u201cdeleted player\u201d."),
  delL, h("label", { class: "check" }, sure, " I understand this cannot be undone"), delProblem,
  h("p", {}, h("button", { class: "danger", type: "submit" }, "Delete my account")));

  const out = h("button", { id: "logout", onclick: async () => {
    try { session.set(await api("/api/account/logout", {})); go("/"); } catch (e) { toast(e.message); }
  } }, "Log out");
  app.replaceChildren(
    h("section", { class: "panel" }, h("h2", {}, "Your account"),
      h("p", {}, "Logged in as ", h("b", {}, me.name), ". ",
        h("a", { href: `/u/${encodeURIComponent(me.name)}`, onclick: nav }, "Your profile")), h("p", {}, out)),
    h("div", { class: "grid2" }, change, remove));
}

const pct = (x) => `${Math.round(x * 100)}%`;

// A rating as a person reads it: "1523 ±180", marked while it rests on few games ("–": none yet).
function ratingText(r) {
  if (!r) return h("span", { class: "muted", title: "No rated games of this game yet" }, "–");
  return h("span", { title: `${r.games} rated game${r.games === 1 ? "" : "s"}` }, String(r.rating),
    h("span", { class: "muted small" }, ` ±${r.plus_minus}`), r.provisional ? h("span", { class: "muted small prov" }, " (provisional)") : "");
}

// What a rated game did to the rating: " (+23)" beside its result.
function changeText(c) {
  if (!c) return "";
  const d = c.after - c.before;
  return h("span", { class: "rating-delta muted small", title: `rating ${c.before} → ${c.after}` }, ` (${d >= 0 ? "+" : "−"}${Math.abs(d)})`);
}

export async function profilePage(app, crumb, name) {
  crumb.textContent = `player ${name}`;
  let p;
  try { p = await api(`/api/accounts/${encodeURIComponent(name)}`); } catch (e) {
    app.replaceChildren(h("p", { class: "panel" }, e.message, " ", h("a", { href: "/", onclick: nav }, "Back to the lobby")));
    return;
  }
  const { games } = await api("/api/games").catch(() => ({ games: [] }));
  const gameName = Object.fromEntries(games.map((g) => [g.id, g.name]));
  const stats = p.stats.length
    ? h("table", { class: "list", id: "stats" }, h("caption", {}, "Per game"),
      h("thead", {}, h("tr", {}, [["Game"], ["Rating"], ["Played"], ["Won"], ["Drawn", "wide"], ["Lost", "wide"], ["Win rate"]]
        .map(([t, cls]) => h("th", { scope: "col", class: cls || "" }, t)))),
      h("tbody", {}, p.stats.map((s) => h("tr", { "data-game": s.game }, h("td", {}, s.name),
        h("td", { class: "rating" }, ratingText(s.rating)), h("td", {}, s.played),
        h("td", {}, s.won), h("td", { class: "wide" }, s.drawn), h("td", { class: "wide" }, s.lost),
        h("td", {}, s.win_rate == null ? "–" : pct(s.win_rate))))))
    : h("p", { class: "muted" }, "No finished games yet.");
  const word = { won: "won", lost: "lost", drawn: "draw" };
  const recent = p.games.length
    ? h("table", { class: "list", id: "recent" }, h("caption", {}, "Recent games"),
      h("thead", {}, h("tr", {}, [["Game"], ["Players"], ["Result"], ["When", "wide"], [""]]
        .map(([t, cls]) => h("th", { scope: "col", class: cls || "" }, t || h("span", { class: "sr" }, "open"))))),
      h("tbody", {}, p.games.map((g) => h("tr", { "data-table": g.id },
        h("td", {}, gameName[g.game] || g.game),
        h("td", {}, g.names.map((n, i) => (i === g.seat ? h("b", {}, n) : n)).flatMap((x, i) => (i ? [", ", x] : [x]))),
        h("td", { class: g.result ? `res-${g.result}` : "" }, g.result ? word[g.result] : g.status, changeText(g.rating_change)),
        h("td", { class: "wide" }, h("time", { datetime: new Date(g.created_at * 1000).toISOString() }, ago(g.created_at))),
        h("td", {}, h("a", { class: "btn", href: g.url, onclick: nav }, g.result ? "Replay" : "Open"))))))
    : h("p", { class: "muted" }, "No games yet.");
  app.replaceChildren(h("section", { class: "panel profile" },
    h("h2", { id: "profile-name" }, p.name),
    h("p", { class: "muted" }, `Playing since ${new Date(p.created_at * 1000).toLocaleDateString()}`),
    stats, recent));
}
