// TapeView's words: the info panel under the graph (the step, its VJPs, a clicked box and
// the line that made it) and the legend. Python joins it with the other files into one
// module (see view.js).

// "1 record", "2 records": a count with its noun, singular for one.
const counted = (n, noun) => `${n} ${noun}${n === 1 ? "" : "s"}`;

function writeInfo(info, graph, entries, at, selected, note) {
  info.replaceChildren();
  const entry = entries[at];
  if (note) html("div", "ek-info-nan", info, note);
  if (graph.highlight) {
    const h = graph.highlight; // an exercise check marked one record: say which and why
    const mark = html("div", "ek-note", info, `record ${h.record + 1}: ${h.text}`);
    if (h.note) html("div", "ek-note-text", mark, h.note);
  }
  if (graph.nonfinite) html("div", "ek-info-nan", info, graph.nonfinite.text);
  if (entry.phase === "overview") {
    const sweep = graph.notice || (graph.phase === "backward"
      ? `after gradient(): ${counted(graph.backward.length, "step")} of the reverse sweep to step through.`
      : "forward recorded; call tape.gradient(...) to see the reverse sweep here.");
    html("div", "ek-info-title", info, `${counted(graph.forward.length, "record")}. ${sweep}`);
    graph.nodes.filter((n) => n.none).forEach((n) => html("div", "ek-info-none", info, `${n.label}: gradient is None because ${n.none.text}.`));
  } else {
    const s = entry.steps[0];
    const count = entry.phase === "forward" ? graph.forward.length : graph.backward.length;
    const group = entry.group ? graph.groups.find((g) => g.id === entry.group) : null;
    const what = group ? `${group.label}, ${counted(entry.steps.length, "record")} folded into one step (click its box to step into it)` : s.text;
    const head = entry.phase === "forward" ? `forward, record ${entry.first + 1} of ${count}` : `reverse sweep, step ${entry.first + 1} of ${count} (record ${s.record + 1})`;
    html("div", "ek-info-title", info, `${head}: ${what}`);
    if (entry.phase === "backward") {
      entry.steps.slice(0, group ? 3 : undefined).forEach((st) => {
        html("div", "", info, `${group ? `${st.text}: ` : ""}incoming gradient g = ${st.g}`);
        st.grads.forEach((gr) => {
          const line = html("div", "ek-vjp", info, `VJP → ${gr.name}: ${gr.value}`);
          // Fan-out: this tensor was used more than once, so its gradients add up.
          if (gr.count > 1) html("span", "ek-fanout", line, `  (fan-out: contribution ${gr.count}, running total ${gr.total})`);
        });
      });
      if (group && entry.steps.length > 3) html("div", "", info, `… and ${counted(entry.steps.length - 3, "more record")}`);
    }
  }
  if (selected) describe(html("div", "ek-selected", info), graph, selected);
}

// What a clicked box is: its values, and the user's line that made it.
function describe(box, graph, id) {
  const group = graph.groups.find((g) => g.id === id);
  if (group) {
    html("div", "ek-info-title", box, `${group.label}: ${counted(group.records.length, "record")}`);
    if (group.where) html("div", "ek-origin", box, `made at ${group.where}`);
    return;
  }
  const node = graph.nodes.find((n) => n.id === id);
  if (!node) return;
  const title = node.type === "op" ? `op ${node.label}${node.params ? ` (${node.params})` : ""}` : `${node.label}: ${node.kind}, shape (${node.shape.join(", ")}) ${node.dtype}, value ${node.value}`;
  html("div", "ek-info-title", box, title);
  if (node.origin) html("div", "ek-origin", box, `made at ${node.origin.where}: ${node.origin.code}`);
  else if (node.type === "op") html("div", "ek-origin", box, "line unknown: this op ran before the view listened (in a script, make the TapeView before the with-block)");
  if (node.saved) html("div", "", box, node.saved);
}

function legend(box, graph, state) {
  const items = [["watched", "watched"], ["variable", "variable"], ["constant", "constant"], ["intermediate", "made by an op"]];
  if (graph.nodes.some((n) => n.type === "op" && n.depth > 1)) items.push(["depth-2", "op recorded by 2 tapes (nested)"]);
  if (state.boxes.some((b) => b.type === "group")) items.push(["group", "folded: a line, layer or loop (click to unfold)"]);
  items.forEach(([cls, text]) => {
    const item = html("span", "ek-legend-item", box);
    html("span", `ek-swatch ek-swatch-${cls}`, item);
    html("span", "", item, text);
  });
}
