// TapeView's camera: which part of the drawing the svg shows, and how big. It opens with
// the text readable (never below 9 px: the drawing's 10 px font at 90%), zooms about the
// pointer (ctrl + wheel) or the centre ("+", "−"), pans by dragging, follows the current
// step, and keeps a small overview (the minimap) of the whole drawing when it does not
// fit. Python joins this file and view.js into one module.

const READABLE = 0.9; // the least zoom the view opens at: 10 px text drawn at 9 px

// The height the graph may take: what is left of the notebook's visible area (its
// outermost scrolling box; the window, in a saved page) once the view's own toolbar, info
// and legend are counted.
function graphRoom(scroller) {
  let area = window.innerHeight;
  for (let node = scroller.parentElement; node; node = node.parentElement) {
    const overflow = getComputedStyle(node).overflowY;
    if ((overflow === "auto" || overflow === "scroll") && node.clientHeight > 0) area = Math.min(window.innerHeight, node.clientHeight);
  }
  const root = scroller.closest(".eagerkit-tape");
  const chrome = root ? root.offsetHeight - scroller.offsetHeight : 0;
  return Math.max(200, area - chrome - 24);
}

function fitter(scroller, svgRoot, drawing, minimap) {
  const state = { x: 0, y: 0, k: 1 };
  const room = { h: graphRoom(scroller) };
  const width = () => scroller.clientWidth || drawing.width;
  const height = () => Math.min(drawing.height * state.k, room.h);
  const apply = () => {
    const w = width(), h = height();
    state.x = Math.max(Math.min(state.x, drawing.width - w / state.k), Math.min(0, (drawing.width - w / state.k) / 2));
    state.y = Math.max(0, Math.min(state.y, drawing.height - h / state.k));
    svgRoot.setAttribute("width", w);
    svgRoot.setAttribute("height", h);
    svgRoot.setAttribute("viewBox", `${state.x} ${state.y} ${w / state.k} ${h / state.k}`);
    svgRoot.dataset.zoom = state.k.toFixed(3);
    minimap.show(state, w / state.k, h / state.k);
  };
  // Open: the whole drawing when it fits with readable text, else readable text and the
  // minimap for the rest. "fit" (whole = true) shows everything, however small.
  const fit = (whole) => {
    room.h = graphRoom(scroller);
    const all = Math.min(1, width() / drawing.width, room.h / drawing.height);
    state.k = whole ? all : Math.max(all, READABLE);
    state.x = Math.min(0, (drawing.width - width() / state.k) / 2);
    state.y = 0;
    apply();
  };
  // Zoom keeping the drawing's point under (cx, cy) (svg pixels) where it is.
  const zoom = (factor, cx, cy) => {
    const ax = cx === undefined ? width() / 2 : cx, ay = cy === undefined ? height() / 2 : cy;
    const px = state.x + ax / state.k, py = state.y + ay / state.k;
    state.k = Math.max(0.05, Math.min(4, state.k * factor));
    state.x = px - ax / state.k;
    state.y = py - ay / state.k;
    apply();
  };
  const show = (box) => { // pan so the box is in view, without scrolling the notebook
    const w = width() / state.k, h = height() / state.k;
    if (box.x < state.x || box.x + box.w > state.x + w) state.x = box.x + box.w / 2 - w / 2;
    if (box.y < state.y || box.y + box.h > state.y + h) state.y = box.y + box.h / 2 - h / 2;
    apply();
  };
  const panTo = (x, y) => { state.x = x - width() / state.k / 2; state.y = y - height() / state.k / 2; apply(); };
  let drag = null;
  svgRoot.addEventListener("pointerdown", (ev) => { drag = { x: ev.clientX, y: ev.clientY, sx: state.x, sy: state.y }; });
  window.addEventListener("pointerup", () => { drag = null; });
  svgRoot.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    state.x = drag.sx - (ev.clientX - drag.x) / state.k;
    state.y = drag.sy - (ev.clientY - drag.y) / state.k;
    apply();
  });
  svgRoot.addEventListener("wheel", (ev) => {
    if (!ev.ctrlKey) return;
    ev.preventDefault();
    const r = svgRoot.getBoundingClientRect();
    zoom(ev.deltaY < 0 ? 1.2 : 1 / 1.2, ev.clientX - r.left, ev.clientY - r.top);
  });
  minimap.onPick(panTo);
  return { fit, zoom, show, state };
}

// The minimap: every box as a small rectangle and the part in view as a frame; click or
// drag on it to move there. Hidden while the whole drawing is in view.
function overview(holder, drawing) {
  const scale = Math.min(180 / drawing.width, 90 / drawing.height, 1);
  const map = svg("svg", { class: "ek-minimap", width: drawing.width * scale, height: drawing.height * scale }, holder);
  const g = svg("g", { transform: `scale(${scale})` }, map);
  drawing.boxes.forEach((b) => svg("rect", { x: b.x, y: b.y, width: b.w, height: b.h, class: `ek-mini-box ek-kind-${b.kind}` }, g));
  const frame = svg("rect", { class: "ek-mini-frame" }, g);
  let pick = () => {};
  const at = (ev) => { const r = map.getBoundingClientRect(); pick((ev.clientX - r.left) / scale, (ev.clientY - r.top) / scale); };
  let dragging = false;
  map.addEventListener("pointerdown", (ev) => { dragging = true; at(ev); });
  map.addEventListener("pointermove", (ev) => { if (dragging) at(ev); });
  window.addEventListener("pointerup", () => { dragging = false; });
  return {
    onPick: (f) => { pick = f; },
    show: (state, w, h) => {
      const whole = state.x <= 0.5 && state.y <= 0.5 && state.x + w >= drawing.width - 0.5 && state.y + h >= drawing.height - 0.5;
      map.style.display = whole ? "none" : "";
      map.dataset.shown = whole ? "false" : "true";
      Object.entries({ x: state.x, y: state.y, width: w, height: h }).forEach(([k, v]) => frame.setAttribute(k, v));
    },
  };
}
