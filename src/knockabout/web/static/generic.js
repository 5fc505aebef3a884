// The fallback renderer: any game's view as a list of fields, actions as their text.
// A game gets a real renderer by declaring `web_renderer` (a file in its own package, e.g.
// "web/renderer.js") with the same exports; the server serves it at /games/<game id>/renderer.js.

export function renderBoard(el, view, ctx) {
  el.replaceChildren();
  const dl = document.createElement("dl");
  for (const [k, v] of Object.entries(view)) {
    if (k === "legal" || v === null || v === undefined) continue;
    const dt = document.createElement("dt"); dt.textContent = k;
    const dd = document.createElement("dd"); dd.textContent = typeof v === "object" ? JSON.stringify(v) : String(v);
    dl.append(dt, dd);
  }
  el.append(dl);
  if (ctx.reveal) {
    const pre = document.createElement("pre");
    pre.textContent = ctx.reveal.map((v, i) => `${ctx.names[i]}: ${JSON.stringify(v.hand ?? v)}`).join("\n");
    el.append(pre);
  }
}

export function actionLabel(text) {
  return text;
}
