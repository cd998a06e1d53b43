// Dragging a card onto a pile or a stockpile space, by mouse, pen or touch (pointer events):
// a card of the player's that can go somewhere carries data-drag (its source); a place it
// can be dropped on carries data-drop ("pile:<k>", "stock:<j>"). A copy of the card follows
// the pointer; the original stays in its place until the server has taken the move.

const START_PX = 6;  // a press that moves less than this is a click, not a drag

/** Listens on `root` (the page's <main>); `onDrop(src, where)` is called with the dragged
 * card's source and the data-drop of the place under the pointer (null: none). A click
 * that ends a drag is swallowed, so that the card is not also played by its click. */
export function installDrag(root, onDrop) {
  let d = null;  // {el, src, id, x0, y0, ghost, dx, dy}
  let swallow = false;

  root.addEventListener("pointerdown", (e) => {
    const el = e.target.closest("[data-drag]");
    if (!el || e.button !== 0) return;
    d = { el, src: el.dataset.drag, id: e.pointerId, x0: e.clientX, y0: e.clientY, ghost: null };
  });
  root.addEventListener("pointermove", (e) => {
    if (!d || e.pointerId !== d.id) return;
    if (!d.ghost) {
      if (Math.hypot(e.clientX - d.x0, e.clientY - d.y0) < START_PX) return;
      const box = d.el.getBoundingClientRect();
      d.dx = d.x0 - box.left;
      d.dy = d.y0 - box.top;
      d.ghost = d.el.cloneNode(true);
      d.ghost.removeAttribute("data-testid");
      d.ghost.removeAttribute("id");
      d.ghost.setAttribute("aria-hidden", "true");
      d.ghost.classList.add("ghost");
      document.body.append(d.ghost);
      d.el.classList.add("dragged");
      if (d.el.setPointerCapture) d.el.setPointerCapture(e.pointerId);
    }
    d.ghost.style.transform = `translate(${e.clientX - d.dx}px, ${e.clientY - d.dy}px)`;
    mark(over(e));
  });
  const end = (e, drop) => {
    if (!d || e.pointerId !== d.id) return;
    const was = d;
    d = null;
    if (!was.ghost) return;  // a click: the card's own command does it
    was.ghost.remove();
    was.el.classList.remove("dragged");
    mark(null);
    swallow = true;
    setTimeout(() => { swallow = false; }, 0);
    if (drop) {
      const place = over(e);
      onDrop(was.src, place ? place.dataset.drop : null);
    }
  };
  root.addEventListener("pointerup", (e) => end(e, true));
  root.addEventListener("pointercancel", (e) => end(e, false));
  document.addEventListener("click", (e) => {
    if (!swallow) return;
    swallow = false;
    e.stopPropagation();
    e.preventDefault();
  }, true);
}

function over(e) {
  for (const el of document.elementsFromPoint(e.clientX, e.clientY)) {
    const place = el.closest("[data-drop]");
    if (place && !place.classList.contains("ghost")) return place;
  }
  return null;
}

let marked = null;
function mark(place) {
  if (marked === place) return;
  if (marked) marked.classList.remove("drop-over");
  marked = place;
  if (place) place.classList.add("drop-over");
}
