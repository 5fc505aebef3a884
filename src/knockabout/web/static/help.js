// Help at hand: the rules drawer (each game's rules page, rendered by the server) and
// tooltips for any element with a `data-tip` (hover, keyboard focus, or a long press on a
// touch screen). A tip shows only text the page already holds (the seat's view).
import { api, h } from "./page.js";
import { settleZoom, zoomOf } from "./zoom.js";

const rulesCache = {};
let drawer = null;
let opener = null;

function closeDrawer() {
  if (!drawer) return;
  drawer.hidden = true;
  document.body.classList.remove("drawer-open");
  if (opener && opener.isConnected) opener.focus();
}

// `section`: the id of a heading on the rules page (a prompt's "?" opens its decision's section)
export async function openRules(gameId, from, section) {
  opener = from || document.activeElement;
  if (!drawer) {
    drawer = h("aside", { id: "rules-drawer", class: "drawer", role: "dialog", "aria-modal": "true", "data-part": "rules",
      "aria-labelledby": "rules-title", hidden: true, onkeydown: (e) => { if (e.key === "Escape") closeDrawer(); } });
    document.body.append(drawer);
  }
  drawer.replaceChildren(
    h("div", { class: "drawer-head" }, h("h2", { id: "rules-title" }, "Rules"),
      h("button", { id: "rules-close", onclick: closeDrawer, "aria-label": "close the rules" }, "✕ Close")),
    h("div", { class: "drawer-body rules", id: "rules-body", tabindex: "0" }, h("p", { class: "muted" }, "Loading…")));
  drawer.hidden = false;
  document.body.classList.add("drawer-open");
  drawer.querySelector("#rules-close").focus();
  try {
    const page = rulesCache[gameId] || (rulesCache[gameId] = await api(`/api/games/${encodeURIComponent(gameId)}/rules`));
    drawer.querySelector("#rules-title").textContent = `Rules: ${page.name}`;
    drawer.querySelector("#rules-body").innerHTML = page.html;  // rendered from the package's Markdown, raw HTML escaped
    // wide tables scroll sideways on a phone: the keyboard can reach (and scroll) them
    for (const t of drawer.querySelectorAll("#rules-body table")) t.tabIndex = 0;
    await drawPictures(gameId, drawer.querySelectorAll("#rules-body [data-picture]"));
    const at = section ? drawer.querySelector(`#rules-body [id="${CSS.escape(section)}"]`) : null;
    if (at) { at.classList.add("rules-here"); at.scrollIntoView({ block: "start" }); }
  } catch (e) {
    drawer.querySelector("#rules-body").replaceChildren(h("p", {}, e.message));
  }
}

// the rules' pictures (```picture blocks), drawn by the game's own renderer (its `picture(name)`)
async function drawPictures(gameId, figures) {
  if (!figures.length) return;
  let rend = null;
  try { rend = await import(`/games/${encodeURIComponent(gameId)}/renderer.js`); } catch (e) { rend = null; }
  for (const f of figures) {
    const drawn = rend && rend.picture ? rend.picture(f.dataset.picture) : null;
    if (drawn) f.replaceChildren(drawn); else f.remove();
  }
}

// ---------------------------------------------------------------- tooltips
let bubble = null;
let holder = null;
let pressTimer = null;

function show(el) {
  const text = el.dataset.tip;
  if (!text) return;
  if (!bubble) {
    bubble = h("div", { id: "tip", class: "tip", role: "tooltip", hidden: true });
    document.body.append(bubble);
  }
  holder = el;
  const zoom = zoomOf(el);
  bubble.replaceChildren(...[zoom, h("span", { class: "tip-text" }, text)].filter(Boolean));
  bubble.hidden = false;
  settleZoom(zoom);
  el.setAttribute("aria-describedby", "tip");
  const r = el.getBoundingClientRect();
  const b = bubble.getBoundingClientRect();
  const left = Math.min(Math.max(6, r.left + r.width / 2 - b.width / 2), window.innerWidth - b.width - 6);
  const above = r.top - b.height - 8;
  bubble.style.left = `${left + window.scrollX}px`;
  bubble.style.top = `${(above > 4 ? above : r.bottom + 8) + window.scrollY}px`;
}

function hide() {
  if (holder) holder.removeAttribute("aria-describedby");
  holder = null;
  if (bubble) bubble.hidden = true;
}

export function installTips() {
  const tipOf = (e) => (e.target instanceof Element ? e.target.closest("[data-tip]") : null);
  document.addEventListener("mouseover", (e) => { const t = tipOf(e); if (t && t !== holder) show(t); else if (!t) hide(); });
  document.addEventListener("focusin", (e) => { const t = tipOf(e); if (t) show(t); else hide(); });
  document.addEventListener("focusout", hide);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hide(); });
  document.addEventListener("pointerdown", (e) => {
    const t = tipOf(e);
    clearTimeout(pressTimer);
    if (e.pointerType === "touch" && t) pressTimer = setTimeout(() => show(t), 450);
    else if (!t) hide();
  });
  document.addEventListener("pointerup", () => clearTimeout(pressTimer));
  document.addEventListener("scroll", hide, { passive: true });
}

// a tip-holding element the keyboard can reach (cards, chips, symbols)
export function tip(el, text) {
  el.dataset.tip = text;
  if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0");
  return el;
}
