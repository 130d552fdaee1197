// GradientFlow front end: a layers x steps heat map of gradient norms, with flags.
//
// Like LossCurve, it starts from the synced `history` (downsampled) and appends the
// columns that custom messages bring. A norm arrives as a number, null (no gradient
// that step), or the strings "nan" / "inf" (JSON has no NaN), which are painted red.
// Clicking a layer shows a histogram of each of its variables' latest gradient.
// The colour scale (log10 limits fitted to the run) and the step axis come from Python
// (norm_history.py), as the PNG snapshot uses them: brighter always means larger.

const SVG_NS = "http://www.w3.org/2000/svg";
const MAP_W = 560, ROW_H = 22, AXIS_H = 26, BAR_W = 240, MAX_COLUMNS = 20000;
// Viridis at five stops: dark = small gradients, bright yellow = large ones.
const STOPS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
const NO_GRADIENT = "#eeeeee", NOT_FINITE = "#e74c3c"; // as in gradient_flow_png.py

function colour(norm, scale) {
  if (norm === null || norm === undefined) return NO_GRADIENT;
  if (typeof norm === "string") return NOT_FINITE; // "nan" or "inf"
  const log = norm > 0 ? Math.log10(norm) : -Infinity; // beyond the ends: the end colours
  const t = Math.min(1, Math.max(0, (log - scale.lo) / (scale.hi - scale.lo)));
  const f = t * (STOPS.length - 1), i = Math.min(STOPS.length - 2, Math.floor(f)), u = f - i;
  const c = STOPS[i].map((a, k) => Math.round(a + (STOPS[i + 1][k] - a) * u));
  return `rgb(${c.join(",")})`;
}

function svgEl(tag, attrs, parent, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  parent.appendChild(node);
  return node;
}

// An axis under a strip of `width` pixels: tick marks and labels at Python's positions.
function drawAxis(svg, axis, width, y, caption) {
  const sx = (v) => ((v - axis.lo) / (axis.hi - axis.lo)) * width;
  svg.replaceChildren();
  svgEl("line", { x1: 0, x2: width, y1: y, y2: y, class: "ek-axis" }, svg);
  axis.ticks.forEach((t, i) => {
    svgEl("line", { x1: sx(t), x2: sx(t), y1: y, y2: y + 4, class: "ek-axis" }, svg);
    svgEl("text", { x: sx(t), y: y + 14, class: "ek-tick" }, svg, axis.labels[i]);
  });
  if (caption) svgEl("text", { x: width, y: y + 25, class: "ek-axis-caption" }, svg, caption);
}

// When there are more steps than pixels, a pixel shows the worst value of its bucket:
// a NaN anywhere must stay visible, otherwise the largest norm.
function worst(values) {
  let out = null;
  for (const v of values) {
    if (typeof v === "string") return v;
    if (v !== null && v !== undefined && (out === null || v > out)) out = v;
  }
  return out;
}

const f64 = (view) => new Float64Array(view.buffer, view.byteOffset, view.byteLength / 8);

// Binary norms use -1 for "no gradient"; the history (JSON) uses null, "nan" and "inf".
function decode(v) {
  if (v < 0) return null;
  if (Number.isNaN(v)) return "nan";
  return Number.isFinite(v) ? v : "inf";
}

