// What a reader sees of one eagerkit view (any of them), as the browser drew it: every
// text with its size on screen (computed font size times the svg's scale), every text,
// svg box and canvas that cannot be seen (outside a box that clips it, unless that box
// scrolls or is the tape's pannable graph and the thing lies within what it can reach),
// texts that overlap, the view's size against the notebook's, whether it has a frame, and
// its tallest blank strip.
(root) => {
  const SLACK = 1; // pixels of rounding forgiven
  const shown = (e) => e.checkVisibility({ visibilityProperty: true });
  const box = (r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
  const holds = (outer, r) => r.left >= outer.left - SLACK && r.right <= outer.right + SLACK && r.top >= outer.top - SLACK && r.bottom <= outer.bottom + SLACK;
  const round = (r) => [r.left, r.top, r.right - r.left, r.bottom - r.top].map((v) => Math.round(v));

  // Why `rect` (of `element`) cannot be seen, or null when it can. The view's root always
  // clips: whatever spills out of it is cut off, even where the notebook would show it.
  const hiddenBy = (element, rect) => {
    let r = box(rect);
    for (let n = element.parentElement; n; n = n.parentElement) {
      const style = getComputedStyle(n);
      const isSvg = n instanceof SVGSVGElement;
      const clips = n === root || (isSvg ? style.overflow !== "visible" : style.overflowX !== "visible" || style.overflowY !== "visible");
      if (clips) {
        const own = box(n.getBoundingClientRect());
        const scrolls = !isSvg && /auto|scroll/.test(style.overflowX + style.overflowY);
        if (isSvg && n.dataset.zoom !== undefined) { // the tape's camera pans over the whole drawing
          const b = element.getBBox ? element.getBBox() : null;
          const W = Number(n.dataset.width), H = Number(n.dataset.height);
          if (b && !(b.x >= -SLACK && b.y >= -SLACK && b.x + b.width <= W + SLACK && b.y + b.height <= H + SLACK)) return `outside the drawing (${W}x${H}) the view pans over`;
          r = own; // panned into view, it shows where the svg is
        } else if (scrolls) { // reachable by the box's own scrollbars
          const left = own.left + n.clientLeft - n.scrollLeft, top = own.top + n.clientTop - n.scrollTop;
          if (!holds({ left, top, right: left + n.scrollWidth, bottom: top + n.scrollHeight }, r)) return `beyond what ${n.className} scrolls to`;
          r = own;
        } else if (!holds(own, r)) {
          return `cut off by ${n === root ? "the view's edge" : n.tagName.toLowerCase() + "." + String(n.className.baseVal ?? n.className)} at ${round(own)}`;
        }
      }
      if (n === root) return null;
    }
    return "not inside the view";
  };

  const texts = [], cut = [];
  for (const t of root.querySelectorAll("svg text")) {
    if (!t.textContent.trim() || !shown(t)) continue;
    const m = t.getScreenCTM();
    const size = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    const r = t.getBoundingClientRect();
    texts.push({ text: t.textContent.trim(), size, rect: box(r) });
    const why = hiddenBy(t, r);
    if (why) cut.push(`text ${JSON.stringify(t.textContent.trim())} at ${round(r)}: ${why}`);
  }
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.textContent.trim() || parent.closest("svg, style, script, title") || !shown(parent)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const size = parseFloat(getComputedStyle(parent).fontSize);
    for (const r of range.getClientRects()) { // one per line the text wraps to
      if (r.width < 0.5 || r.height < 0.5) continue;
      texts.push({ text: node.textContent.trim(), size, rect: box(r) });
      const why = hiddenBy(node, r);
      if (why) cut.push(`text ${JSON.stringify(node.textContent.trim())} at ${round(r)}: ${why}`);
    }
  }
  for (const b of root.querySelectorAll("svg rect, canvas")) {
    const r = b.getBoundingClientRect();
    if (r.width < 0.5 || r.height < 0.5 || !shown(b) || b.closest("defs, marker")) continue;
    const why = hiddenBy(b, r);
    if (why) cut.push(`${b.tagName.toLowerCase()}.${String(b.className.baseVal ?? b.className)} at ${round(r)}: ${why}`);
  }

  // Two texts overlap when their boxes share more than a sliver both ways (a line's box
  // includes its ascent and descent, so stacked lines touch).
  const overlaps = [];
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i].rect, b = texts[j].rect;
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 2 && h > 3) overlaps.push(`${JSON.stringify(texts[i].text)} and ${JSON.stringify(texts[j].text)} at ${round(a)} / ${round(b)}`);
    }
  }

  // Its frame (a border all round, as every view has) and the tallest blank strip across
  // it: a band between its top and bottom edges where nothing (text, drawing, control) is.
  const style = getComputedStyle(root);
  const frame = ["Top", "Right", "Bottom", "Left"].every((side) => parseFloat(style[`border${side}Width`]) >= 1 && style[`border${side}Style`] !== "none");
  const inner = root.getBoundingClientRect();
  const top = inner.top + parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop);
  const bottom = inner.bottom - parseFloat(style.borderBottomWidth) - parseFloat(style.paddingBottom);
  const filled = texts.map((t) => [t.rect.top, t.rect.bottom]);
  for (const e of root.querySelectorAll("svg, canvas, button, input, select")) {
    if (e.parentElement.closest("svg") || !shown(e)) continue; // an svg inside an svg is in its parent's band
    const r = e.getBoundingClientRect();
    if (r.width >= 0.5 && r.height >= 0.5) filled.push([r.top, r.bottom]);
  }
  filled.sort((a, b) => a[0] - b[0]);
  let reached = top, blank = { height: 0, at: null };
  for (const [from, to] of filled) {
    if (from - reached > blank.height) blank = { height: from - reached, at: Math.round(reached - inner.top) };
    reached = Math.max(reached, to);
  }
  if (bottom - reached > blank.height) blank = { height: bottom - reached, at: Math.round(reached - inner.top) };

  const output = root.closest(".jp-OutputArea-output");
  let area = window.innerHeight; // the notebook's visible height: its outermost scrolling box
  for (let n = root.parentElement; n; n = n.parentElement) {
    const o = getComputedStyle(n).overflowY;
    if ((o === "auto" || o === "scroll") && n.clientHeight > 0) area = n.clientHeight;
  }
  const view = root.getBoundingClientRect();
  return {
    kind: root.className,
    texts: texts.length,
    smallest: texts.length ? Math.min(...texts.map((t) => t.size)) : null,
    small: texts.filter((t) => t.size < 9).map((t) => `${JSON.stringify(t.text)} at ${t.size.toFixed(2)} px`),
    cut,
    overlaps,
    width: view.width,
    room: output ? output.clientWidth : window.innerWidth,
    height: view.height,
    area,
    frame,
    blank,
  };
}
