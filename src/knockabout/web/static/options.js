// A game's options as real controls, built from its config schema (JSON Schema from the
// game's pydantic model) and the choices its lobby info declares: selects for enums and
// declared choices, checkboxes for sets of values, one picker per seat for per-seat lists,
// number fields with their range. Each control reads back the value the config expects. Options the
// schema marks `advanced` (bot tuning, safety limits) sit under a fold; the one naming an
// uploaded content version is not drawn here (the lobby offers the person's own versions).
import { h } from "./page.js";

const words = (v) => String(v).replaceAll("_", " ");

function choiceInfo(choice) {
  if (!choice) return h("div", { class: "choice-info muted" });
  const box = h("div", { class: "choice-info" }, h("span", { class: "muted" }, choice.summary || ""));
  if (choice.detail && choice.detail.length) {
    box.append(h("details", { class: "choice-detail" }, h("summary", {}, `About ${choice.name}`),
      h("ul", {}, choice.detail.map((line) => h("li", {}, line)))));
  }
  return box;
}

function selectOf(name, list, value, label) {
  const groups = {};
  const sel = h("select", { name, "aria-label": label });
  for (const c of list) {
    const opt = h("option", { value: c.value }, c.name);
    if (c.group) (groups[c.group] ||= h("optgroup", { label: c.groupName || words(c.group) })).append(opt);
    else sel.append(opt);
  }
  for (const g of Object.values(groups)) sel.append(g);
  if (list.some((c) => c.value === value)) sel.value = value;
  return sel;
}

// One option: returns {el, read()}; `narrow()` gives the choices offered now (after the
// option they depend on changed); `onchange` lets the form redraw dependants.
function control(key, spec, choices, groupNames, onchange) {
  const title = spec.title || words(key);
  const hint = spec.description ? h("small", { class: "hint" }, spec.description) : null;
  const list = () => (choices ? choices().map((c) => ({ ...c, groupName: groupNames[c.group] })) : null);
  const items = spec.items || {};
  // a fixed-length list, one value per seat (fighters, packs)
  if (spec.type === "array" && spec.prefixItems && list()) {
    const n = spec.prefixItems.length;
    const wrap = h("fieldset", { class: "opt per-seat", "data-option": key }, h("legend", {}, title), hint);
    const sels = [];
    for (let i = 0; i < n; i++) {
      const value = (spec.default || [])[i] ?? "random";
      const info = h("div");
      const sel = selectOf(`${key}.${i}`, list(), value, `${title}: seat ${i + 1}`);
      const redraw = () => info.replaceChildren(choiceInfo(list().find((c) => c.value === sel.value)));
      sel.addEventListener("change", () => { redraw(); onchange(); });
      redraw();
      sels.push(sel);
      wrap.append(h("label", { class: "seat-pick" }, h("span", {}, `Seat ${i + 1}`), sel, info));
    }
    return { el: wrap, read: () => sels.map((s) => s.value),
      narrow: () => sels.forEach((s) => { const v = s.value; const fresh = selectOf(s.name, list(), v, s.getAttribute("aria-label"));
        s.replaceChildren(...fresh.childNodes); s.value = list().some((c) => c.value === v) ? v : "random";
        s.dispatchEvent(new Event("change")); }) };
  }
  // a set of values (boxes, draft packs): checkboxes with their summaries
  if (spec.type === "array" && (items.enum || list())) {
    const opts = list() || items.enum.map((v) => ({ value: v, name: words(v), summary: "" }));
    const wrap = h("fieldset", { class: "opt set", "data-option": key }, h("legend", {}, title), hint);
    const boxes = [];
    for (const c of opts.filter((o) => o.value !== "random")) {
      const cb = h("input", { type: "checkbox", name: key, value: c.value, onchange });
      cb.checked = (spec.default || []).includes(c.value);
      boxes.push(cb);
      wrap.append(h("label", { class: "check" }, cb, h("b", {}, c.name), " ", choiceInfo(c)));
    }
    return { el: wrap, read: () => boxes.filter((b) => b.checked).map((b) => b.value) };
  }
  let input;
  if (list() || spec.enum) {
    const opts = list() || spec.enum.map((v) => ({ value: v, name: words(v) }));
    input = selectOf(key, opts, spec.default, title);
    const info = h("div");
    const redraw = () => info.replaceChildren(list() ? choiceInfo(list().find((c) => c.value === input.value)) : "");
    input.addEventListener("change", () => { redraw(); onchange(); });
    redraw();
    return { el: h("label", { class: "opt", "data-option": key }, h("span", {}, title), input, hint, info),
      read: () => input.value,
      narrow: list() ? () => { const v = input.value; const fresh = selectOf(key, list(), v, title);
        input.replaceChildren(...fresh.childNodes); input.value = list().some((c) => c.value === v) ? v : "random"; redraw(); } : null };
  }
  if (spec.type === "boolean") {
    input = h("input", { name: key, type: "checkbox" });
    input.checked = !!spec.default;
    return { el: h("label", { class: "opt check", "data-option": key }, input, " ", title, hint), read: () => input.checked };
  }
  if (spec.type === "number" || spec.type === "integer") {
    const lo = spec.minimum ?? spec.exclusiveMinimum;
    const hi = spec.maximum;
    input = h("input", { name: key, type: "number", value: spec.default, step: spec.type === "integer" ? 1 : "any",
      min: lo, max: hi, inputmode: spec.type === "integer" ? "numeric" : "decimal" });
    const range = lo === undefined || hi === undefined ? ""
      : spec.exclusiveMinimum !== undefined ? ` (more than ${lo}, at most ${hi})` : ` (${lo}–${hi})`;
    return { el: h("label", { class: "opt", "data-option": key }, h("span", {}, title + range), input, hint),
      read: () => Number(input.value) };
  }
  if (spec.type === "array") {  // a free list of texts
    input = h("input", { name: key, value: (spec.default || []).join(", "), placeholder: "comma-separated" });
    return { el: h("label", { class: "opt", "data-option": key }, h("span", {}, title), input, hint),
      read: () => input.value.split(",").map((x) => x.trim()).filter(Boolean) };
  }
  input = h("input", { name: key, value: spec.default ?? "" });
  return { el: h("label", { class: "opt", "data-option": key }, h("span", {}, title), input, hint), read: () => input.value };
}

