// The treemap. The zoomed directory's children are drawn first, every one of at least 1/2000
// of its bytes (the smaller ones as one "(N smaller entries)"); then the directories drawn
// are filled, the biggest rectangle first, until a budget of rectangles is spent. A budget
// spent depth-first drew the first directory's inside and left the rest of the map white.

// Squarified layout: rows of rectangles along the shorter side of what is left, a row
// growing while its worst aspect ratio improves. `vals` biggest first, all > 0.
function squarify(vals, x, y, w, h) {
  const out = new Array(vals.length);
  const total = vals.reduce((a, b) => a + b, 0);
  const scale = (w * h) / total;
  const worst = (sum, max, min, side) => {
    const s2 = sum * sum, q = side * side;
    return Math.max((q * max) / s2, s2 / (q * min));
  };
  let i = 0;
  while (i < vals.length) {
    const side = Math.min(w, h);
    const first = vals[i] * scale;
    let sum = first;
    let best = worst(sum, first, first, side);
    let j = i + 1;
    while (j < vals.length) {
      const a = vals[j] * scale;
      const r = worst(sum + a, first, a, side);
      if (r > best) break;
      best = r; sum += a; j++;
    }
    const thick = side > 0 ? sum / side : 0;
    let off = 0;
    for (let k = i; k < j; k++) {
      const len = thick > 0 ? (vals[k] * scale) / thick : 0;
      out[k] = w >= h ? [x, y + off, thick, len] : [x + off, y, len, thick];
      off += len;
    }
    if (w >= h) { x += thick; w -= thick; } else { y += thick; h -= thick; }
    i = j;
  }
  return out;
}

const map = document.getElementById("map");
// rectangles drawn below the zoomed directory's children; a child of the zoomed directory
// of at least 1/TOP_FOLD of it is drawn; deeper, what would be under MIN_AREA pixels is folded
const RECTS = 6000, TOP_FOLD = 2000, MIN_AREA = 24, HEADER = 15;

// The children of `i` to draw, biggest first: entries with area, and the ones under `limit`
// bytes as one folded item (`{ fold: count, size }`) when there are two or more of them.
function items(i, limit) {
  const shown = kids[i].filter((k) => rows[k][SIZE] > 0).sort((a, b) => rows[b][SIZE] - rows[a][SIZE]);
  let cut = shown.length;
  while (cut > 0 && rows[shown[cut - 1]][SIZE] < limit) cut--;
  if (shown.length - cut < 2) return shown;
  // one "(N smaller entries)" a directory: what the page folded joins what is too small
  const fold = { fold: 0, size: 0 };
  const out = [];
  shown.forEach((k, n) => {
    if (n < cut && rows[k][KIND] !== "m") { out.push(k); return; }
    fold.fold += rows[k][KIND] === "m" ? rows[k][ITEMS] : 1;
    fold.size += rows[k][SIZE];
  });
  let at = out.length;
  while (at > 0 && rows[out[at - 1]][SIZE] < fold.size) at--;
  out.splice(at, 0, fold);
  return out;
}

function sizeOf(item) {
  return typeof item === "number" ? rows[item][SIZE] : item.size;
}

// One rectangle, its `data-path` and `data-size` the page's contract with scripts.
function rect(item, of, left, top, width, height) {
  const folded = typeof item !== "number";
  const k = folded ? of : item;
  const e = el("div", "r " + (folded ? "m" : rows[k][KIND]));
  if (folded) e.classList.add("k-m"); else paint(e, k);
  e.setAttribute("data-path", path[k]);
  e.setAttribute("data-size", String(sizeOf(item)));
  if (folded) e.setAttribute("data-folded", String(item.fold));
  else if (rows[k][KIND] === "m") e.setAttribute("data-folded", String(rows[k][ITEMS]));
  e.dataset.i = folded ? -1 : k;
  if (folded) e.dataset.fold = item.fold;
  e.style.left = left + "px"; e.style.top = top + "px";
  e.style.width = width + "px"; e.style.height = height + "px";
  if (width > 28 && height > 13) {
    const name = folded ? "(" + item.fold.toLocaleString("en-US") + " smaller entries)" : label[k];
    e.appendChild(el("span", "", name));
    if (height > 30 && width > 36) e.appendChild(el("span", "sz", human(sizeOf(item))));
  }
  return e;
}

