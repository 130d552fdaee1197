// GraphPassView front end: the traced graph of an ek.function, one optimization pass at a
// time. Every stage (boxes, edges, marks, numbers) is computed in Python: this file only
// draws it and steps through the stages (buttons or the arrow keys), so stepping works
// while the kernel is busy.

const SVG_NS = "http://www.w3.org/2000/svg";
const TITLE_H = 22; // a panel's title line (drawing.py's TITLE_H)
const LONG = 1200; // a graph taller than this scrolls in its own box (view.css's ek-long)
const LEGEND = [
  ["folded", "folded into a constant"],
  ["removed", "removed (dead code)"],
  ["merged", "merged with an equal node"],
  ["reuses", "writes into a dead input's buffer"],
];

function svg(tag, attrs, parent, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  parent.appendChild(node);
  return node;
}

function el(tag, className, parent, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  parent.appendChild(node);
  return node;
}

// Exact bytes below a MiB, so that a 4-byte saving shows in the table too.
const bytes = (n) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(2)} MiB` : `${n.toLocaleString("en-US")} B`);

function drawGraph(holder, drawing, toggle) {
  holder.replaceChildren();
  holder.classList.toggle("ek-long", drawing.height > LONG);
  const root = svg("svg", { width: drawing.width, height: drawing.height, class: "ek-graph" }, holder);
  const defs = svg("defs", {}, root);
  for (const kind of ["data", "reuse"]) {
    const marker = svg("marker", { id: `ek-arrow-${kind}`, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto" }, defs);
    svg("path", { d: "M0,0 L10,5 L0,10 z", class: `ek-arrow-${kind}` }, marker);
  }
  drawInto(root, drawing, toggle);
}

// One graph's edges and boxes into `parent` (an svg or a panel's group): a cond or loop box
// drawn open holds a panel per subgraph, each drawn the same way, one level in.
function drawInto(parent, drawing, toggle) {
  for (const edge of drawing.edges) {
    const d = edge.points.map(([x, y], i) => `${i ? "L" : "M"}${x},${y}`).join(" ");
    svg("path", { d, class: `ek-edge ek-edge-${edge.kind}`, "marker-end": `url(#ek-arrow-${edge.kind})`, "data-from": edge.from, "data-to": edge.to }, parent);
  }
  for (const node of drawing.nodes) {
    const classes = ["ek-node", `ek-kind-${node.kind}`, `ek-mark-${node.mark}`];
    if (node.output) classes.push("ek-output");
    if (node.control) classes.push("ek-control", node.panels ? "ek-open" : "ek-closed");
    const g = svg("g", { class: classes.join(" "), "data-id": node.id }, parent);
    svg("rect", { x: node.x, y: node.y, width: node.w, height: node.h, rx: node.kind === "op" ? 12 : 4 }, g);
    if (node.panels) {
      svg("text", { x: node.x + 12, y: node.y + 16, class: "ek-label ek-header-line" }, g, `${node.label}  ${node.type}`);
      for (const panel of node.panels) drawPanel(g, node, panel);
    } else {
      svg("text", { x: node.x + node.w / 2, y: node.y + 14, class: "ek-label" }, g, node.label);
      svg("text", { x: node.x + node.w / 2, y: node.y + 27, class: "ek-type" }, g, node.type);
    }
    if (node.note) svg("title", {}, g, node.note);
    if (node.control && toggle) {  // only the outer graph's boxes open and close
      g.dataset.name = node.label.split(" ")[0];
      g.addEventListener("click", (event) => {
        if (!event.target.closest(".ek-panel")) toggle(g.dataset.name);
      });
    }
  }
}

function drawPanel(parent, node, panel) {
  const x = node.x + panel.x, y = node.y + panel.y;
  const g = svg("g", { class: `ek-panel ek-${panel.state}`, "data-role": panel.role, transform: `translate(${x},${y})` }, parent);
  svg("rect", { x: 0, y: 0, width: panel.w, height: panel.h, rx: 6, class: "ek-panel-frame" }, g);
  svg("text", { x: 10, y: 15, class: "ek-panel-title" }, g, panel.title);
  drawInto(svg("g", { transform: `translate(0,${TITLE_H})` }, g), panel.drawing, null);
}

