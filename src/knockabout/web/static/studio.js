// The designer's studio: edit a pack or a box in a form made from the game's content models
// (their JSON Schema, drawn by json-editor), see every card drawn by the game's own table
// renderer as you type, with each problem the server finds shown at its field; download the
// TOML files `knockabout content validate` accepts, or upload files to go on editing them.
// Save a version on the server and playtest it at a table of its own, with invite links.
import { JSONEditor } from "./vendor/json-editor/index.mjs";
import { fitText } from "./fit.js";
import { optionControls } from "./options.js";
import { ago, api, go, h, invites, myName, seats, session, toast } from "./page.js";

const WAIT_MS = 250;  // how long typing pauses before the server checks the document
const POLL_MS = 700;  // how often a running test's page asks for its numbers

const pct = (x) => `${(100 * x).toFixed(0)}%`;
const span = (r) => `${(100 * r.low).toFixed(0)}–${(100 * r.high).toFixed(0)}%`;

// a test's numbers as they stand: each group's matrix (row against column, with the count) and
// each entrant against the field, its 95 % interval under it (one column less: the matrix fits
// the studio's half of a laptop screen)
function testTables(job) {
  return job.groups.map((g) => {
    const cell = new Map(g.matrix.map((c) => [`${c.row}\u0000${c.col}`, c]));
    const field = new Map(g.field.map((f) => [f.entrant, f]));
    const head = h("tr", {}, h("th", {}, `${g.kind} \\ vs`), g.labels.map((l) => h("th", {}, l)),
      h("th", { title: "against every other entrant, with its 95 % interval" }, "field"));
    const rows = g.entrants.map((a) => h("tr", { "data-entrant": a }, h("th", {}, a), g.entrants.map((b) => {
      if (a === b) return h("td", { class: "muted" }, "—");
      const c = cell.get(`${a}\u0000${b}`);
      return h("td", { "data-n": c ? c.n : 0 }, c ? pct(c.rate) : "·");
    }), h("td", { class: "field" }, ...(field.has(a)
      ? [h("span", {}, pct(field.get(a).rate)), h("small", { class: "ci" }, span(field.get(a)))] : ["·"]))));
    return h("div", { class: "studio-matrix" }, g.title ? h("h4", {}, g.title) : null,
      h("table", {}, h("thead", {}, head), h("tbody", {}, rows)),
      h("p", { class: "muted" }, `first player ${pct(g.first.rate)} (${span(g.first)}) of ${g.first.n} matches`));
  });
}

// each of the document's cards: how often it was drawn and played, what the usage statistics say
// (its side's win rate where it played the card, less its average) and, after "Measure each
// card", its effect by paired ablation (the same deals with the card swapped for a plain one)
const pts = (x) => `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)}`;
const between = (a, b) => `${pts(a)} … ${pts(b)}`;
function cardTable(job) {
  if (!job.cards || !job.cards.length) return null;
  const measured = job.kind === "ablate";
  const owners = new Set(job.cards.map((c) => c.entrant)).size > 1;  // whose card, when they differ
  const withInterval = (x, lo, hi) => [h("span", {}, pts(x)), " ", h("small", { class: "ci" }, `(${between(lo, hi)})`)];
  const effect = (e) => (e ? h("td", { class: e.low > 0 ? "helps" : e.high < 0 ? "hurts" : "" }, ...withInterval(e.effect, e.low, e.high))
    : h("td", { class: "muted" }, "·"));
  const rows = [...job.cards].sort((a, b) => (b.effect ? b.effect.effect : 0) - (a.effect ? a.effect.effect : 0))
    .map((c) => h("tr", { "data-card": c.card },
      h("th", {}, c.card), ...(owners ? [h("td", {}, c.entrant)] : []), h("td", { class: "drawn" }, String(c.drawn)),
      h("td", {}, String(c.played)),
      c.usage ? h("td", {}, ...withInterval(c.usage.diff, c.usage.low, c.usage.high)) : h("td", { class: "muted" }, "not played"),
      ...(measured ? [effect(c.effect)] : [])));
  return h("div", { class: "studio-cards", id: "studio-cards" },
    h("h4", {}, "Your cards"),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "card"), ...(owners ? [h("th", {}, "of")] : []), h("th", { class: "drawn" }, "drawn"),
      h("th", {}, "played"),
      h("th", { title: "its side's win rate in the matches where it played the card, less its average: a correlation" }, "usage says (pts)"),
      ...(measured ? [h("th", { title: "the same deals with the card replaced by a plain stand-in: the card's own effect" }, "effect (pts, 95 %)")] : []))),
    h("tbody", {}, rows)),
    measured ? null : h("p", { class: "muted" }, "Measure each card to see its effect beside what usage says."));
}

