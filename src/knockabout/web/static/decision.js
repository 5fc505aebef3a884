// A decision in a person's words: the prompt (a title, a line of why, and a "?" that opens the
// rules at the section that explains it) and each action's label, from the frame's `guide`
// (the game's Guide plug-in, worked out on the server from the seat's own view). A game
// without a guide falls back on its renderer's actionLabel/hint, then on the raw texts.
import { openRules } from "./help.js";
import { h } from "./page.js";

// { kind, title, why, section, actions: [{action, label, detail, tone}], hints: [{text}] }
export function decisionWords(frame, rend, ctx) {
  const d = frame.decision || {};
  const g = frame.guide;
  if (g && g.kind === d.kind) {
    return { kind: g.kind, title: g.prompt.title, why: g.prompt.why, section: g.prompt.section,
      actions: g.actions, hints: g.hints };
  }
  const view = frame.view;
  const legal = rend.sortActions ? rend.sortActions(frame.legal || [], view) : (frame.legal || []);
  const hint = rend.hint ? rend.hint(view, ctx) : "";
  return { kind: d.kind, title: d.prompt || "Your decision", why: "", section: "",
    actions: legal.map((a) => ({ action: a, label: rend.actionLabel ? rend.actionLabel(a, view, ctx) : a,
      detail: "", tone: rend.quietAction && rend.quietAction(a) ? "quiet" : "" })),
    hints: hint ? [{ text: hint }] : [] };
}

// a label by action text, for the renderer's own board controls (a cell, a punch target)
export function labeller(words) {
  const byAction = new Map((words ? words.actions : []).map((a) => [a.action, a.label]));
  return (text) => byAction.get(text) || text;
}

export function promptBox(words, game, badge) {
  const help = words.section ? h("button", { class: "rules-at", id: "prompt-help", type: "button",
    "aria-label": `rules: ${words.title}`, title: "Open the rules at this decision",
    onclick: (e) => openRules(game, e.currentTarget, words.section) }, "?") : null;
  return h("div", { class: "prompt", id: "prompt", "data-part": "prompt", "data-kind": words.kind },
    h("div", { class: "prompt-title" }, badge ? h("span", { class: "badge turn" }, badge) : null, badge ? " " : null,
      h("b", { id: "prompt-title" }, words.title), " ", help),
    words.why ? h("p", { class: "why", id: "prompt-why" }, words.why) : null);
}

export function actionButton(a, onpick, tipText) {
  const cls = [a.tone === "quiet" ? "" : "primary", a.tone ? `tone-${a.tone}` : ""].filter(Boolean).join(" ");
  // the description is on the tip too: a phone shows only its first line on the button
  const tipped = tipText || (a.detail ? `${a.label}: ${a.detail}` : null);
  return h("button", { "data-action": a.action, class: cls || null, "data-tip": tipped, onclick: onpick },
    a.detail ? [h("span", { class: "label" }, a.label), h("small", { class: "detail" }, a.detail)] : a.label);
}

export function hintLines(words) {
  if (!words.hints.length) return null;
  return h("div", { class: "hint-line", id: "hint" }, words.hints.map((x) => h("p", {}, h("b", {}, "Hint: "), x.text)));
}
