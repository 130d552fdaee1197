// TapeView's camera: the graph fits the cell's width, zooms and pans, and follows the
// current step, all by moving the svg's viewBox over the drawing (whose size is in
// pixels, from Python). Python joins this file and view.js into one module.

// The tallest the graph area gets (most of the window); pan or zoom for the rest.
const maxHeight = () => Math.max(360, Math.round(window.innerHeight * 0.75));

function fitter(scroller, svgRoot, drawing) {
  const state = { x: 0, y: 0, k: 1 };
  const width = () => scroller.clientWidth || drawing.width;
  const apply = () => {
    const h = Math.min(drawing.height * state.k, maxHeight());
    svgRoot.setAttribute("width", width());
    svgRoot.setAttribute("height", h);
    svgRoot.setAttribute("viewBox", `${state.x} ${state.y} ${width() / state.k} ${h / state.k}`);
    svgRoot.dataset.zoom = state.k.toFixed(3);
  };
  // Fit the cell's width; show the whole graph too when that keeps text readable
  // (or always, when asked). A narrow graph is centred.
  const fit = (whole) => {
    const wide = Math.min(1, width() / drawing.width);
    const all = Math.min(wide, maxHeight() / drawing.height);
    state.k = whole || all >= 0.7 ? all : wide;
    state.x = Math.min(0, (drawing.width - width() / state.k) / 2);
    state.y = 0;
    apply();
  };
  const zoom = (factor) => { state.k = Math.max(0.05, Math.min(4, state.k * factor)); apply(); };
  const show = (box) => { // pan so the box is in view, without scrolling the notebook
    const w = width() / state.k, h = Math.min(drawing.height * state.k, maxHeight()) / state.k;
    if (box.x < state.x || box.x + box.w > state.x + w) state.x = Math.min(Math.max(0, box.x + box.w / 2 - w / 2), Math.max(0, drawing.width - w));
    if (box.y < state.y || box.y + box.h > state.y + h) state.y = Math.min(Math.max(0, box.y + box.h / 2 - h / 2), Math.max(0, drawing.height - h));
    apply();
  };
  let drag = null;
  svgRoot.addEventListener("pointerdown", (ev) => { drag = { x: ev.clientX, y: ev.clientY, sx: state.x, sy: state.y }; });
  window.addEventListener("pointerup", () => { drag = null; });
  svgRoot.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    state.x = drag.sx - (ev.clientX - drag.x) / state.k;
    state.y = drag.sy - (ev.clientY - drag.y) / state.k;
    apply();
  });
  svgRoot.addEventListener("wheel", (ev) => { if (ev.ctrlKey) { ev.preventDefault(); zoom(ev.deltaY < 0 ? 1.2 : 1 / 1.2); } });
  return { fit, zoom, show };
}