// Every option of `game` (from /api/games) in `box`; returns read() -> the config object.
export function optionControls(box, game) {
  const lobby = game.lobby || { choices: {}, narrowed_by: {} };
  const controls = {};
  const groupNames = Object.fromEntries((lobby.choices[Object.values(lobby.narrowed_by || {})[0]] || [])
    .map((c) => [c.value, c.name]));
  const dependants = (key) => Object.entries(lobby.narrowed_by || {}).filter(([, by]) => by === key).map(([k]) => k);
  const choicesFor = (key) => {
    const all = lobby.choices[key];
    if (!all) return null;
    const by = (lobby.narrowed_by || {})[key];
    return () => {
      if (!by || !controls[by]) return all;
      const allowed = new Set([].concat(controls[by].read()));
      return all.filter((c) => !c.group || allowed.has(c.group));
    };
  };
  box.replaceChildren();
  // bot tuning and safety limits: under a fold, out of a first-timer's way
  const advanced = h("details", { class: "advanced", id: "advanced-options" }, h("summary", {}, "Advanced: bots and limits"));
  for (const [key, spec] of Object.entries(game.options)) {
    if (spec.content_version) continue;  // an uploaded content version: the lobby offers the person's own
    const changed = () => { for (const d of dependants(key)) controls[d]?.narrow?.(); };
    controls[key] = control(key, spec, choicesFor(key), groupNames, changed);
    (spec.advanced ? advanced : box).append(controls[key].el);
  }
  if (advanced.childElementCount > 1) box.append(advanced);
  return () => Object.fromEntries(Object.entries(controls).map(([k, c]) => [k, c.read()]));
}
