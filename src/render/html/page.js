"use strict";
// The page of `hogs --html`: reads the JSON the report carries and draws the zoomed
// directory as a squarified treemap and as a table. Names only ever reach the document
// through textContent and setAttribute, never as markup.
(function () {
  const data = JSON.parse(document.getElementById("hogs-data").textContent);
  const facts = data.facts;
  const rows = data.nodes;
  const count = rows.length;
  // columns of the entries: [name, size, kind, items, mtime, children, class, old size]
  const NAME = 0, SIZE = 1, KIND = 2, ITEMS = 3, MTIME = 4, KIDS = 5, CLASS = 6, OLD = 7,
    EXCL = 8, SHARED = 9;
  const parent = new Int32Array(count).fill(-1);
  const kids = new Array(count);
  const path = new Array(count);
  const byPath = new Map();
  const diff = facts.colours === "growth";

  // the entries come depth-first, each followed by its children: a stack of open parents
  (function link() {
    const open = [];
    for (let i = 0; i < count; i++) {
      while (open.length && open[open.length - 1].left === 0) open.pop();
      const r = rows[i];
      kids[i] = [];
      if (open.length) {
        const p = open[open.length - 1];
        p.left--;
        parent[i] = p.id;
        kids[p.id].push(i);
        const pp = path[p.id];
        if (r[KIND] === "m") path[i] = pp;
        else if (facts.totalTop && p.id === 0) path[i] = r[NAME];
        else path[i] = pp.endsWith("/") ? pp + r[NAME] : pp + "/" + r[NAME];
      } else {
        path[i] = r[NAME];
      }
      if (r[KIND] !== "m" && !byPath.has(path[i])) byPath.set(path[i], i);
      if (r[KIDS] > 0) open.push({ id: i, left: r[KIDS] });
    }
  })();

  const base = facts.si ? 1000 : 1024;
  function human(v) {
    if (facts.mode === "count") return v.toLocaleString("en-US");
    if (v < base) return v + "B";
    const units = "KMGTPE";
    let u = -1;
    let x = v;
    while (x >= base && u < units.length - 1) { x /= base; u++; }
    return (x < 10 ? x.toFixed(1) : Math.round(x).toString()) + units[u];
  }
  function exact(v) {
    const n = v.toLocaleString("en-US");
    return facts.mode === "count" ? n + " entries" : n + " bytes";
  }
  function when(secs) {
    return secs > 0 ? new Date(secs * 1000).toISOString().slice(0, 16).replace("T", " ") + " UTC" : "";
  }
  function share(i, of) {
    const whole = rows[of][SIZE];
    return whole > 0 ? (100 * rows[i][SIZE] / whole).toFixed(1) + "%" : "–";
  }
  function change(i) {
    return rows[i][OLD] === null ? 0 : (rows[i][CLASS] === 3 ? -rows[i][OLD] : rows[i][SIZE] - rows[i][OLD]);
  }
  function signed(v) {
    return v > 0 ? "+" + human(v) : v < 0 ? "−" + human(-v) : "0";
  }
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // what a file's name says it holds: its colour when colouring by kind
  const EXT = {};
  [["media", "jpg jpeg png gif webp bmp tif tiff svg heic raw mp4 mkv avi mov webm m4v mpg mpeg mp3 flac wav ogg opus m4a aac"],
   ["archive", "zip tar gz tgz bz2 xz zst lz4 7z rar iso img dmg deb rpm apk jar whl snap qcow2 vmdk vdi"],
   ["code", "rs c h cc cpp hpp py js ts go java rb php sh pl lua swift kt cs html css scss vue toml yaml yml"],
   ["doc", "pdf txt md rst doc docx odt xls xlsx ods ppt pptx odp epub tex rtf"],
   ["data", "json csv tsv xml db sqlite sqlite3 parquet log sql npy h5 arrow"],
   ["bin", "so a o dll exe bin dylib wasm rlib pyc class ko"]]
    .forEach(([k, list]) => list.split(" ").forEach((e) => { EXT[e] = k; }));
  const KINDS = { d: "directory", f: "file", l: "symlink", o: "other", m: "smaller entries, folded" };
  const GROWTH = ["grown", "shrunk", "new", "gone", "unchanged"];
  const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  function ownerColour(c) {
    const owners = facts.owners || [];
    if (c >= owners.length - 1 && owners.length > 12) return dark ? "#444" : "#ccc";
    const hue = (c * 137.508 + 200) % 360;
    return dark ? "hsl(" + hue + " 40% 34%)" : "hsl(" + hue + " 60% 72%)";
  }
  function fileClass(name) {
    const dot = name.lastIndexOf(".");
    const x = dot > 0 ? EXT[name.slice(dot + 1).toLowerCase()] : undefined;
    return x ? "x-" + x : "k-f";
  }
  // the class and, by owner, the colour of an entry's rectangle
  function paint(e, i) {
    const r = rows[i];
    if (r[KIND] === "m") { e.classList.add("k-m"); return; }
    if (facts.colours === "growth") e.classList.add("g-" + r[CLASS]);
    else if (facts.colours === "owner" && r[CLASS] !== null) e.style.background = ownerColour(r[CLASS]);
    else e.classList.add(r[KIND] === "f" ? fileClass(r[NAME]) : "k-" + r[KIND]);
  }

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
  const HEADER = 15, MAX_DEPTH = 4;
  let budget = 0;
  // draws the children of `i` into `box` of `into` (coordinates inside it)
  function fill(into, i, x0, y0, w, h, depth) {
    // biggest first, the folded entry in its place by size
    const shown = kids[i].filter((k) => rows[k][SIZE] > 0).sort((a, b) => rows[b][SIZE] - rows[a][SIZE]);
    if (!shown.length || w < 2 || h < 2) return;
    const rects = squarify(shown.map((k) => rows[k][SIZE]), 0, 0, w, h);
    for (let n = 0; n < shown.length && budget > 0; n++) {
      const [rx, ry, rw, rh] = rects[n];
      const left = Math.round(x0 + rx), top = Math.round(y0 + ry);
      const width = Math.round(x0 + rx + rw) - left, height = Math.round(y0 + ry + rh) - top;
      if (width < 1 || height < 1) continue;
      const k = shown[n];
      const r = rows[k];
      budget--;
      const e = el("div", "r " + r[KIND]);
      paint(e, k);
      e.setAttribute("data-path", path[k]);
      e.setAttribute("data-size", String(r[SIZE]));
      if (r[KIND] === "m") e.setAttribute("data-folded", String(r[ITEMS]));
      e.dataset.i = k;
      e.style.left = left + "px"; e.style.top = top + "px";
      e.style.width = width + "px"; e.style.height = height + "px";
      if (width > 28 && height > 13) e.appendChild(el("span", "", r[NAME]));
      into.appendChild(e);
      if (r[KIND] === "d" && depth < MAX_DEPTH && width > 24 && height > HEADER + 10) {
        fill(e, k, 1, HEADER, width - 4, height - HEADER - 3, depth + 1);
      }
    }
  }

  let zoom = 0;
  let sort = { key: "size", asc: false };
  let focusTable = false;
  const tip = document.getElementById("tip");
  function describe(i) {
    const r = rows[i];
    const parts = [(r[KIND] === "d" ? "directory " : KINDS[r[KIND]] + " ") + path[i],
      human(r[SIZE]) + " (" + exact(r[SIZE]) + ")", share(i, zoom) + " of " + rows[zoom][NAME],
      r[ITEMS].toLocaleString("en-US") + (r[ITEMS] === 1 ? " item" : " items")];
    if (r[MTIME] > 0) parts.push("modified " + when(r[MTIME]));
    if (r.length > SHARED) parts.push("exclusive " + human(r[EXCL]) + ", shared " + human(r[SHARED]));
    if (diff) parts.push(GROWTH[r[CLASS]] + " " + signed(change(i)) + " (was " + human(r[OLD]) + ")");
    if (facts.colours === "owner" && r[CLASS] !== null && facts.owners[r[CLASS]]) {
      parts.push("owner " + facts.owners[r[CLASS]][0]);
    }
    return parts.join(" · ");
  }
  function highlight(i) {
    map.querySelectorAll(".hl").forEach((e) => e.classList.remove("hl"));
    const e = map.querySelector('[data-i="' + i + '"]');
    if (e) e.classList.add("hl");
  }
  map.addEventListener("mouseover", (ev) => {
    const e = ev.target.closest(".r");
    if (e) tip.textContent = describe(Number(e.dataset.i));
  });
  // a click anywhere inside a child directory's rectangle opens that child
  map.addEventListener("click", (ev) => {
    let e = ev.target.closest(".r");
    while (e && e.parentElement !== map) e = e.parentElement.closest(".r");
    if (e) open(Number(e.dataset.i));
  });
  function hashOf(i) {
    return "#" + encodeURIComponent(path[i]);
  }
  function open(i) {
    if (rows[i][KIND] === "d" && kids[i].length) location.hash = hashOf(i);
  }
  function up() {
    if (parent[zoom] >= 0) location.hash = hashOf(parent[zoom]);
  }

  function crumbs() {
    const ol = document.querySelector("#crumbs ol");
    ol.textContent = "";
    const chain = [];
    for (let i = zoom; i >= 0; i = parent[i]) chain.unshift(i);
    chain.forEach((i) => {
      const li = el("li");
      const a = el("a", "", rows[i][NAME]);
      a.href = hashOf(i);
      if (i === zoom) a.setAttribute("aria-current", "location");
      li.appendChild(a);
      ol.appendChild(li);
    });
  }

  const tbody = document.querySelector("#table tbody");
  function sortedKids() {
    const list = kids[zoom].slice();
    const key = {
      name: (i) => rows[i][NAME], size: (i) => rows[i][SIZE], share: (i) => rows[i][SIZE],
      items: (i) => rows[i][ITEMS], change: change,
    }[sort.key];
    list.sort((a, b) => {
      const x = key(a), y = key(b);
      const c = typeof x === "string" ? x.localeCompare(y) : x - y;
      return (sort.asc ? c : -c) || rows[b][SIZE] - rows[a][SIZE];
    });
    return list;
  }
  function table() {
    document.getElementById("caption").textContent = "Contents of " + path[zoom] + ": " +
      kids[zoom].length + " entries, " + human(rows[zoom][SIZE]);
    document.querySelectorAll("#table th").forEach((th) => {
      const on = th.dataset.key === sort.key;
      th.setAttribute("aria-sort", on ? (sort.asc ? "ascending" : "descending") : "none");
    });
    tbody.textContent = "";
    sortedKids().forEach((i, n) => {
      const r = rows[i];
      const tr = el("tr", r[KIND]);
      tr.tabIndex = n === 0 ? 0 : -1;
      tr.dataset.i = i;
      const name = el("td", "name");
      if (r[KIND] === "d" && kids[i].length) {
        const a = el("a", "", r[NAME]);
        a.href = hashOf(i);
        a.tabIndex = -1;
        name.appendChild(a);
      } else {
        name.appendChild(el("span", "", r[NAME]));
      }
      if (r[KIND] !== "f") name.appendChild(el("span", "sr", " (" + KINDS[r[KIND]] + ")"));
      tr.appendChild(name);
      tr.appendChild(el("td", "num", human(r[SIZE])));
      tr.appendChild(el("td", "num", share(i, zoom)));
      tr.appendChild(el("td", "num", r[ITEMS].toLocaleString("en-US")));
      tr.appendChild(el("td", "num diff-only", diff ? signed(change(i)) : ""));
      tbody.appendChild(tr);
    });
  }
  document.querySelectorAll("#table th button").forEach((b) => {
    b.addEventListener("click", () => {
      const key = b.parentElement.dataset.key;
      sort = sort.key === key ? { key, asc: !sort.asc } : { key, asc: key === "name" };
      table();
    });
  });
  tbody.addEventListener("focusin", (ev) => {
    const tr = ev.target.closest("tr");
    if (!tr) return;
    tbody.querySelectorAll("tr[tabindex='0']").forEach((t) => { if (t !== tr) t.tabIndex = -1; });
    tr.tabIndex = 0;
    const i = Number(tr.dataset.i);
    tip.textContent = describe(i);
    highlight(i);
  });
  tbody.addEventListener("keydown", (ev) => {
    const tr = ev.target.closest("tr");
    if (!tr) return;
    const all = Array.from(tbody.rows);
    const at = all.indexOf(tr);
    const go = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: all.length - 1,
      PageDown: at + 10, PageUp: at - 10 }[ev.key];
    if (go !== undefined) {
      all[Math.max(0, Math.min(all.length - 1, go))].focus();
    } else if (ev.key === "Enter" || ev.key === "ArrowRight") {
      focusTable = true;
      open(Number(tr.dataset.i));
    } else if (ev.key === "ArrowLeft" || ev.key === "Backspace") {
      focusTable = true;
      up();
    } else {
      return;
    }
    ev.preventDefault();
  });

  function legend() {
    const ul = document.getElementById("legend");
    const item = (text, cls, colour) => {
      const li = el("li");
      const sw = el("i", cls || "");
      if (colour) sw.style.background = colour;
      li.appendChild(sw);
      li.appendChild(document.createTextNode(text));
      ul.appendChild(li);
    };
    if (facts.colours === "growth") {
      GROWTH.forEach((g, n) => item(g, "g-" + n));
    } else if (facts.colours === "owner") {
      facts.owners.forEach(([name, size], n) => item(name + " " + human(size), "", ownerColour(n)));
    } else {
      const seen = new Set(rows.map((r) => (r[KIND] === "f" ? fileClass(r[NAME]) : "k-" + r[KIND])));
      [["k-d", "directory"], ["k-f", "file"], ["x-media", "media"], ["x-archive", "archive, image"],
        ["x-code", "source"], ["x-doc", "document"], ["x-data", "data, log"], ["x-bin", "binary"],
        ["k-l", "symlink"], ["k-o", "other"]].forEach(([c, t]) => { if (seen.has(c)) item(t, c); });
    }
    if (rows.some((r) => r[KIND] === "m")) item("smaller entries, folded", "k-m");
  }

  function header() {
    const top = rows[0];
    document.getElementById("title").textContent = path[0];
    document.title = "hogs: " + path[0];
    const dl = document.getElementById("facts");
    const fact = (k, v) => {
      const d = el("div");
      d.appendChild(el("dt", "", k));
      d.appendChild(el("dd", "", v));
      dl.appendChild(d);
    };
    const mode = { disk: "disk usage", apparent: "apparent sizes", count: "entries (inodes)", time: "newest times" };
    fact(facts.paths.length > 1 ? "Paths" : "Path", facts.paths.join(", "));
    fact("Made", when(facts.when));
    fact("Sizes", facts.extents
      ? "disk usage by extents: each range of disk counted once, where it is met first"
      : mode[facts.mode] || facts.mode);
    fact("Total", human(facts.total) + " (" + exact(facts.total) + ")");
    fact("Entries", top[ITEMS].toLocaleString("en-US"));
    facts.notes.forEach((n) => fact("Note", n));
    fact("By", "hogs " + facts.version);
    if (diff) document.body.classList.add("diff");
  }

  function fromHash() {
    let p;
    try { p = decodeURIComponent(location.hash.slice(1)); } catch (e) { p = ""; }
    // a path the page folded away: its nearest ancestor the page holds
    while (p && !byPath.has(p)) {
      const cut = p.lastIndexOf("/");
      p = cut > 0 ? p.slice(0, cut) : "";
    }
    return p ? byPath.get(p) : 0;
  }
  function render() {
    zoom = fromHash();
    budget = 5000;
    map.textContent = "";
    fill(map, zoom, 0, 0, map.clientWidth, map.clientHeight, 0);
    crumbs();
    table();
    tip.textContent = "";
    if (focusTable && tbody.rows.length) tbody.rows[0].focus();
    focusTable = false;
    // what is drawn now, for scripts that wait for a zoom to be drawn, not only asked for
    document.body.dataset.drawn = location.hash;
  }
  let resizing = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(render, 150);
  });
  window.addEventListener("hashchange", render);
  header();
  legend();
  render();
  document.body.dataset.ready = "1";
})();
