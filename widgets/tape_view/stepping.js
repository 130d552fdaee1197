// TapeView's stepping: the timeline of steps (a folded group's records are one step), and
// what one step shows: the boxes and edges it touches, the edges the reverse sweep has sent
// gradients along so far, and each gradient as it adds up. Python joins camera.js, this
// file, info.js and view.js into one module.

// --- the timeline: one entry per step; a folded group's records merge into one ----------

function timeline(graph, state) {
  const entries = [{ phase: "overview", steps: [] }];
  for (const phase of ["forward", "backward"]) {
    graph[phase].forEach((step, i) => {
      const last = entries[entries.length - 1];
      const group = state.folded[step.record] || null; // reads of variables included
      if (group && last.phase === phase && last.group === group) last.steps.push(step);
      else entries.push({ phase, steps: [step], group, first: i });
    });
  }
  return entries;
}

// --- showing one step ---------------------------------------------------------------------

function showStep(view, graph, entries, at) {
  const entry = entries[at];
  const { boxes, edges, labels, drawn } = view;
  Object.values(boxes).forEach((g) => g.classList.remove("ek-current", "ek-input", "ek-output", "ek-future"));
  edges.forEach((e) => e.path.classList.remove("ek-edge-active", "ek-edge-grad", "ek-future"));
  Object.values(labels).forEach((g) => g.classList.remove("ek-shown"));
  const records = new Set(entry.steps.map((s) => s.record));
  const sweeping = entry.phase === "backward" || (entry.phase === "overview" && graph.phase === "backward");
  if (entry.phase === "forward") {
    // Boxes not made yet fade out (leaves exist from the start).
    Object.entries(view.madeAt).forEach(([id, i]) => { if (i > at) boxes[id].classList.add("ek-future"); });
    edges.forEach((e) => { if (view.madeAt[e.to] > at) e.path.classList.add("ek-future"); });
    entry.steps.forEach((s) => {
      s.inputs.forEach((id) => mark(view, drawn(id), "ek-input", s));
      boxes[drawn(s.output)].classList.add("ek-output");
    });
    edges.filter((e) => e.ids.some((id) => records.has(recordOf(id)))).forEach((e) => e.path.classList.add("ek-edge-active"));
  } else if (sweeping) {
    // Every sweep step so far has sent its gradients along its edges (all of them in the overview).
    const upto = entry.phase === "backward" ? at : entries.length - 1;
    const sent = new Set();
    entries.slice(0, upto + 1).filter((e) => e.phase === "backward").forEach((e) => e.steps.forEach((s) => {
      s.grads.forEach((gr) => { if (gr.edge) sent.add(gr.edge); });
    }));
    edges.filter((e) => e.ids.some((id) => sent.has(id))).forEach((e) => {
      e.path.classList.add("ek-edge-grad");
      if (labels[e.id]) labels[e.id].classList.add("ek-shown");
    });
    entry.steps.forEach((s) => {
      boxes[drawn(s.output)].classList.add("ek-output");
      s.grads.forEach((gr) => mark(view, drawn(gr.node), "ek-input", s));
    });
  }
  writeGradients(view, graph, entries, at, sweeping);
  let current = null;
  if (entry.steps.length) {
    const s = entry.steps[0];
    current = entry.group || drawn(s.op || s.output);
    boxes[current].classList.add("ek-current");
  }
  return current;
}

// A box's class, and the proxies of that node beside the step's op.
function mark(view, id, cls, step) {
  view.boxes[id].classList.add(cls);
  const proxy = view.boxes[`${id}@${view.drawn(step.op || step.output)}`];
  if (proxy) proxy.classList.add(cls);
}

// The gradient lines of each box: nothing in the forward pass; during the sweep, the sum of
// what has arrived so far ("2/3": two of its three uses sent theirs); after it, the total.
function writeGradients(view, graph, entries, at, sweeping) {
  const lines = Object.values(view.boxes).flatMap((g) => g.gradLines);
  if (!sweeping) { lines.forEach((t) => { t.textContent = ""; }); return; }
  const final = entries[at].phase === "overview";
  const total = {}, count = {}, uses = {};
  graph.backward.forEach((s) => s.grads.forEach((gr) => { if (gr.edge) uses[gr.node] = (uses[gr.node] || 0) + 1; }));
  entries.slice(0, final ? entries.length : at + 1).filter((e) => e.phase === "backward").forEach((e) => e.steps.forEach((s) => {
    if (s.op) total[s.output] = s.g; // a record's output: its whole gradient, when its turn comes
    s.grads.forEach((gr) => { total[gr.node] = gr.total; count[gr.node] = gr.count; });
  }));
  const byId = view.nodes;
  lines.forEach((t) => {
    const { node: id, prefix } = t.dataset, chars = Number(t.dataset.chars);
    if (final || byId[id].none) { t.textContent = gradText(byId[id], chars, prefix); return; }
    if (!(id in total)) { t.textContent = ""; return; }
    const partial = count[id] && uses[id] > 1 && count[id] < uses[id] ? ` (${count[id]}/${uses[id]})` : "";
    t.textContent = `${prefix}${clip(total[id], chars)}${partial}`;
  });
}

function gradText(node, chars, prefix) { // as boxes.grad_text
  if (node.grad !== undefined) return `${prefix}${clip(node.grad, chars)}`;
  return node.none ? `${prefix}None` : "";
}

function clip(text, chars) { // as boxes.clip
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

function recordOf(edgeId) { return Number(edgeId.slice(1).split("_")[0]); }

// The forward entry that makes each drawn box (a box made by no record is a leaf).
function madeAt(entries, drawn) {
  const made = {};
  entries.forEach((e, i) => {
    if (e.phase !== "forward") return;
    e.steps.forEach((s) => {
      if (!s.op) return; // reading a variable makes nothing new
      const id = drawn(s.op);
      if (!(id in made)) made[id] = i;
    });
  });
  return made;
}

