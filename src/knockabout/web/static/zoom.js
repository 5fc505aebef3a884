// A card, zoomed: the tip of a card or a tile (hover, keyboard focus or a long press) shows a
// larger copy of it above its full text, so a small card in a hand or on the grid can be read
// whole. The copy is the page's own element, cloned: it shows nothing the page does not. A copy
// may grow taller than its card: a renderer shows more of a card there (its whole rules text,
// under `.zoom` in its style sheet), and the copy keeps the card's own size as --zoom-w/--zoom-h.
import { h } from "./page.js";

const WIDE = 250;  // the zoomed card's width, in px (at most twice the card's own)

export function zoomOf(el) {
  if (!el.matches("[data-card], [data-tile]")) return null;
  const r = el.getBoundingClientRect();
  if (!r.width || !r.height) return null;
  const scale = Math.min(2.2, WIDE / r.width);
  if (scale < 1.3) return null;  // already large enough
  const copy = el.cloneNode(true);
  for (const e of [copy, ...copy.querySelectorAll("*")]) {
    for (const a of ["id", "tabindex", "data-tip", "data-pick", "data-mark", "aria-describedby", "role", "aria-label"]) e.removeAttribute(a);
    e.classList?.remove("pickable", "picked", "last-move", "arrive", "target", "active");
  }
  copy.style.cssText += `;position:absolute;left:0;top:0;right:auto;bottom:auto;margin:0;width:${r.width}px;`
    + `height:auto;min-height:${r.height}px;--zoom-w:${r.width}px;--zoom-h:${r.height}px;`
    + `transform:scale(${scale});transform-origin:0 0;animation:none;transition:none;box-shadow:none;`;
  const box = h("div", { class: "zoom", "aria-hidden": "true" });
  box.dataset.scale = String(scale);
  box.style.width = `${Math.round(r.width * scale)}px`;
  box.style.height = `${Math.round(r.height * scale)}px`;
  box.append(copy);
  return box;
}

// once the zoom is in the page: its box as tall as the copy grew (a scaled copy takes no room)
export function settleZoom(box) {
  const copy = box && box.firstElementChild;
  if (!copy) return;
  box.style.height = `${Math.round(copy.offsetHeight * Number(box.dataset.scale))}px`;
}
