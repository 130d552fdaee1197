// TapeView front end: draws the tape graph and steps through it, all in the browser.
//
// Python sends two objects. `graph` says what happened: nodes, edges, `forward` (one step
// per record), `backward` (one step per record the reverse sweep visited), layer groups,
// a highlight and the first NaN. `drawing` says where everything goes, in pixels: boxes
// with their text, edge paths, gradient labels, one drawing per folding state. This file
// draws exactly that and steps through it without asking the kernel, so it works while
// the kernel is busy, and in a saved page with no kernel at all. Zoom and pan
// (`fitter`) are in camera.js, which Python puts before this file in one module.

const SVG_NS = "http://www.w3.org/2000/svg";
const LINE_H = 15; // as boxes.py

function svg(tag, attrs, parent) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function html(tag, className, parent, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// --- the timeline: one entry per step, a folded layer's records merged into one ------

function timeline(graph, folded) {
  const entries = [{ phase: "overview", steps: [] }];
  for (const phase of ["forward", "backward"]) {
    graph[phase].forEach((step, i) => {
      const last = entries[entries.length - 1];
      const group = folded.includes(step.group) ? step.group : null;
      if (group && last.phase === phase && last.group === group) last.steps.push(step);
      else entries.push({ phase, steps: [step], group, first: i });
    });
  }
  return entries;
}

// --- drawing one state ----------------------------------------------------------------

function drawBox(box, layer) {
  const g = svg("g", { class: `ek-node ek-${box.type} ek-kind-${box.kind}`, "data-id": box.id }, layer);
  if (box.depth) g.classList.add(`ek-depth-${Math.min(box.depth, 3)}`); // nested tapes
  if (box.target) g.classList.add("ek-target");
  const rect = svg("rect", { x: box.x, y: box.y, width: box.w, height: box.h, rx: box.type === "op" ? box.h / 2 : 6 }, g);
  rect.classList.add("ek-box");
  box.lines.forEach((text, i) => {
    const centred = box.type === "op";
    const line = svg("text", {
      x: centred ? box.x + box.w / 2 : box.x + 8,
      y: box.type === "op" ? box.y + box.h / 2 + 4 : box.y + 4 + LINE_H * (i + 1) - 3,
      class: i === 0 ? "ek-line ek-first" : "ek-line",
      "text-anchor": centred ? "middle" : "start",
    }, g);
    line.textContent = text;
    if (text.startsWith("grad: ")) line.classList.add(text.startsWith("grad: None") ? "ek-none" : "ek-grad");
  });
  return g;
}

function pathData(path) {
  return path.map(([cmd, ...xs]) => cmd + xs.join(",")).join(" ");
}

function drawState(drawing, graph, holder) {
  const root = svg("svg", { class: "ek-graph", "data-width": drawing.width, "data-height": drawing.height }, holder);
  const marker = svg("marker", {
    id: "ek-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto",
  }, svg("defs", {}, root));
  svg("path", { d: "M0,0 L10,5 L0,10 z", class: "ek-arrowhead" }, marker);
  const edgeLayer = svg("g", {}, root);
  const boxLayer = svg("g", {}, root);
  const labelLayer = svg("g", {}, root);
  const edges = drawing.edges.map((e) => {
    const path = svg("path", { d: pathData(e.path), class: "ek-edge", "marker-end": "url(#ek-arrow)", "data-from": e.from, "data-to": e.to }, edgeLayer);
    return { ...e, path };
  });
  const labels = {};
  drawing.labels.forEach((l) => {
    const g = svg("g", { class: "ek-label", "data-edge": l.edge }, labelLayer);
    svg("rect", { x: l.x, y: l.y, width: l.w, height: l.h, rx: 3 }, g);
    svg("text", { x: l.x + 2, y: l.y + l.h - 4 }, g).textContent = l.text;
    labels[l.edge] = g;
  });
  const boxes = {};
  drawing.boxes.forEach((b) => { boxes[b.id] = drawBox(b, boxLayer); });
  const drawn = (id) => drawing.alias[id] || id; // a node folded away is drawn as its layer
  return { root, edges, labels, boxes, drawn, byId: Object.fromEntries(drawing.boxes.map((b) => [b.id, b])) };
}

// --- showing one step ----------------------------------------------------------------

function showStep(view, graph, entries, at) {
  const entry = entries[at];
  const { boxes, edges, labels, drawn } = view;
  Object.values(boxes).forEach((g) => g.classList.remove("ek-current", "ek-input", "ek-output", "ek-future"));
  edges.forEach((e) => e.path.classList.remove("ek-edge-active", "ek-edge-grad", "ek-future"));
  Object.values(labels).forEach((g) => g.classList.remove("ek-shown"));
  const records = new Set(entry.steps.map((s) => s.record));
  let current = null;
  if (entry.phase === "forward") {
    // Boxes not made yet fade out (leaves exist from the start).
    Object.entries(view.madeAt).forEach(([id, i]) => { if (i > at) boxes[id].classList.add("ek-future"); });
    edges.forEach((e) => { if (view.madeAt[e.to] > at) e.path.classList.add("ek-future"); });
    entry.steps.forEach((s) => {
      s.inputs.forEach((id) => boxes[drawn(id)].classList.add("ek-input"));
      boxes[drawn(s.output)].classList.add("ek-output");
    });
    edges.filter((e) => e.ids.some((id) => records.has(recordOf(id)))).forEach((e) => e.path.classList.add("ek-edge-active"));
  } else if (entry.phase === "backward" || graph.phase === "backward") {
    // Every sweep step so far has sent its gradients along its edges (all of them in the overview).
    const sent = new Set();
    const upto = entry.phase === "backward" ? at : entries.length - 1;
    entries.slice(0, upto + 1).filter((e) => e.phase === "backward").forEach((e) => e.steps.forEach((s) => {
      if (s.op) sent.add(`e${s.record}_out`);
      s.grads.forEach((gr) => { if (gr.edge) sent.add(gr.edge); });
    }));
    edges.filter((e) => e.ids.some((id) => sent.has(id))).forEach((e) => {
      e.path.classList.add("ek-edge-grad");
      if (labels[e.id]) labels[e.id].classList.add("ek-shown");
    });
    entry.steps.forEach((s) => {
      boxes[drawn(s.output)].classList.add("ek-output");
      s.grads.forEach((gr) => boxes[drawn(gr.node)].classList.add("ek-input"));
    });
  }
  if (entry.steps.length) {
    const s = entry.steps[0];
    current = drawn(s.op || s.output);
    boxes[current].classList.add("ek-current");
  }
  return current;
}

function recordOf(edgeId) { return Number(edgeId.slice(1).split("_")[0]); }

// The forward entry that makes each drawn box (a box made by no record is a leaf).
function madeAt(entries, drawn) {
  const made = {};
  entries.forEach((e, i) => {
    if (e.phase !== "forward") return;
    e.steps.forEach((s) => {
      if (!s.op) return; // reading a variable makes nothing new
      [s.op, s.output].forEach((id) => { if (!(drawn(id) in made)) made[drawn(id)] = i; });
    });
  });
  return made;
}

function writeInfo(info, graph, entries, at, selected) {
  info.replaceChildren();
  const entry = entries[at];
  if (graph.highlight) {
    const h = graph.highlight; // an exercise check marked one record: say which and why
    const note = html("div", "ek-note", info, `record ${h.record + 1}: ${h.text}`);
    if (h.note) html("div", "ek-note-text", note, h.note);
  }
  if (graph.nonfinite) html("div", "ek-info-nan", info, graph.nonfinite.text);
  if (entry.phase === "overview") {
    const sweep = graph.phase === "backward"
      ? `after gradient(): ${graph.backward.length} steps of the reverse sweep to step through.`
      : "forward recorded; call tape.gradient(...) to see the reverse sweep here.";
    html("div", "ek-info-title", info, `${graph.forward.length} records. ${sweep}`);
    graph.nodes.filter((n) => n.none).forEach((n) => html("div", "ek-info-none", info, `${n.label}: gradient is None because ${n.none.text}.`));
  } else {
    const s = entry.steps[0];
    const count = entry.phase === "forward" ? graph.forward.length : graph.backward.length;
    const group = entry.group ? graph.groups.find((g) => g.id === entry.group) : null;
    const what = group ? `${group.label}, ${entry.steps.length} records folded into one step` : s.text;
    const head = entry.phase === "forward" ? `forward, record ${entry.first + 1} of ${count}` : `reverse sweep, step ${entry.first + 1} of ${count} (record ${s.record + 1})`;
    html("div", "ek-info-title", info, `${head}: ${what}`);
    if (entry.phase === "backward") {
      entry.steps.forEach((st) => {
        html("div", "", info, `${group ? `${st.text}: ` : ""}incoming gradient g = ${st.g}`);
        st.grads.forEach((gr) => {
          const line = html("div", "ek-vjp", info, `VJP → ${gr.name}: ${gr.value}`);
          // Fan-out: this tensor was used more than once, so its gradients add up.
          if (gr.count > 1) html("span", "ek-fanout", line, `  (fan-out: contribution ${gr.count}, running total ${gr.total})`);
        });
      });
    }
  }
  if (selected) describe(html("div", "ek-selected", info), graph, selected);
}

// What a clicked box is: its values, and the user's line that made it.
function describe(box, graph, id) {
  const node = graph.nodes.find((n) => n.id === id);
  const group = graph.groups.find((g) => g.id === id);
  if (group) { html("div", "", box, `${group.label}: ${group.records.length} records (click to unfold)`); return; }
  if (!node) return;
  const title = node.type === "op" ? `op ${node.label}${node.params ? ` (${node.params})` : ""}` : `${node.label}: ${node.kind}, shape (${node.shape.join(", ")}) ${node.dtype}, value ${node.value}`;
  html("div", "ek-info-title", box, title);
  if (node.origin) html("div", "ek-origin", box, `made at ${node.origin.where}: ${node.origin.code}`);
  else if (node.type === "op") html("div", "ek-origin", box, "line unknown: the view was made after this op ran (make it before, inside the with-block, to see lines)");
  if (node.saved) html("div", "", box, node.saved);
}

// --- the widget ------------------------------------------------------------------------

function render({ model, el }) {
  let timer = null;
  let unfolded = null; // the one layer drawn unfolded, or null: all folded
  let at = null;
  const build = () => {
    if (timer) clearInterval(timer);
    timer = null;
    el.replaceChildren();
    const graph = model.get("graph");
    const base = model.get("drawing");
    const drawing = unfolded && base.unfolded && base.unfolded[unfolded] ? base.unfolded[unfolded] : base;
    const root = html("div", "eagerkit-tape", el);
    const bar = html("div", "ek-toolbar", root);
    const folds = html("div", "ek-folds", root);
    const scroller = html("div", "ek-scroller", root);
    const info = html("div", "ek-info", root);
    const view = drawState(drawing, graph, scroller);
    const entries = timeline(graph, drawing.folded);
    view.madeAt = madeAt(entries, view.drawn);
    const camera = fitter(scroller, view.root, drawing);
    const button = (label, title, cls, parent = bar) => {
      const b = html("button", `ek-button ${cls}`, parent, label);
      b.title = title;
      return b;
    };
    const first = button("« start", "back to the overview", "ek-first");
    const prev = button("◀ back", "previous step", "ek-prev");
    const play = button("▶ play", "play the forward pass, then the reverse sweep", "ek-play");
    const next = button("next ▶", "next step", "ek-next");
    const slider = html("input", "ek-slider", bar);
    Object.assign(slider, { type: "range", min: 0, max: entries.length - 1, value: 0 });
    const label = html("span", "ek-step-label", bar);
    button("−", "zoom out (or ctrl + wheel)", "ek-zoom-out").onclick = () => camera.zoom(1 / 1.25);
    button("+", "zoom in (or ctrl + wheel); drag to pan", "ek-zoom-in").onclick = () => camera.zoom(1.25);
    button("fit", "show the whole graph", "ek-fit").onclick = () => camera.fit(true);
    (graph.groups || []).forEach((g) => {
      const open = unfolded === g.id;
      const chip = button(`${open ? "▾" : "▸"} ${g.label}`, open ? "fold this layer into one box" : "unfold this layer in place", `ek-fold${open ? " ek-open" : ""}`, folds);
      chip.dataset.group = g.id;
      chip.onclick = () => { unfolded = open ? null : g.id; at = null; build(); };
    });
    legend(html("div", "ek-legend", root), graph);
    let selected = null;
    const go = (i) => {
      at = Math.max(0, Math.min(entries.length - 1, i));
      slider.value = at;
      const e = entries[at];
      const inPhase = entries.filter((x) => x.phase === e.phase);
      label.textContent = e.phase === "overview" ? "overview" : `${e.phase} ${inPhase.indexOf(e) + 1}/${inPhase.length}`;
      const current = showStep(view, graph, entries, at);
      if (graph.highlight) view.boxes[view.drawn(graph.highlight.node)].classList.add("ek-highlight");
      if (graph.nonfinite) view.boxes[view.drawn(graph.nonfinite.node)].classList.add("ek-nonfinite");
      root.dataset.phase = e.phase;
      root.dataset.current = current || "";
      root.dataset.step = at;
      root.dataset.steps = entries.length;
      root.dataset.unfolded = unfolded || "";
      writeInfo(info, graph, entries, at, selected);
      if (current) camera.show(view.byId[current]);
    };
    Object.entries(view.boxes).forEach(([id, g]) => {
      g.addEventListener("click", () => {
        if (graph.groups.some((x) => x.id === id)) { unfolded = id; at = null; build(); return; }
        selected = id;
        writeInfo(info, graph, entries, at, selected);
      });
    });
    const stop = () => { clearInterval(timer); timer = null; play.textContent = "▶ play"; };
    first.onclick = () => { stop(); go(0); };
    prev.onclick = () => { stop(); go(at - 1); };
    next.onclick = () => { stop(); go(at + 1); };
    slider.oninput = () => { stop(); go(Number(slider.value)); };
    play.onclick = () => {
      if (timer) return stop();
      if (at === entries.length - 1) go(0);
      play.textContent = "❚❚ pause";
      timer = setInterval(() => (at < entries.length - 1 ? go(at + 1) : stop()), 800);
    };
    requestAnimationFrame(() => camera.fit(false)); // once the cell has its width
    camera.fit(false);
    const marked = graph.highlight ? entries.findIndex((e) => e.phase === "forward" && e.steps.some((s) => s.record === graph.highlight.record)) : 0;
    go(at === null ? marked : at); // open on the marked record, or where we were
  };
  build();
  const rebuild = () => { at = null; build(); };
  model.on("change:drawing", rebuild);
  return () => { if (timer) clearInterval(timer); model.off("change:drawing", rebuild); };
}

function legend(box, graph) {
  const items = [["watched", "watched"], ["variable", "variable"], ["constant", "constant"], ["intermediate", "intermediate"], ["op", "op (1 tape)"]];
  if (graph.nodes.some((n) => n.type === "op" && n.depth > 1)) items.push(["depth-2", "op recorded by 2 tapes (nested)"]);
  if ((graph.groups || []).length) items.push(["group", "a layer, folded (click to unfold)"]);
  items.forEach(([cls, text]) => {
    const item = html("span", "ek-legend-item", box);
    html("span", `ek-swatch ek-swatch-${cls}`, item);
    html("span", "", item, text);
  });
}

export default { render };
