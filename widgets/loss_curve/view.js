// LossCurve front end: one SVG panel per metric, one colour per run.
//
// Data arrives two ways: the synced `history` trait (a downsampled copy of everything,
// so a view opened late can draw it all) and custom messages holding only the points
// logged since the last flush. Both carry each panel's axes (limits, ticks, labels) and
// each run's colour, computed in Python so that the PNG snapshot shows the same ones.
// The y scale is the synced `y_scale` trait: the "log scale" box sets it, so the kernel's
// PNG and a saved notebook follow. Redraws are coalesced with requestAnimationFrame.

const SVG_NS = "http://www.w3.org/2000/svg";
const NO_COLOUR = "#555555"; // a run the history gives no colour (a notebook saved before colours)
const MAX_POINTS = 20000; // per series; beyond this we keep every other point
const DOTS_UP_TO = 30; // a series this short has a dot on every point (as in the PNG)
const W = 380, H = 220, PAD = { left: 52, right: 12, top: 22, bottom: 30 };

function svg(tag, attrs, parent) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// `val_loss` is drawn in the `loss` panel: dashed, darker, wider and on top (as in the PNG).
const panelOf = (metric) => (metric.startsWith("val_") ? metric.slice(4) : metric);
const isValidation = (line) => line.metric.startsWith("val_");

// A run's colour for its val_ lines: three fifths as bright (snapshot.py's validation_colour).
const validationColour = (hex) =>
  "#" + [1, 3, 5].map((i) => Math.floor((parseInt(hex.slice(i, i + 2), 16) * 3) / 5).toString(16).padStart(2, "0")).join("");

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

// A point's value for the hover read-out: 4 significant digits, no trailing zeros.
const readout = (v) => (v === null || !isFinite(v) ? "–" : Number(v.toPrecision(4)).toString());

// The index of the point whose x is nearest `x` (xs ascending: steps only grow).
function nearest(xs, x) {
  let lo = 0, hi = xs.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid; else hi = mid;
  }
  return Math.abs(xs[lo] - x) <= Math.abs(xs[hi] - x) ? lo : hi;
}