// Draws the children of `i` into `into` at (x0, y0, w, h); returns the directories drawn
// whose insides can be drawn, as jobs, and the number of rectangles drawn.
function place(into, i, x0, y0, w, h, top) {
  const whole = rows[i][SIZE];
  const limit = top ? whole / TOP_FOLD : whole * MIN_AREA / Math.max(1, w * h);
  const list = items(i, limit);
  const jobs = [];
  if (!list.length || w < 2 || h < 2) return { jobs, drawn: 0 };
  const rects = squarify(list.map(sizeOf), 0, 0, w, h);
  for (let n = 0; n < list.length; n++) {
    const [rx, ry, rw, rh] = rects[n];
    const left = Math.round(x0 + rx), t = Math.round(y0 + ry);
    const width = Math.round(x0 + rx + rw) - left, height = Math.round(y0 + ry + rh) - t;
    const item = list[n];
    const e = rect(item, i, left, t, width, height);
    into.appendChild(e);
    if (typeof item !== "number" || !kids[item].length || rows[item][KIND] === "m") continue;
    e.classList.add("more");
    // inside the 1-pixel border; a header for the zoomed directory's children only, so that
    // a byte two levels down has about the area of a byte one level down
    const head = top && height > 3 * HEADER ? HEADER : 0;
    const iw = width - 2, ih = height - 2 - head;
    if (iw >= 6 && ih >= 6) jobs.push({ into: e, i: item, x: 0, y: head, w: iw, h: ih });
  }
  return { jobs, drawn: list.length };
}

// A max-heap of jobs by area.
function pushJob(heap, job) {
  job.area = job.w * job.h;
  heap.push(job);
  for (let c = heap.length - 1; c > 0;) {
    const p = (c - 1) >> 1;
    if (heap[p].area >= heap[c].area) break;
    [heap[p], heap[c]] = [heap[c], heap[p]];
    c = p;
  }
}
function popJob(heap) {
  const best = heap[0];
  const last = heap.pop();
  if (heap.length) {
    heap[0] = last;
    for (let p = 0; ;) {
      const l = 2 * p + 1, r = l + 1;
      let m = p;
      if (l < heap.length && heap[l].area > heap[m].area) m = l;
      if (r < heap.length && heap[r].area > heap[m].area) m = r;
      if (m === p) break;
      [heap[p], heap[m]] = [heap[m], heap[p]];
      p = m;
    }
  }
  return best;
}

// Draws the zoomed directory `z`: its children, then their insides biggest first. A
// directory left undrawn inside keeps the class `more` (hatched: there is more in it).
function drawMap(z) {
  map.textContent = "";
  const w = map.clientWidth, h = map.clientHeight;
  const r = rows[z];
  if (r[KIND] !== "d" && r[KIND] !== "m") {
    map.appendChild(rect(z, z, 0, 0, w, h)); // a file: one rectangle, the whole map
    return;
  }
  if (!kids[z].length || r[SIZE] === 0) {
    map.appendChild(el("p", "empty", kids[z].length ? "nothing here takes space" : "empty directory"));
    return;
  }
  const heap = [];
  const first = place(map, z, 0, 0, w, h, true);
  first.jobs.forEach((j) => pushJob(heap, j));
  let left = RECTS;
  while (heap.length && left > 0) {
    const j = popJob(heap);
    const done = place(j.into, j.i, j.x, j.y, j.w, j.h, false);
    if (!done.drawn) continue;
    j.into.classList.remove("more");
    left -= done.drawn;
    done.jobs.forEach((d) => pushJob(heap, d));
  }
}
