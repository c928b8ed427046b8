/* The one element maker of the table's modules: text goes in as
   textContent only (names are player input, never HTML). watch.js, a
   classic script that must also run from file://, keeps its own. */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}