// axes: limits, ticks and labels computed in Python (widgets/common/ticks.py), as the PNG uses.
function drawPanel(holder, name, lines, colours, options, axes) {
  const box = document.createElement("div");
  box.className = "ek-panel-box";
  holder.appendChild(box);
  const root = svg("svg", { width: W, height: H, class: "ek-panel", "data-panel": name }, box);
  svg("text", { x: W / 2, y: 15, class: "ek-panel-title" }, root).textContent = name;
  if (!axes.y) { // every value so far is NaN or infinite: say so, rather than draw nothing
    svg("text", { x: W / 2, y: H / 2, class: "ek-no-values" }, root).textContent = "no finite values yet (NaN or inf)";
    return;
  }
  const yAxis = options.log && axes.ylog ? axes.ylog : axes.y;
  const logScale = yAxis === axes.ylog; // no positive value: stay linear
  // On a log axis the drawn value is log10(y); non-positive values cannot be drawn there.
  const ty = (y) => (logScale ? (y > 0 ? Math.log10(y) : null) : y);
  const drawn = lines.map((l) => ({ ...l, raw: l.series.y, ys: smooth(l.series.y, options.smoothing).map((y) => (y === null ? null : ty(y))) }));
  const [x0, x1] = [axes.x.lo, axes.x.hi];
  const [y0, y1] = [yAxis.lo, yAxis.hi];
  const sx = (x) => PAD.left + ((x - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
  const sy = (y) => H - PAD.bottom - ((y - y0) / (y1 - y0)) * (H - PAD.top - PAD.bottom);
  yAxis.ticks.forEach((t, i) => {
    svg("line", { x1: PAD.left, x2: W - PAD.right, y1: sy(t), y2: sy(t), class: "ek-grid" }, root);
    svg("text", { x: PAD.left - 4, y: sy(t) + 3, class: "ek-tick ek-tick-y" }, root).textContent = yAxis.labels[i];
  });
  axes.x.ticks.forEach((t, i) => {
    svg("line", { x1: sx(t), x2: sx(t), y1: H - PAD.bottom, y2: H - PAD.bottom + 3, class: "ek-tick-mark" }, root);
    svg("text", { x: sx(t), y: H - PAD.bottom + 14, class: "ek-tick ek-tick-x" }, root).textContent = axes.x.labels[i];
  });
  svg("line", { x1: PAD.left, x2: W - PAD.right, y1: H - PAD.bottom, y2: H - PAD.bottom, class: "ek-axis" }, root);
  svg("text", { x: W - PAD.right, y: H - 3, class: "ek-axis-label" }, root).textContent = options.x + (logScale ? "   (y: log scale)" : "");
  const clip = `ek-clip-${name.replace(/[^\w-]/g, "_")}-${Math.random().toString(36).slice(2)}`;
  svg("rect", { x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right, height: H - PAD.top - PAD.bottom }, svg("clipPath", { id: clip }, root));
  // Beside a validation line a training line fades (ek-under), and validation lines go on top.
  const validated = drawn.some(isValidation);
  for (const line of [...drawn].sort((a, b) => isValidation(a) - isValidation(b))) {
    // A null (NaN or log of <= 0) breaks the line instead of drawing a fake value.
    let d = "", pen = "M";
    line.series.x.forEach((x, i) => {
      const y = line.ys[i];
      if (y === null || !isFinite(y)) { pen = "M"; return; }
      d += `${pen}${sx(x).toFixed(1)},${sy(y).toFixed(1)} `;
      pen = "L";
    });
    const colour = colours[line.run] || NO_COLOUR;
    line.colour = isValidation(line) ? validationColour(colour) : colour;
    const kind = isValidation(line) ? "ek-line ek-val" : validated ? "ek-line ek-under" : "ek-line";
    svg("path", { d, stroke: line.colour, "clip-path": `url(#${clip})`, class: kind }, root);
    if (line.series.x.length <= DOTS_UP_TO) { // few points (one per epoch): each one a dot
      const dot = isValidation(line) ? { r: 3.2, class: "ek-dot ek-val-dot" } : { r: 2.5, class: validated ? "ek-dot ek-under" : "ek-dot" };
      line.series.x.forEach((x, i) => {
        const y = line.ys[i];
        if (y !== null && isFinite(y)) svg("circle", { cx: sx(x), cy: sy(y), fill: line.colour, ...dot }, root);
      });
    }
  }
  hover(box, root, drawn, { sx, sy, x0, x1, options, logScale });
}

// Hovering shows a guide at the nearest logged step and the value of every line there.
function hover(box, root, drawn, { sx, sy, x0, x1, options, logScale }) {
  const guide = svg("line", { y1: PAD.top, y2: H - PAD.bottom, class: "ek-guide", visibility: "hidden" }, root);
  const dots = drawn.map((line) => svg("circle", { r: 3, fill: line.colour, visibility: "hidden" }, root));
  const tip = document.createElement("div");
  tip.className = "ek-hover";
  tip.hidden = true;
  box.appendChild(tip);
  root.addEventListener("mousemove", (event) => {
    const rect = root.getBoundingClientRect();
    const x = x0 + ((event.clientX - rect.left - PAD.left) / (W - PAD.left - PAD.right)) * (x1 - x0);
    let step = null;
    for (const line of drawn) {
      if (!line.series.x.length) continue;
      const candidate = line.series.x[nearest(line.series.x, x)];
      if (step === null || Math.abs(candidate - x) < Math.abs(step - x)) step = candidate;
    }
    if (step === null) return;
    const rows = [`${options.x} ${step}`];
    drawn.forEach((line, k) => {
      const j = nearest(line.series.x, step), i = line.series.x[j] === step ? j : -1;
      const shown = i < 0 ? null : line.ys[i];
      dots[k].setAttribute("visibility", shown === null || !isFinite(shown) ? "hidden" : "visible");
      if (i < 0) return;
      if (shown !== null && isFinite(shown)) { dots[k].setAttribute("cx", sx(step)); dots[k].setAttribute("cy", sy(shown)); }
      const smoothed = options.smoothing > 0 && shown !== null ? ` (smoothed ${readout(logScale ? Math.pow(10, shown) : shown)})` : "";
      rows.push(`${line.run === "main" ? "" : line.run + ": "}${line.metric} ${readout(line.raw[i])}${smoothed}`);
    });
    guide.setAttribute("x1", sx(step));
    guide.setAttribute("x2", sx(step));
    guide.setAttribute("visibility", "visible");
    tip.textContent = rows.join("\n");
    tip.hidden = false;
    const left = sx(step) + 8;
    tip.style.left = `${left > W - 150 ? sx(step) - 8 - tip.offsetWidth : left}px`;
    tip.style.top = `${PAD.top + 4}px`;
  });
  root.addEventListener("mouseleave", () => {
    tip.hidden = true;
    guide.setAttribute("visibility", "hidden");
    dots.forEach((dot) => dot.setAttribute("visibility", "hidden"));
  });
}

// A legend entry that shows how a kind of line is drawn: a short sample of it, then its name.
function lineKey(name, kind) {
  const item = document.createElement("span");
  item.className = "ek-legend-item ek-line-key";
  const sample = svg("svg", { width: 30, height: 10 });
  svg("line", { x1: 1, x2: 29, y1: 5, y2: 5, stroke: "#424242", class: kind }, sample);
  item.append(sample, name);
  return item;
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
  let axes = {}; // panel -> its axes, from Python (the latest message or the history)
  let colours = {}; // run -> its colour, from Python, in the order runs got points
  let pending = false;
  const draw = () => {
    pending = false;
    title.textContent = model.get("title");
    logScale.checked = model.get("y_scale") === "log";
    panels.replaceChildren();
    legend.replaceChildren();
    const order = Object.keys(colours);
    const rank = (run) => (order.includes(run) ? order.indexOf(run) : order.length);
    const runNames = Object.keys(runs).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
    const byPanel = {};
    let points = 0;
    for (const run of runNames) {
      for (const [metric, series] of Object.entries(runs[run])) {
        (byPanel[panelOf(metric)] = byPanel[panelOf(metric)] || []).push({ run, metric, series });
        points += series.x.length;
      }
    }
    const options = { smoothing: Number(smoothing.value), log: logScale.checked, x: model.get("x") || "step" };
    Object.keys(byPanel).sort().forEach((name) => {
      if (axes[name]) drawPanel(panels, name, byPanel[name], colours, options, axes[name]);
    });
    runNames.forEach((run) => {
      const item = document.createElement("span");
      item.className = "ek-legend-item";
      item.innerHTML = `<span class="ek-swatch" style="background:${colours[run] || NO_COLOUR}"></span>`;
      item.append(run);
      legend.appendChild(item);
    });
    if (Object.values(runs).some((m) => Object.keys(m).some((k) => k.startsWith("val_")))) {
      legend.append(lineKey("training", "ek-line ek-under"), lineKey("validation (val_)", "ek-line ek-val"));
    }
    if (!runNames.length) panels.textContent = "waiting for the first points…";
    root.dataset.points = points;
  };
  const schedule = () => {
    if (!pending) { pending = true; requestAnimationFrame(draw); }
  };
  const fromHistory = () => {
    // The history is the whole truth up to its moment; later messages append to it.
    const history = model.get("history") || {};
    runs = JSON.parse(JSON.stringify(history.runs || {}));
    axes = history.axes || {};
    colours = history.colours || {};
    schedule();
  };
  const onMessage = (msg, buffers) => {
    if (msg && msg.type === "points") {
      appendPoints(runs, msg, buffers);
      axes = msg.axes;
      colours = msg.colours || colours;
      root.dataset.messages = Number(root.dataset.messages) + 1; // live messages this view got (tests read it)
      schedule();
    }
  };
  smoothing.value = model.get("smoothing") || 0;
  smoothing.oninput = () => {
    model.set("smoothing", Number(smoothing.value));
    model.save_changes(); // a view drawn again (the log box redraws the output) keeps it
    schedule();
  };
  logScale.onchange = () => {
    model.set("y_scale", logScale.checked ? "log" : "linear");
    model.save_changes(); // the kernel's trait, hence its PNG and the saved state, follow
    schedule();
  };
  model.on("change:history", fromHistory);
  model.on("change:y_scale", schedule);
  model.on("msg:custom", onMessage);
  fromHistory();
  return () => {
    model.off("change:history", fromHistory);
    model.off("change:y_scale", schedule);
    model.off("msg:custom", onMessage);
  };
}

export default { render };
