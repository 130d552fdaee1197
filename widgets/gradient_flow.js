// GradientFlow front end: a layers x steps heat map of gradient norms, with flags.
//
// Like LossCurve, it starts from the synced `history` (downsampled) and appends the
// columns that custom messages bring. A norm arrives as a number, null (no gradient
// that step), or the strings "nan" / "inf" (JSON has no NaN), which are painted red.
// Clicking a layer shows a histogram of each of its variables' latest gradient.

const SVG_NS = "http://www.w3.org/2000/svg";
const MAP_W = 560, ROW_H = 22, LOG_MIN = -8, LOG_MAX = 4, MAX_COLUMNS = 20000;
// Viridis at five stops: dark = tiny gradients, yellow = large ones.
const STOPS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];

function colour(norm) {
  if (norm === null || norm === undefined) return "#eeeeee";
  if (typeof norm === "string") return "#e74c3c"; // "nan" or "inf"
  const t = Math.min(1, Math.max(0, ((norm > 0 ? Math.log10(norm) : LOG_MIN) - LOG_MIN) / (LOG_MAX - LOG_MIN)));
  const f = t * (STOPS.length - 1), i = Math.min(STOPS.length - 2, Math.floor(f)), u = f - i;
  const c = STOPS[i].map((a, k) => Math.round(a + (STOPS[i + 1][k] - a) * u));
  return `rgb(${c.join(",")})`;
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
  if (!cols) return;
  const pixels = Math.min(MAP_W, cols);
  const width = MAP_W / pixels;
  for (let p = 0; p < pixels; p++) {
    const from = Math.floor((p * cols) / pixels), to = Math.max(from + 1, Math.floor(((p + 1) * cols) / pixels));
    for (let r = 0; r < rows; r++) {
      ctx.fillStyle = colour(worst(state.norms.slice(from, to).map((col) => col[r])));
      ctx.fillRect(p * width, r * ROW_H + 1, Math.ceil(width), ROW_H - 2);
    }
  }
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
  const canvas = el("canvas", "ek-map", body);
  const scale = el("div", "ek-scale", root);
  el("span", "", scale, `10^${LOG_MIN}`);
  el("span", "ek-scale-bar", scale);
  el("span", "", scale, `10^${LOG_MAX}   red: NaN/inf   grey: no gradient`);
  const details = el("div", "ek-details", root);
  let state = { layers: [], steps: [], norms: [], flags: {}, variables: [], every: 1 };
  let selected = null, pending = false;

  const draw = () => {
    pending = false;
    // A fast loop has only every k-th step measured (GradientFlow's `every`): say so.
    const measured = state.every > 1 ? `one step in ${state.every}` : "every step";
    title.textContent = `gradient norm per layer (columns: logged steps, ${measured}; click a layer for histograms)`;
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
    details.replaceChildren();
    if (selected) state.variables.filter((v) => v.layer === selected).forEach((v) => histogram(details, v));
    root.dataset.steps = state.steps.length;
  };
  const schedule = () => { if (!pending) { pending = true; requestAnimationFrame(draw); } };
  const fromHistory = () => {
    const h = model.get("history") || {};
    state = { layers: h.layers || [], steps: [...(h.steps || [])], norms: [...(h.norms || [])], flags: h.flags || {}, variables: h.variables || [], every: h.every || 1 };
    schedule();
  };
  const onMessage = (msg, buffers) => {
    if (!msg || msg.type !== "points") return;
    state.layers = msg.layers;
    state.flags = msg.flags;
    state.variables = msg.variables;
    state.every = msg.every;
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
