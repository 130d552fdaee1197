// TapeView front end: draws the tape graph and steps through it, all in the browser.
//
// Python sends one object, model.get("graph"): nodes (already laid out, with x/y/w/h),
// edges, `forward` (one step per record, in order) and `backward` (one step per record
// the reverse sweep visited). This file only reads that data, so stepping works even
// while the kernel is busy training something else.

const SVG_NS = "http://www.w3.org/2000/svg";

// Create an SVG element with attributes and append it to `parent`.
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

// The whole story as one list: an overview, then each record, then each sweep step.
function makeTimeline(graph) {
  const steps = [{ phase: "overview" }];
  graph.forward.forEach((step, i) => steps.push({ phase: "forward", i, step }));
  graph.backward.forEach((step, i) => steps.push({ phase: "backward", i, step }));
  return steps;
}

// --- drawing the graph once ---------------------------------------------------------

function drawEdge(edge, nodes, layer) {
  const a = nodes[edge.from];
  const b = nodes[edge.to];
  const shift = 14 * (edge.lane || 0); // a second edge between the same two nodes
  const x1 = a.x + a.w / 2 + shift, y1 = a.y + a.h;
  const x2 = b.x + b.w / 2 + shift, y2 = b.y;
  const bend = Math.max(18, (y2 - y1) / 2);
  const path = svg("path", {
    d: `M${x1},${y1} C${x1},${y1 + bend} ${x2},${y2 - bend} ${x2},${y2}`,
    class: "ek-edge", "marker-end": "url(#ek-arrow)",
  }, layer);
  // The gradient that flowed back along this edge; filled in during the backward phase.
  const label = svg("text", { x: (x1 + x2) / 2 + 4, y: (y1 + y2) / 2 + 12 * (edge.lane || 0), class: "ek-edge-label" }, layer);
  return { path, label };
}

function drawNode(node, layer) {
  const g = svg("g", { class: "ek-node", "data-id": node.id, transform: `translate(${node.x},${node.y})` }, layer);
  if (node.type === "op") {
    g.classList.add("ek-op", `ek-depth-${Math.min(node.depth, 3)}`);
    svg("rect", { width: node.w, height: node.h, rx: node.h / 2 }, g);
    svg("text", { x: node.w / 2, y: node.h / 2 + 4, class: "ek-op-label" }, g).textContent = node.label;
    if (node.params) svg("title", {}, g).textContent = node.params;
    return g;
  }
  g.classList.add("ek-tensor", `ek-kind-${node.kind}`);
  svg("rect", { width: node.w, height: node.h, rx: 6 }, g);
  svg("text", { x: 8, y: 15, class: "ek-name" }, g).textContent = node.label;
  svg("text", { x: node.w - 8, y: 15, class: "ek-kind" }, g).textContent = node.kind;
  const shape = `(${node.shape.join(", ")}${node.shape.length === 1 ? "," : ""})`;
  svg("text", { x: 8, y: 31, class: "ek-meta" }, g).textContent = `${shape} ${node.dtype} ${node.device}`;
  svg("text", { x: 8, y: 46, class: "ek-value" }, g).textContent = node.value;
  // Below the box: the final gradient of a source, or why it is None.
  if (node.grad !== undefined || node.none) {
    const badge = svg("text", { x: 0, y: node.h + 13, class: node.none ? "ek-none" : "ek-grad" }, g);
    badge.textContent = node.none ? `grad: None (${node.none.code})` : `grad: ${node.grad}`;
    if (node.none) svg("title", {}, badge).textContent = node.none.text;
  }
  if (node.target) g.classList.add("ek-target");
  return g;
}

