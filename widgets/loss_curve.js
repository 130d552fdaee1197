// LossCurve front end: one SVG panel per metric, one colour per run.
//
// Data arrives two ways: the synced `history` trait (a downsampled copy of everything,
// so a view opened late can draw it all) and custom messages holding only the points
// logged since the last flush. Redraws are coalesced with requestAnimationFrame.

const SVG_NS = "http://www.w3.org/2000/svg";
const COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"];
const MAX_POINTS = 20000; // per series; beyond this we keep every other point
const W = 380, H = 220, PAD = { left: 52, right: 12, top: 22, bottom: 30 };

function svg(tag, attrs, parent) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// `val_loss` is drawn in the `loss` panel, dashed.
const panelOf = (metric) => (metric.startsWith("val_") ? metric.slice(4) : metric);

// The numbers of a message come as binary float64 buffers (no JSON parsing for them).
const f64 = (view) => new Float64Array(view.buffer, view.byteOffset, view.byteLength / 8);

// msg.series[k] = [run, metric]; buffers[2k] holds its steps, buffers[2k + 1] its values.
function appendPoints(runs, msg, buffers) {
  msg.series.forEach(([run, metric], k) => {
    runs[run] = runs[run] || {};
    const series = (runs[run][metric] = runs[run][metric] || { x: [], y: [] });
    const xs = f64(buffers[2 * k]), ys = f64(buffers[2 * k + 1]);
    for (let i = 0; i < xs.length; i++) {
      series.x.push(xs[i]);
      series.y.push(isFinite(ys[i]) ? ys[i] : null); // NaN: a gap, as in the history
    }
    if (series.x.length > MAX_POINTS) {
      series.x = series.x.filter((_, i) => i % 2 === 0);
      series.y = series.y.filter((_, i) => i % 2 === 0);
    }
  });
}

// Exponential moving average, debiased like TensorBoard's, so early points are not dragged to 0.
function smooth(ys, weight) {
  if (weight <= 0) return ys;
  let last = 0, count = 0;
  return ys.map((y) => {
    if (y === null) return null;
    last = last * weight + (1 - weight) * y;
    count += 1;
    return last / (1 - Math.pow(weight, count));
  });
}

function ticks(lo, hi, n) {
  const out = [];
  for (let i = 0; i <= n; i++) out.push(lo + ((hi - lo) * i) / n);
  return out;
}

const fmt = (v) => (Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(1) : Number(v.toPrecision(3)).toString());

