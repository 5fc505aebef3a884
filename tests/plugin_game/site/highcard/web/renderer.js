// High Card in the browser. Renderer interface: renderBoard(el, view, ctx), actionLabel(text, view, ctx).

export function renderBoard(root, view, ctx) {
  root.replaceChildren();
  const line = document.createElement("p");
  line.className = "hc-score";
  line.textContent = `Round ${view.round}/${view.rounds} · ${ctx.names[0]} ${view.wins[0]} – ${view.wins[1]} ${ctx.names[1]}`;
  const led = document.createElement("p");
  led.textContent = view.led === null ? `${ctx.names[view.leader]} leads` : `On the table: ${view.led}`;
  root.append(line, led);
  if (view.hand) {
    const hand = document.createElement("p");
    hand.id = "hand";
    hand.textContent = `Your cards: ${view.hand.join(" ")} (they hold ${view.hand_sizes[1 - view.seat]})`;
    root.append(hand);
  }
  const d = view.decision || {};
  if (d.kind) root.append(Object.assign(document.createElement("p"), { textContent: `${ctx.names[d.player]} to ${d.kind}` }));
}

export function actionLabel(text, view, ctx) {
  return `Play the ${text.split(":")[1]}`;
}
