// Names that must fit their box whole (a card's title, a tile's name): an element with the
// class `fit` gets a smaller font until its longest word fits, so a designer's long card name
// never splits mid-word. Sizes are remembered by text and width: a redraw measures nothing new.
const sizes = new Map();

export function fitText(root) {
  for (const e of root.querySelectorAll(".fit")) {
    const width = e.clientWidth;
    if (!width) continue;
    const key = `${e.className}|${width}|${e.textContent}`;
    let size = sizes.get(key);
    if (size === undefined) {
      e.style.fontSize = "";
      size = parseFloat(getComputedStyle(e).fontSize);
      while (e.scrollWidth > e.clientWidth + 0.5 && size > 7) {
        size -= 0.5;
        e.style.fontSize = `${size}px`;
      }
      if (sizes.size > 2000) sizes.clear();
      sizes.set(key, size);
    }
    e.style.fontSize = `${size}px`;
  }
}
