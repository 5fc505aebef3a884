// Names that must fit their box whole (a card's title, a tile's name): an element with the
// class `fit` gets a smaller font until its longest word fits, so a designer's long card name
// never splits mid-word. Sizes are remembered by text and width: a redraw measures nothing new.
const sizes = new Map();

export function fitText(root) {
  // every width is read before any size is written, so a redraw lays the page out once here,
  // not once per name
  const items = [];
  for (const e of root.querySelectorAll(".fit")) {
    const width = e.clientWidth;
    if (width) items.push([e, `${e.className}|${width}|${e.textContent}`]);
  }
  for (const item of items) {  // a name not seen at this width yet is measured, once
    const [e, key] = item;
    if (sizes.has(key)) { item.push(sizes.get(key)); continue; }
    e.style.fontSize = "";
    let size = parseFloat(getComputedStyle(e).fontSize);
    while (e.scrollWidth > e.clientWidth + 0.5 && size > 7) {
      size -= 0.5;
      e.style.fontSize = `${size}px`;
    }
    if (sizes.size > 2000) sizes.clear();
    sizes.set(key, size);
    item.push(size);
  }
  for (const [e, , size] of items) e.style.fontSize = `${size}px`;
}