function drawPanel(holder, name, lines, runNames, options) {
  const root = svg("svg", { width: W, height: H, class: "ek-panel", "data-panel": name }, holder);
  svg("text", { x: W / 2, y: 15, class: "ek-panel-title" }, root).textContent = name;
  // Transform y for log scale; non-positive values cannot be drawn on a log axis.
  const ty = (y) => (options.log ? (y > 0 ? Math.log10(y) : null) : y);
  const drawn = lines.map((l) => ({ ...l, ys: smooth(l.series.y, options.smoothing).map((y) => (y === null ? null : ty(y))) }));
  const xs = drawn.flatMap((l) => l.series.x);
  const ys = drawn.flatMap((l) => l.ys).filter((y) => y !== null && isFinite(y));
  if (!xs.length || !ys.length) return;
  let [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  if (x0 === x1) x1 = x0 + 1;
  if (y0 === y1) { y0 -= 0.5; y1 += 0.5; }
  const sx = (x) => PAD.left + ((x - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
  const sy = (y) => H - PAD.bottom - ((y - y0) / (y1 - y0)) * (H - PAD.top - PAD.bottom);
  for (const t of ticks(y0, y1, 4)) {
    svg("line", { x1: PAD.left, x2: W - PAD.right, y1: sy(t), y2: sy(t), class: "ek-grid" }, root);
    svg("text", { x: PAD.left - 4, y: sy(t) + 3, class: "ek-tick ek-tick-y" }, root).textContent = fmt(options.log ? Math.pow(10, t) : t);
  }
  for (const t of ticks(x0, x1, 4)) {
    svg("text", { x: sx(t), y: H - PAD.bottom + 14, class: "ek-tick ek-tick-x" }, root).textContent = fmt(Math.round(t));
  }
  svg("text", { x: W - PAD.right, y: H - 3, class: "ek-axis-label" }, root).textContent = "step";
  for (const line of drawn) {
    // A null (NaN or log of <= 0) breaks the line instead of drawing a fake value.
    let d = "", pen = "M";
    line.series.x.forEach((x, i) => {
      const y = line.ys[i];
      if (y === null || !isFinite(y)) { pen = "M"; return; }
      d += `${pen}${sx(x).toFixed(1)},${sy(y).toFixed(1)} `;
      pen = "L";
    });
    const colour = COLOURS[runNames.indexOf(line.run) % COLOURS.length];
    svg("path", { d, stroke: colour, class: line.metric.startsWith("val_") ? "ek-line ek-val" : "ek-line" }, root);
  }
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "eagerkit-loss";
  root.dataset.messages = 0;
  el.appendChild(root);
  const title = document.createElement("div");
  title.className = "ek-title";
  const controls = document.createElement("div");
  controls.className = "ek-controls";
  controls.innerHTML = `<label>smoothing <input class="ek-smoothing" type="range" min="0" max="0.95" step="0.05" value="0"></label>
    <label><input class="ek-log" type="checkbox"> log scale</label>`;
  const panels = document.createElement("div");
  panels.className = "ek-panels";
  const legend = document.createElement("div");
  legend.className = "ek-legend";
  root.append(title, controls, panels, legend);
  const smoothing = controls.querySelector(".ek-smoothing");
  const logScale = controls.querySelector(".ek-log");

  let runs = {};
  let pending = false;
  const draw = () => {
    pending = false;
    title.textContent = model.get("title");
    panels.replaceChildren();
    legend.replaceChildren();
    const runNames = Object.keys(runs).sort();
    const byPanel = {};
    let points = 0;
    for (const run of runNames) {
      for (const [metric, series] of Object.entries(runs[run])) {
        (byPanel[panelOf(metric)] = byPanel[panelOf(metric)] || []).push({ run, metric, series });
        points += series.x.length;
      }
    }
    const options = { smoothing: Number(smoothing.value), log: logScale.checked };
    Object.keys(byPanel).sort().forEach((name) => drawPanel(panels, name, byPanel[name], runNames, options));
    runNames.forEach((run, i) => {
      const item = document.createElement("span");
      item.className = "ek-legend-item";
      item.innerHTML = `<span class="ek-swatch" style="background:${COLOURS[i % COLOURS.length]}"></span>`;
      item.append(run);
      legend.appendChild(item);
    });
    if (Object.values(runs).some((m) => Object.keys(m).some((k) => k.startsWith("val_")))) {
      legend.append("solid: training, dashed: validation (val_)");
    }
    if (!runNames.length) panels.textContent = "waiting for the first points…";
    root.dataset.points = points;
  };
  const schedule = () => {
    if (!pending) { pending = true; requestAnimationFrame(draw); }
  };
  const fromHistory = () => {
    // The history is the whole truth up to its moment; later messages append to it.
    runs = JSON.parse(JSON.stringify((model.get("history") || {}).runs || {}));
    schedule();
  };
  const onMessage = (msg, buffers) => {
    if (msg && msg.type === "points") {
      appendPoints(runs, msg, buffers);
      root.dataset.messages = Number(root.dataset.messages) + 1; // live messages this view got (tests read it)
      schedule();
    }
  };
  smoothing.oninput = schedule;
  logScale.onchange = schedule;
  model.on("change:history", fromHistory);
  model.on("msg:custom", onMessage);
  fromHistory();
  return () => { model.off("change:history", fromHistory); model.off("msg:custom", onMessage); };
}

export default { render };