// json-editor names a field "root.cards.0.edges.north.attack"
const fieldPath = (path) => ["root", ...path].join(".");

function errorsAt(problems) {
  return problems.map((p) => ({ path: fieldPath(p.path), property: "server", message: p.message }));
}

function problemItem(p) {
  const where = p.path.length ? p.path.map((k) => (typeof k === "number" ? `#${k + 1}` : k)).join(" › ") : "whole document";
  return h("li", { "data-path": fieldPath(p.path) }, h("b", {}, where), `: ${p.message}`);
}

// the options a playtest table offers: the game's own, less those the version sets (its pack or
// box in play) and those they narrow
function playtestOptions(game, sets) {
  const by = (game.lobby && game.lobby.narrowed_by) || {};
  const left = Object.entries(game.options).filter(([k]) => !sets.includes(k) && !sets.includes(by[k]));
  return { ...game, options: Object.fromEntries(left) };
}

async function removeVersion(id) {
  if (session.ready) await session.ready;
  const res = await fetch(`/api/studio/versions/${id}`, { method: "DELETE", headers: { "x-csrf-token": session.csrf } });
  if (!res.ok) throw new Error((await res.json().catch(() => ({}))).error || `server answered ${res.status}`);
}

export async function studio(app, crumb) {
  crumb.textContent = "";  // the bar's own "studio" link, marked current, says where you are
  const [{ games }, lobby] = await Promise.all([api("/api/studio"), api("/api/games")]);
  const gameSel = h("select", { id: "studio-game", "aria-label": "game" },
    games.map((g) => h("option", { value: g.id }, `${g.name}: a ${g.kind}`)));
  const docSel = h("select", { id: "studio-doc", "aria-label": "start from" });
  const formBox = h("div", { id: "studio-form", class: "studio-form" });
  const preview = h("div", { id: "studio-preview", class: "studio-preview", "aria-live": "polite" });
  const problems = h("ul", { id: "studio-problems", class: "studio-problems", "aria-live": "polite" });
  const status = h("p", { id: "studio-status", class: "muted" });
  const links = h("div", { id: "studio-files", class: "row" });
  const upload = h("input", { id: "studio-upload", type: "file", accept: ".toml", multiple: true,
    "aria-label": "upload TOML files" });
  let editor = null;
  let renderer = null;
  let timer = null;
  let asked = 0;

  const game = () => gameSel.value;

  async function check() {
    const mine = ++asked;
    const data = editor.getValue();
    shown = JSON.stringify(data);
    links.replaceChildren();
    let res;
    try {
      res = await api(`/api/studio/${game()}/check`, { data });
    } catch (e) {
      toast(e.message);
      return;
    }
    if (mine !== asked) return;  // a newer edit is on its way
    const own = editor.validate();
    editor.showValidationErrors([...own, ...errorsAt(res.problems)]);
    problems.replaceChildren(...res.problems.map(problemItem));
    const ok = res.problems.length === 0 && own.length === 0;
    status.textContent = ok ? "Valid: the cards below are drawn as the table draws them." : `${res.problems.length || own.length} problem(s): fix them to see the cards.`;
    status.dataset.valid = ok ? "yes" : "no";
    if (ok) { renderer.previewCards(preview, res.preview); fitText(preview); }  // names fit as at the table
  }

  let shown = "";  // the document the cards and files were made from
  function changed() {
    if (JSON.stringify(editor.getValue()) === shown) return;  // json-editor also says so on focus changes
    clearTimeout(timer);
    timer = setTimeout(check, WAIT_MS);
  }

  function edit(schema, data) {
    if (editor) editor.destroy();
    delete status.dataset.valid;  // until the new document is checked
    status.textContent = "Checking…";
    preview.replaceChildren();
    problems.replaceChildren();
    editor = new JSONEditor(formBox, {
      schema, startval: data, theme: "html", iconlib: null, disable_edit_json: true, disable_properties: true,
      disable_array_delete_all_rows: true, disable_array_delete_last_row: true, prompt_before_delete: false,
      show_errors: "always", required_by_default: true, display_required_only: false, keep_oneof_values: false,
      no_additional_properties: true, compact: false, array_controls_top: true,
    });
    editor.on("ready", () => { editor.on("change", changed); check(); });
  }

  let schema = null;
  async function describe() {
    const info = await api(`/api/studio/${game()}`);
    schema = info.schema;
    drawPlaytest(info.playtest_sets);
    listVersions();
    renderer = await import(`/games/${game()}/renderer.js`);
    docSel.replaceChildren(...info.shipped.map((c) => h("option", { value: c.value }, `${c.name}${c.summary ? ` (${c.summary})` : ""}`)));
    docSel.onchange = async () => edit(info.schema, (await api(`/api/studio/${game()}/shipped/${docSel.value}`)).data);
    upload.onchange = async () => {
      const files = {};
      for (const f of upload.files) files[f.webkitRelativePath || f.name] = await f.text();
      upload.value = "";
      try {
        const res = await api(`/api/studio/${game()}/read`, { files });
        if (res.data) edit(info.schema, res.data);
        else problems.replaceChildren(...res.problems.map(problemItem));
      } catch (e) { toast(e.message); }
    };
    await docSel.onchange();
  }

  async function download() {
    try {
      const { files } = await api(`/api/studio/${game()}/files`, { data: editor.getValue() });
      links.replaceChildren(...Object.entries(files).map(([name, text]) => {
        const url = URL.createObjectURL(new Blob([text], { type: "application/toml" }));
        return h("a", { class: "btn", href: url, download: name.replaceAll("/", "_"), "data-file": name }, `Save ${name}`);
      }));
      links.querySelector("a").focus();
    } catch (e) { toast(e.message); }
  }

  // "Test it": a quick balance run of this document against the shipped content, on the server
  const testBox = h("div", { id: "studio-test", class: "studio-test", "aria-live": "polite" });
  const gamesIn = h("input", { id: "studio-games", type: "number", min: 1, max: 200, value: 4, inputmode: "numeric",
    "aria-label": "matches per ordered pairing" });
  const width = h("input", { id: "studio-width", type: "number", min: 1, max: 49, placeholder: "off",
    inputmode: "numeric", "aria-label": "stop at an interval width of ± points" });
  const bot = h("select", { id: "studio-bot", "aria-label": "bots" }, h("option", { value: "easy" }, "easy bots"),
    h("option", { value: "random" }, "random bots"));
  let job = null;
  let poll = null;
  function drawJob(j) {
    const bar = h("progress", { id: "studio-progress", max: j.planned || 1, value: j.done });
    const stopBtn = h("button", { id: "studio-stop", onclick: stopJob }, "Stop");
    const state = j.state === "queued" ? `waiting (${j.waiting} before it)` : j.state;
    testBox.replaceChildren(
      h("p", { id: "studio-job-state", "data-state": j.state }, `${state}: ${j.done}/${j.planned} matches, ${j.bot} bots, `
        + `seed ${j.seed}, version ${j.version.slice(0, 8)}${j.note ? ` · ${j.note}` : ""}${j.error ? ` · ${j.error}` : ""}`),
      bar, ...(["queued", "running"].includes(j.state) ? [stopBtn] : []), cardTable(j), ...testTables(j));
  }
  async function follow() {
    if (!job) return;
    try {
      const j = await api(`/api/studio/jobs/${job.job}`);
      drawJob({ ...j, waiting: j.waiting });
      if (["queued", "running"].includes(j.state)) poll = setTimeout(follow, POLL_MS);
    } catch (e) { toast(e.message); }
  }
  async function stopJob() {
    if (!job) return;
    try { drawJob(await api(`/api/studio/jobs/${job.job}/stop`, { token: job.token })); } catch (e) { toast(e.message); }
  }
  async function submit(path, body) {
    clearTimeout(poll);
    try {
      job = await api(`/api/studio/${game()}/${path}`, { data: editor.getValue(), bot: bot.value,
        games: Number(gamesIn.value) || 4, ...body });
      drawJob(job);
      poll = setTimeout(follow, POLL_MS);
    } catch (e) { toast(e.message); }
  }
  const testIt = () => submit("test", { width: width.value ? Number(width.value) : null });
  const measureIt = () => submit("measure", {});

  // Playtest: save the document as a version on the server, then play it at a table of its own
  const versionList = h("ul", { id: "studio-versions", class: "studio-versions", "aria-live": "polite" });
  const saved = h("p", { id: "studio-saved", class: "muted", "aria-live": "polite" });
  const against = h("select", { id: "studio-against", "aria-label": "the other seat" });
  const optionsBox = h("div", { id: "studio-playtest-options", class: "studio-playtest-options" });
  let readOptions = () => ({});
  function drawPlaytest(sets) {
    const g = lobby.games.find((x) => x.id === game());
    against.replaceChildren(h("option", { value: "invite" }, "a playtester, by invite link"),
      h("option", { value: "open" }, "anyone with the table's link"),
      ...((g && g.bots) || lobby.bots).map((b) => h("option", { value: b }, `a bot: ${b}`)));
    readOptions = g ? optionControls(optionsBox, playtestOptions(g, sets)) : () => ({});
  }
  function versionItem(v) {
    const playtest = async () => {
      try {
        const made = await api(`/api/studio/versions/${v.id}/tables`, {
          seats: ["me", against.value], name: myName.get(), config: readOptions() });
        seats.set(made.id, made.seat, made.token);
        invites.set(made.id, made.invites);
        go(`/t/${made.id}`);
      } catch (e) { toast(e.message); }
    };
    const open = async () => {
      try { edit(schema, (await api(`/api/studio/versions/${v.id}`)).data); } catch (e) { toast(e.message); }
    };
    const remove = async () => {
      try { await removeVersion(v.id); listVersions(); } catch (e) { toast(e.message); }
    };
    const tables = v.tables === 1 ? "1 table" : `${v.tables} tables`;
    return h("li", { "data-version": v.id },
      h("span", { class: "version-name" }, h("b", {}, v.name), " ",
        h("small", { class: "muted" }, `saved ${ago(v.uploaded_at)} · ${tables} · ${v.id.slice(0, 8)}`)),
      h("span", { class: "row" },
        h("button", { class: "primary playtest", onclick: playtest }, "Playtest"),
        h("button", { class: "open", onclick: open }, "Edit"),
        h("button", { class: "remove tone-danger", onclick: remove }, "Remove")));
  }
  async function listVersions() {
    try {
      const { versions } = await api(`/api/studio/${game()}/versions`);
      versionList.replaceChildren(...(versions.length ? versions.map(versionItem)
        : [h("li", { class: "muted" }, "No saved versions yet.")]));
    } catch (e) { toast(e.message); }
  }
  async function save() {
    try {
      const { version, new: fresh } = await api(`/api/studio/${game()}/versions`, { data: editor.getValue() });
      saved.dataset.version = version.id;
      saved.textContent = fresh ? `Saved as version ${version.id.slice(0, 8)}.`
        : `This is version ${version.id.slice(0, 8)}, saved before: nothing changed.`;
      await listVersions();
    } catch (e) { toast(e.message); }
  }

  gameSel.addEventListener("change", () => describe().catch((e) => toast(e.message)));
  app.replaceChildren(
    h("h2", {}, "Studio"),
    h("p", { class: "muted" }, "Start from a shipped pack or box, or upload your own TOML files; change anything in the "
      + "form. The cards are drawn as the table draws them, and every problem is shown at its field."),
    h("div", { class: "row studio-bar" },
      h("label", {}, "Game ", gameSel), h("label", {}, "Start from ", docSel),
      h("label", { class: "btn" }, "Upload TOML… ", upload),
      h("button", { id: "studio-download", class: "primary", onclick: download }, "Download TOML")),
    links,
    h("div", { class: "studio" },
      h("section", { class: "panel" }, h("h3", {}, "Edit"), formBox),
      h("section", { class: "panel" }, h("h3", {}, "Cards"), status, problems, preview,
        h("h3", {}, "Playtest"),
        h("p", { class: "muted" }, "Save this version on the server, then play it at a table of its own: with "
          + "playtesters you invite by link, or against a bot. A saved version never changes, so its games replay "
          + "exactly however often you edit and save again."),
        h("div", { class: "row" }, h("button", { id: "studio-save", class: "primary", onclick: save }, "Save version"),
          h("label", {}, "The other seat: ", against)),
        saved,
        h("details", { class: "advanced" }, h("summary", {}, "Table options"), optionsBox),
        h("h4", {}, "Your versions"), versionList,
        h("h3", {}, "Test it"),
        h("p", { class: "muted" }, "Plays this version against the shipped content, bot against bot, on the server: "
          + "every pairing in both seat orders, the same deals as `knockabout balance` with the same seed. "
          + "Measure each card plays your side's matches again with each of your cards replaced by a plain one: "
          + "the difference is what the card itself does for winning."),
        h("div", { class: "row" }, bot, h("label", {}, "matches a pairing ", gamesIn),
          h("label", {}, "stop at ± ", width, " points"),
          h("button", { id: "studio-test-it", class: "primary", onclick: testIt }, "Test it"),
          h("button", { id: "studio-measure", onclick: measureIt,
            title: "plays the same matches again with each of your cards replaced by a plain one" }, "Measure each card")),
        testBox)),
  );
  await describe();
  return () => { clearTimeout(poll); job = null; };  // leaving the page stops following the test
}
