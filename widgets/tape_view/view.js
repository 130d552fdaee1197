// TapeView front end: draws the tape graph and steps through it, all in the browser.
//
// Python sends two objects. `graph` says what happened: nodes, edges, `forward` (one step
// per record), `backward` (one step per record the reverse sweep visited), the groups a
// view can fold (lines, layers, loops), a highlight and the first NaN. `drawing` says where
// everything goes, in pixels, in each folding state (`states`, opening on `open`): boxes
// with their text, edge paths, gradient labels. This file draws exactly that and steps
// through it without asking the kernel, so it works while the kernel is busy, and in a
// saved page with no kernel at all. Python joins four files into one module: camera.js
// (zoom, pan, the minimap), stepping.js (the timeline and what a step shows), info.js
// (the words under the graph) and this one (drawing a state, the widget).

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

// --- drawing one state ------------------------------------------------------------------

function drawBox(box, layer) {
  const g = svg("g", { class: `ek-node ek-${box.type} ek-kind-${box.kind}`, "data-id": box.id }, layer);
  if (box.depth) g.classList.add(`ek-depth-${Math.min(box.depth, 3)}`); // nested tapes
  if (box.target) g.classList.add("ek-target");
  const rect = svg("rect", { x: box.x, y: box.y, width: box.w, height: box.h, rx: box.type === "proxy" ? 9 : 6 }, g);
  rect.classList.add("ek-box");
  const line = (text, i, cls) => {
    const t = svg("text", { x: box.x + 8, y: box.y + 4 + LINE_H * (i + 1) - 3, class: cls }, g);
    t.textContent = text;
    return t;
  };
  box.lines.forEach((text, i) => line(text, i, i === 0 ? "ek-line ek-first" : "ek-line"));
  // The gradient lines (one per value a folded group hands on): filled in as the reverse
  // sweep reaches each tensor.
  g.gradLines = box.grads.map((grad, i) => {
    const t = line("", box.lines.length + i, "ek-line ek-grad");
    Object.assign(t.dataset, { node: grad.node, prefix: grad.prefix, chars: grad.chars });
    return t;
  });
  return g;
}

function pathData(path) {
  return path.map(([cmd, ...xs]) => cmd + xs.join(",")).join(" ");
}

function drawState(state, holder) {
  const root = svg("svg", { class: "ek-graph", "data-width": state.width, "data-height": state.height }, holder);
  const marker = svg("marker", {
    id: "ek-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto",
  }, svg("defs", {}, root));
  svg("path", { d: "M0,0 L10,5 L0,10 z", class: "ek-arrowhead" }, marker);
  const edgeLayer = svg("g", {}, root);
  const boxLayer = svg("g", {}, root);
  const labelLayer = svg("g", {}, root);
  const edges = state.edges.map((e) => {
    const path = svg("path", { d: pathData(e.path), class: "ek-edge", "marker-end": "url(#ek-arrow)", "data-id": e.id, "data-from": e.from, "data-to": e.to }, edgeLayer);
    return { ...e, path };
  });
  const labels = {};
  (state.labels || []).forEach((l) => {
    const g = svg("g", { class: "ek-label", "data-edge": l.edge }, labelLayer);
    svg("rect", { x: l.x, y: l.y, width: l.w, height: l.h, rx: 3 }, g);
    svg("text", { x: l.x + 2, y: l.y + l.h - 4 }, g).textContent = l.text;
    labels[l.edge] = g;
  });
  const boxes = {};
  state.boxes.forEach((b) => { boxes[b.id] = drawBox(b, boxLayer); });
  const drawn = (id) => state.alias[id] || id; // a node folded away is drawn as its group
  return { root, edges, labels, boxes, drawn };
}

// --- the widget ----------------------------------------------------------------------------