function el(tag, className, parent, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function drawMap(canvas, state) {
  const rows = state.layers.length, cols = state.norms.length;
  canvas.width = MAP_W;
  canvas.height = Math.max(1, rows) * ROW_H;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fafafa";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  if (!cols || !state.stepAxis) return;
  // Each step's column spans half way to its neighbours, on the step axis from Python.
  const axis = state.stepAxis;
  const px = (step) => ((step - axis.lo) / (axis.hi - axis.lo)) * MAP_W;
  const edge = (i) => (i <= 0 ? axis.lo : i >= cols ? axis.hi : (state.steps[i - 1] + state.steps[i]) / 2);
  // When there are more steps than pixels, a pixel shows the worst value of its steps.
  let from = 0;
  while (from < cols) {
    const x0 = Math.floor(px(edge(from)));
    let to = from + 1;
    while (to < cols && Math.floor(px(edge(to + 1))) <= x0 + 1) to++;
    const x1 = Math.max(x0 + 1, Math.round(px(edge(to))));
    for (let r = 0; r < rows; r++) {
      ctx.fillStyle = colour(worst(state.norms.slice(from, to).map((col) => col[r])), state.scale);
      ctx.fillRect(x0, r * ROW_H + 1, x1 - x0, ROW_H - 2);
    }
    from = to;
  }
}

// The colour bar: the scale's gradient, its ticks, and what the colours mean, in words.
function drawColourBar(holder, scale) {
  holder.replaceChildren();
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("width", BAR_W + 40);
  svg.setAttribute("height", 34);
  svg.classList.add("ek-colour-bar");
  holder.appendChild(svg);
  const defs = svgEl("defs", {}, svg);
  const id = `ek-viridis-${Math.random().toString(36).slice(2)}`;
  const gradient = svgEl("linearGradient", { id }, defs);
  STOPS.forEach((c, i) => svgEl("stop", { offset: i / (STOPS.length - 1), "stop-color": `rgb(${c.join(",")})` }, gradient));
  const bar = svgEl("g", { transform: "translate(20, 0)" }, svg);
  svgEl("rect", { x: 0, y: 2, width: BAR_W, height: 10, fill: `url(#${id})` }, bar);
  drawAxis(svgEl("g", {}, bar), scale, BAR_W, 12);
  const words = document.createElement("span");
  words.className = "ek-scale-words";
  words.innerHTML = `|g|: gradient norm, log scale fitted to this run, <b>brighter = larger</b>` +
    `<span class="ek-swatch" style="background:${NOT_FINITE}"></span>NaN/inf` +
    `<span class="ek-swatch" style="background:${NO_GRADIENT}"></span>no gradient`;
  holder.appendChild(words);
}

function histogram(parent, v) {
  const box = el("div", "ek-hist", parent);
  el("div", "ek-hist-title", box, `${v.name}  |grad| = ${typeof v.norm === "number" ? v.norm.toPrecision(3) : v.norm}`);
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("width", 240);
  svg.setAttribute("height", 64);
  const top = Math.max(1, ...v.counts);
  const barW = 240 / Math.max(1, v.counts.length);
  v.counts.forEach((c, i) => {
    const bar = document.createElementNS(SVG_NS, "rect");
    const h = (c / top) * 48;
    Object.entries({ x: i * barW + 1, y: 50 - h, width: barW - 2, height: h, class: "ek-bar" }).forEach(([k, val]) => bar.setAttribute(k, val));
    svg.appendChild(bar);
  });
  [[2, "start", v.lo], [238, "end", v.hi]].forEach(([x, anchor, value]) => {
    const t = document.createElementNS(SVG_NS, "text");
    Object.entries({ x, y: 62, "text-anchor": anchor, class: "ek-hist-axis" }).forEach(([k, val]) => t.setAttribute(k, val));
    t.textContent = value.toPrecision(3);
    svg.appendChild(t);
  });
  box.appendChild(svg);
}

function render({ model, el: host }) {
  const root = el("div", "eagerkit-flow", host);
  root.dataset.messages = 0;
  const title = el("div", "ek-title", root, "");
  const body = el("div", "ek-body", root);
  const names = el("div", "ek-layers", body);
  const plot = el("div", "ek-plot", body);
  const canvas = el("canvas", "ek-map", plot);
  const stepSvg = document.createElementNS(SVG_NS, "svg");
  stepSvg.setAttribute("width", MAP_W);
  stepSvg.setAttribute("height", AXIS_H + 4);
  stepSvg.classList.add("ek-step-axis");
  plot.appendChild(stepSvg);
  const scaleBox = el("div", "ek-scale", root);
  const details = el("div", "ek-details", root);
  let state = { layers: [], steps: [], norms: [], flags: {}, variables: [], every: 1, scale: null, stepAxis: null };
  let selected = null, pending = false;

  const draw = () => {
    pending = false;
    // A fast loop has only every k-th step measured (GradientFlow's `every`): say so.
    const measured = state.every > 1 ? `one step in ${state.every}` : "every step";
    title.textContent = `gradient norm per layer and training step (${measured}; click a layer for histograms)`;
    root.dataset.every = state.every;
    names.replaceChildren();
    state.layers.forEach((layer) => {
      const flag = state.flags[layer] || "ok";
      const row = el("div", `ek-layer ek-flag-${flag}${layer === selected ? " ek-selected" : ""}`, names);
      row.style.height = `${ROW_H}px`;
      el("span", "ek-layer-name", row, layer);
      if (flag !== "ok") el("span", "ek-badge", row, flag);
      row.onclick = () => { selected = layer === selected ? null : layer; schedule(); };
    });
    drawMap(canvas, state);
    if (state.stepAxis && state.steps.length) drawAxis(stepSvg, state.stepAxis, MAP_W, 1, "training step");
    if (state.scale) drawColourBar(scaleBox, state.scale);
    details.replaceChildren();
    if (selected) state.variables.filter((v) => v.layer === selected).forEach((v) => histogram(details, v));
    root.dataset.steps = state.steps.length;
  };
  const schedule = () => { if (!pending) { pending = true; requestAnimationFrame(draw); } };
  const fromHistory = () => {
    const h = model.get("history") || {};
    state = { layers: h.layers || [], steps: [...(h.steps || [])], norms: [...(h.norms || [])], flags: h.flags || {}, variables: h.variables || [], every: h.every || 1, scale: h.scale || null, stepAxis: h.step_axis || null };
    schedule();
  };
  const onMessage = (msg, buffers) => {
    if (!msg || msg.type !== "points") return;
    state.layers = msg.layers;
    state.flags = msg.flags;
    state.variables = msg.variables;
    state.every = msg.every;
    state.scale = msg.scale;
    state.stepAxis = msg.step_axis;
    // buffers[0]: the new steps; buffers[1]: their norms, steps x layers, row by row.
    const steps = f64(buffers[0]), norms = f64(buffers[1]), width = msg.layers.length;
    for (let i = 0; i < steps.length; i++) {
      state.steps.push(steps[i]);
      state.norms.push(Array.from(norms.subarray(i * width, (i + 1) * width), decode));
    }
    root.dataset.messages = Number(root.dataset.messages) + 1; // live messages this view got (tests read it)
    if (state.norms.length > MAX_COLUMNS) { // keep the browser's memory bounded
      state.steps = state.steps.filter((_, i) => i % 2 === 0);
      state.norms = state.norms.filter((_, i) => i % 2 === 0);
    }
    schedule();
  };
  model.on("change:history", fromHistory);
  model.on("msg:custom", onMessage);
  fromHistory();
  return () => { model.off("change:history", fromHistory); model.off("msg:custom", onMessage); };
}

export default { render };
