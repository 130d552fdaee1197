// GraphPassView front end: the traced graph of an ek.function, one optimization pass at a
// time. Every stage (boxes, edges, marks, numbers) is computed in Python: this file only
// draws it and steps through the stages (buttons or the arrow keys), so stepping works
// while the kernel is busy.

const SVG_NS = "http://www.w3.org/2000/svg";
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

function drawGraph(holder, drawing) {
  holder.replaceChildren();
  const root = svg("svg", { width: drawing.width, height: drawing.height, class: "ek-graph" }, holder);
  const defs = svg("defs", {}, root);
  for (const kind of ["data", "reuse"]) {
    const marker = svg("marker", { id: `ek-arrow-${kind}`, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto" }, defs);
    svg("path", { d: "M0,0 L10,5 L0,10 z", class: `ek-arrow-${kind}` }, marker);
  }
  for (const edge of drawing.edges) {
    const d = edge.points.map(([x, y], i) => `${i ? "L" : "M"}${x},${y}`).join(" ");
    svg("path", { d, class: `ek-edge ek-edge-${edge.kind}`, "marker-end": `url(#ek-arrow-${edge.kind})`, "data-from": edge.from, "data-to": edge.to }, root);
  }
  for (const node of drawing.nodes) {
    const g = svg("g", { class: `ek-node ek-kind-${node.kind} ek-mark-${node.mark}${node.output ? " ek-output" : ""}`, "data-id": node.id }, root);
    svg("rect", { x: node.x, y: node.y, width: node.w, height: node.h, rx: node.kind === "op" ? 12 : 4 }, g);
    svg("text", { x: node.x + node.w / 2, y: node.y + 14, class: "ek-label" }, g, node.label);
    svg("text", { x: node.x + node.w / 2, y: node.y + 27, class: "ek-type" }, g, node.type);
    if (node.note) svg("title", {}, g, node.note);
  }
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

  const draw = () => {
    const stages = model.get("stages");
    const stage = stages[index];
    const passes = stages.length - 1;
    title.textContent = index < passes ? `pass ${index + 1} of ${passes}: ${stage.title}` : `the ${stage.title} (all ${passes} passes done)`;
    root.dataset.stage = index;
    back.disabled = index === 0;
    next.disabled = index === stages.length - 1;
    drawGraph(graph, stage.drawing);
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