function drawGraph(graph, holder) {
  const root = svg("svg", { width: graph.width, height: graph.height + 16, class: "ek-graph" }, holder);
  const defs = svg("defs", {}, root);
  const marker = svg("marker", {
    id: "ek-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto",
  }, defs);
  svg("path", { d: "M0,0 L10,5 L0,10 z", class: "ek-arrowhead" }, marker);
  const byId = {};
  graph.nodes.forEach((n) => { byId[n.id] = n; });
  const edgeLayer = svg("g", {}, root);
  const nodeLayer = svg("g", {}, root);
  const edges = {};
  graph.edges.forEach((e) => { edges[e.id] = drawEdge(e, byId, edgeLayer); });
  const nodes = {};
  graph.nodes.forEach((n) => { nodes[n.id] = drawNode(n, nodeLayer); });
  return { nodes, edges, byId };
}

// --- showing one step ------------------------------------------------------------------

// The forward step that makes each op and output node (leaves exist from the start).
function madeBy(graph) {
  const made = {};
  graph.forward.forEach((s, i) => {
    if (!s.op) return; // reading a variable makes nothing new
    made[s.op] = i;
    made[s.output] = i;
  });
  return made;
}

function showStep(view, graph, entry, info) {
  const { nodes, edges } = view;
  Object.values(nodes).forEach((g) => g.classList.remove("ek-current", "ek-input", "ek-output", "ek-future"));
  Object.values(edges).forEach(({ path, label }) => {
    path.classList.remove("ek-edge-active", "ek-edge-grad");
    label.textContent = "";
  });
  let current = null;
  if (entry.phase === "forward") {
    Object.entries(view.made).forEach(([id, i]) => { if (i > entry.i) nodes[id].classList.add("ek-future"); });
    const s = entry.step;
    current = s.op || s.output;
    s.inputs.forEach((id) => nodes[id].classList.add("ek-input"));
    nodes[s.output].classList.add("ek-output");
    graph.edges.filter((e) => e.record === s.record).forEach((e) => edges[e.id].path.classList.add("ek-edge-active"));
  } else if (entry.phase === "backward") {
    // Every sweep step up to this one has sent its gradients along its edges.
    graph.backward.slice(0, entry.i + 1).forEach((s) => {
      if (s.op) labelEdge(edges[`e${s.record}_out`], s.g);
      s.grads.forEach((gr) => { if (gr.edge) labelEdge(edges[gr.edge], gr.value); });
    });
    const s = entry.step;
    current = s.op || s.output;
    nodes[s.output].classList.add("ek-output");
    s.grads.forEach((gr) => nodes[gr.node].classList.add("ek-input"));
  }
  if (current) nodes[current].classList.add("ek-current");
  if (graph.highlight) nodes[graph.highlight.node].classList.add("ek-highlight");
  view.root.dataset.current = current || "";
  view.root.dataset.phase = entry.phase;
  writeInfo(info, graph, entry);
  if (current) scrollIntoView(view.scroller, view.byId[current]);
}

function labelEdge(edge, text) {
  if (!edge) return;
  edge.path.classList.add("ek-edge-grad");
  edge.label.textContent = text;
}

// Keep the current node visible inside the scrolling box (never scroll the notebook).
function scrollIntoView(scroller, node) {
  const top = node.y - 20, bottom = node.y + node.h + 30;
  if (top < scroller.scrollTop) scroller.scrollTop = top;
  else if (bottom > scroller.scrollTop + scroller.clientHeight) scroller.scrollTop = bottom - scroller.clientHeight;
  const left = node.x - 20, right = node.x + node.w + 20;
  if (left < scroller.scrollLeft) scroller.scrollLeft = left;
  else if (right > scroller.scrollLeft + scroller.clientWidth) scroller.scrollLeft = right - scroller.clientWidth;
}

