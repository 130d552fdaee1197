// The TapeView's drawing as the browser rendered it, in the svg's own coordinates:
// boxes, sampled edge paths, labels, and each text's box with the box it sits in.
(root) => {
  const svg = root.querySelector("svg.ek-graph");
  const rect = (g) => { const r = g.querySelector("rect"); return ["x", "y", "width", "height"].map((a) => Number(r.getAttribute(a))); };
  const boxes = [...svg.querySelectorAll("g.ek-node")].map((g) => [g.dataset.id, ...rect(g)]);
  const edges = [...svg.querySelectorAll("path.ek-edge")].map((p) => {
    const length = p.getTotalLength(), n = Math.max(8, Math.ceil(length / 3)), points = [];
    for (let i = 0; i <= n; i++) { const q = p.getPointAtLength((length * i) / n); points.push([q.x, q.y]); }
    return [p.dataset.from, p.dataset.to, points];
  });
  const labels = [...svg.querySelectorAll("g.ek-label")].map((g) => [g.textContent, ...rect(g)]);
  const texts = [...svg.querySelectorAll("g.ek-node, g.ek-label")].flatMap((g) => {
    const [x, y, w, h] = rect(g);
    return [...g.querySelectorAll("text")].filter((t) => t.textContent).map((t) => { const b = t.getBBox(); return [t.textContent, b.x, b.y, b.width, b.height, x, y, w, h]; });
  });
  return { width: Number(svg.dataset.width), height: Number(svg.dataset.height), boxes, edges, labels, texts };
}