function render({ model, el: host }) {
  const root = el("div", "eagerkit-passes", host);
  root.tabIndex = 0; // focusable, for the arrow keys
  const header = el("div", "ek-header", root);
  const back = el("button", "ek-back", header, "◀ previous");
  const next = el("button", "ek-next", header, "next ▶");
  const title = el("span", "ek-stage-title", header);
  const body = el("div", "ek-body", root);
  const graph = el("div", "ek-graph-box", body);
  const side = el("div", "ek-side", body);
  const legend = el("div", "ek-legend", root);
  for (const [mark, words] of LEGEND) {
    const item = el("span", `ek-legend-item ek-mark-${mark}`, legend);
    el("span", "ek-swatch", item);
    item.append(words);
  }
  el("span", "ek-legend-item", legend, "bold box: an output of the function");
  let index = 0;
  const opened = new Set(); // the cond and loop boxes shown open, by name (%4): kept from stage to stage

  const draw = () => {
    const stages = model.get("stages");
    const stage = stages[index];
    const passes = stages.length - 1;
    title.textContent = index < passes ? `pass ${index + 1} of ${passes}: ${stage.title}` : `the ${stage.title} (all ${passes} passes done)`;
    root.dataset.stage = index;
    back.disabled = index === 0;
    next.disabled = index === stages.length - 1;
    const shown = stage.control.filter((name) => opened.has(name)).sort().join(",");
    root.dataset.open = shown;
    drawGraph(graph, shown ? stage.layouts[shown] : stage.drawing, toggle);
    side.replaceChildren();
    const [n0, n1] = stage.nodes, [o0, o1] = stage.ops, [b0, b1] = stage.bytes;
    const table = el("table", "ek-numbers", side);
    const header = index < passes ? ["", "before", "after"] : ["", "traced", "optimized"];
    [header, ["nodes", n0, n1], ["ops", o0, o1], ["arrays made per call", bytes(b0), bytes(b1)]].forEach((row, r) => {
      const tr = el("tr", "", table);
      row.forEach((cell) => el(r ? "td" : "th", "", tr, String(cell)));
    });
    el("div", "ek-saved", side, `saves ${bytes(stage.bytes_saved)} of arrays per call`);
    const list = el("ul", "ek-changes", side);
    if (index < passes && !stage.changes.length) el("li", "", list, "nothing to do in this graph");
    stage.changes.forEach((change) => el("li", "", list, change));
    if (index < passes) el("div", "ek-hint", side, "The graph is drawn before this pass; marked boxes are what it changes.");
    if (stage.control.length) {
      const colours = model.get("runs_known") ? " (green: what this call runs, grey: what it skips)" : "";
      el("div", "ek-control-hint", side, `Click a purple cond or while_loop box to open it onto its branches, its title line to close it${colours}.`);
    }
  };
  // Open or close one box; with more boxes than Python laid out every combination for,
  // all of them open or close together.
  const toggle = (name) => {
    if (opened.has(name)) opened.delete(name); else opened.add(name);
    const stage = model.get("stages")[index];
    const key = stage.control.filter((n) => opened.has(n)).sort().join(",");
    if (key && !(key in stage.layouts)) {
      const open = opened.has(name);
      stage.control.forEach((n) => (open ? opened.add(n) : opened.delete(n)));
    }
    draw();
  };
  const go = (delta) => {
    const last = model.get("stages").length - 1;
    index = Math.max(0, Math.min(last, index + delta));
    draw();
  };
  back.onclick = () => go(-1);
  next.onclick = () => go(1);
  root.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") { go(1); event.preventDefault(); }
    if (event.key === "ArrowLeft") { go(-1); event.preventDefault(); }
  });
  model.on("change:stages", draw);
  draw();
  return () => model.off("change:stages", draw);
}

export default { render };