function writeInfo(info, graph, entry) {
  info.replaceChildren();
  if (graph.highlight) {
    // An exercise check marked one record: say which and why, whatever the step.
    const h = graph.highlight;
    const note = html("div", "ek-note", info, `record ${h.record + 1}: ${h.text}`);
    if (h.note) html("div", "ek-note-text", note, h.note);
  }
  if (entry.phase === "overview") {
    const sweep = graph.phase === "backward"
      ? `after gradient(): ${graph.backward.length} steps of the reverse sweep to step through.`
      : "forward recorded; call tape.gradient(...) to see the reverse sweep here.";
    html("div", "ek-info-title", info, `${graph.forward.length} records. ${sweep}`);
    graph.nodes.filter((n) => n.none).forEach((n) => html("div", "ek-info-none", info, `${n.label}: gradient is None because ${n.none.text}.`));
    return;
  }
  const s = entry.step;
  if (entry.phase === "forward") {
    html("div", "ek-info-title", info, `forward, record ${entry.i + 1} of ${graph.forward.length}: ${s.text}`);
    return;
  }
  html("div", "ek-info-title", info, `reverse sweep, step ${entry.i + 1} of ${graph.backward.length} (record ${s.record + 1}): ${s.text}`);
  html("div", "", info, `incoming gradient g = ${s.g}`);
  s.grads.forEach((gr) => {
    const line = html("div", "", info, `VJP → ${gr.name}: ${gr.value}`);
    if (gr.count > 1) {
      // Fan-out: this tensor was used more than once, so its gradients add up.
      html("span", "ek-fanout", line, `  (fan-out: contribution ${gr.count}, running total ${gr.total})`);
    }
  });
}

// --- the controls ------------------------------------------------------------------------

function render({ model, el }) {
  let timer = null;
  const build = () => {
    if (timer) clearInterval(timer);
    timer = null;
    el.replaceChildren();
    const graph = model.get("graph");
    const root = html("div", "eagerkit-tape", el);
    const bar = html("div", "ek-toolbar", root);
    const scroller = html("div", "ek-scroller", root);
    const info = html("div", "ek-info", root);
    const view = { ...drawGraph(graph, scroller), root, scroller, made: madeBy(graph) };
    const timeline = makeTimeline(graph);
    let at = 0;
    const button = (label, title, cls) => {
      const b = html("button", `ek-button ${cls}`, bar, label);
      b.title = title;
      return b;
    };
    const first = button("« start", "back to the overview", "ek-first");
    const prev = button("◀ back", "previous step", "ek-prev");
    const play = button("▶ play", "play the forward pass, then the reverse sweep", "ek-play");
    const next = button("next ▶", "next step", "ek-next");
    const slider = html("input", "ek-slider", bar);
    Object.assign(slider, { type: "range", min: 0, max: timeline.length - 1, value: 0 });
    const label = html("span", "ek-step-label", bar);
    legend(html("div", "ek-legend", root), graph);
    const go = (i) => {
      at = Math.max(0, Math.min(timeline.length - 1, i));
      slider.value = at;
      root.dataset.step = at;
      const e = timeline[at];
      label.textContent = e.phase === "overview" ? "overview" : `${e.phase} ${e.i + 1}/${e.phase === "forward" ? graph.forward.length : graph.backward.length}`;
      showStep(view, graph, e, info);
    };
    const stop = () => { clearInterval(timer); timer = null; play.textContent = "▶ play"; };
    first.onclick = () => { stop(); go(0); };
    prev.onclick = () => { stop(); go(at - 1); };
    next.onclick = () => { stop(); go(at + 1); };
    slider.oninput = () => { stop(); go(Number(slider.value)); };
    play.onclick = () => {
      if (timer) return stop();
      if (at === timeline.length - 1) go(0);
      play.textContent = "❚❚ pause";
      timer = setInterval(() => (at < timeline.length - 1 ? go(at + 1) : stop()), 800);
    };
    go(graph.highlight ? graph.highlight.record + 1 : 0); // open on the marked record
  };
  build();
  model.on("change:graph", build);
  return () => { if (timer) clearInterval(timer); model.off("change:graph", build); };
}

function legend(box, graph) {
  const items = [["watched", "watched"], ["variable", "variable"], ["constant", "constant"], ["intermediate", "intermediate"], ["op", "op (1 tape)"]];
  if (graph.nodes.some((n) => n.type === "op" && n.depth > 1)) items.push(["depth-2", "op recorded by 2 tapes (nested)"]);
  items.forEach(([cls, text]) => {
    const item = html("span", "ek-legend-item", box);
    html("span", `ek-swatch ek-swatch-${cls}`, item);
    html("span", "", item, text);
  });
}

export default { render };