function render({ model, el }) {
  let timer = null;
  let key = null; // the folding state shown: the ids of the unfolded groups
  let wanted = null; // a state asked of the kernel, shown when it arrives
  let focus = null; // the group just unfolded: the view opens where its records are
  let stopWatching = () => {}; // the size watcher of the drawing shown
  let at = null;
  let note = "";
  const build = () => {
    if (timer) clearInterval(timer);
    timer = null;
    stopWatching();
    el.replaceChildren();
    const graph = model.get("graph");
    const drawing = model.get("drawing");
    if (wanted !== null && wanted in drawing.states) { key = wanted; wanted = null; }
    if (key === null || !(key in drawing.states)) key = drawing.open;
    const state = drawing.states[key];
    state.byId = Object.fromEntries(state.boxes.map((b) => [b.id, b]));
    const groups = Object.fromEntries(graph.groups.map((g) => [g.id, g]));
    const root = html("div", "eagerkit-tape", el);
    const bar = html("div", "ek-toolbar", root);
    const folds = html("div", "ek-folds", root);
    const scroller = html("div", "ek-scroller", root);
    const below = html("div", "ek-below", root);
    const info = html("div", "ek-info", below);
    const view = drawState(state, scroller);
    view.nodes = Object.fromEntries(graph.nodes.map((n) => [n.id, n]));
    const entries = timeline(graph, state);
    view.madeAt = madeAt(entries, view.drawn);
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
    const zoomOut = button("−", "zoom out (or ctrl + wheel)", "ek-zoom-out");
    const zoomIn = button("+", "zoom in (or ctrl + wheel); drag to pan", "ek-zoom-in");
    const fit = button("fit", "show the whole graph", "ek-fit");
    const unfold = (target, group) => { // switch to another folding state; the kernel lays out new ones
      const next = stateKey(target);
      focus = group;
      if (next in drawing.states) { key = next; at = null; note = ""; build(); return; }
      wanted = next;
      model.send({ type: "unfold", groups: next ? next.split(",") : [] });
      note = "Laying this folding out… (this needs the notebook's kernel; a saved page keeps the foldings it was given)";
      writeInfo(info, graph, entries, 0, null, note);
    };
    const unfolded = new Set(state.expanded);
    state.expanded.forEach((id) => {
      const chip = button(`▾ ${groups[id].label}`, "fold this group into one box again", "ek-fold ek-open", folds);
      chip.dataset.group = id;
      chip.onclick = () => unfold([...unfolded].filter((g) => !within(g, id, groups)), id);
    });
    const minimap = overview(html("div", "ek-minimap-holder", below), state);
    const camera = fitter(scroller, view.root, state, minimap);
    zoomOut.onclick = () => camera.zoom(1 / 1.25);
    zoomIn.onclick = () => camera.zoom(1.25);
    fit.onclick = () => camera.fit(true);
    legend(html("div", "ek-legend", root), graph, state);
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
      Object.assign(root.dataset, { phase: e.phase, current: current || "", step: at, steps: entries.length, state: key });
      writeInfo(info, graph, entries, at, selected, note);
      if (current) camera.show(state.byId[current]);
    };
    Object.entries(view.boxes).forEach(([id, g]) => {
      g.addEventListener("click", () => {
        if (id in groups) { unfold([...unfolded, ...ancestors(id, groups), id], id); return; }
        selected = id.includes("@") ? state.byId[id].node : (state.byId[id].node || id);
        writeInfo(info, graph, entries, at, selected, note);
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
    // Open readable; where the drawing does not fit, on the group just (un)folded, or the first step.
    const records = focus && groups[focus] ? groups[focus].records : (entries[1] ? entries[1].steps.map((s) => s.record) : []);
    const where = records.map((r) => state.folded[r] || state.alias[`op${r}`]).find((b) => b && state.byId[b]);
    const place = () => { camera.fit(false); if (where) camera.show(state.byId[where]); };
    place();
    requestAnimationFrame(place); // again once the cell has its width
    let width = scroller.clientWidth; // and whenever the window (so the cell) changes width
    const resized = new ResizeObserver(() => { if (scroller.clientWidth !== width) { width = scroller.clientWidth; place(); } });
    resized.observe(scroller);
    stopWatching = () => resized.disconnect();
    const marked = graph.highlight ? entries.findIndex((e) => e.phase === "forward" && e.steps.some((s) => s.record === graph.highlight.record)) : 0;
    go(at === null ? marked : at); // open on the marked record, or where we were
  };
  build();
  const rebuild = () => { at = null; note = ""; build(); };
  model.on("change:drawing", rebuild);
  return () => { if (timer) clearInterval(timer); stopWatching(); model.off("change:drawing", rebuild); };
}

// The state key of a set of unfolded groups: their ids in order, as Python writes it.
function stateKey(ids) {
  return [...new Set(ids)].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))).join(",");
}

function ancestors(id, groups) {
  const out = [];
  for (let g = groups[id].parent; g; g = groups[g].parent) out.push(g);
  return out;
}

function within(id, ancestor, groups) {
  for (let g = id; g; g = groups[g].parent) if (g === ancestor) return true;
  return false;
}

export default { render };
