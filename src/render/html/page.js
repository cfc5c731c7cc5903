"use strict";
// The page of `hogs --html`: reads the JSON the report carries and draws the zoomed
// directory as a squarified treemap (map.js) and as a table (table.js). Names only ever
// reach the document through textContent and setAttribute, never as markup. The three files
// are one script, in this order, inside one function.
const data = JSON.parse(document.getElementById("hogs-data").textContent);
const facts = data.facts;
const rows = data.nodes;
const count = rows.length;
// columns of the entries: [name, size, kind, items, mtime, children, class, old size]
const NAME = 0, SIZE = 1, KIND = 2, ITEMS = 3, MTIME = 4, KIDS = 5, CLASS = 6, OLD = 7,
  EXCL = 8, SHARED = 9;
const parent = new Int32Array(count).fill(-1);
const kids = new Array(count);
// a name as the page holds it is distinct (a backslash in it is written `\\`, a byte that is
// not UTF-8 `\xff`, a control or direction character `\n`, `\u{202e}`); as shown, it is as
// the terminal views show it (a backslash is one)
const path = new Array(count);
const label = new Array(count);
const byPath = new Map();
const diff = facts.colours === "growth";
const GONE = 3;
function shownName(name) {
  return name.replace(/\\\\/g, "\\");
}

// the entries come depth-first, each followed by its children: a stack of open parents
(function link() {
  const open = [];
  for (let i = 0; i < count; i++) {
    while (open.length && open[open.length - 1].left === 0) open.pop();
    const r = rows[i];
    kids[i] = [];
    label[i] = shownName(r[NAME]);
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
function shownPath(i) {
  return shownName(path[i]);
}

// sizes as the terminal writes them: `4.2Gi` in powers of 1024, `4.2G` under `-o si`
const base = facts.si ? 1000 : 1024;
function human(v) {
  if (facts.mode === "count") return v.toLocaleString("en-US");
  if (v < base) return v + "B";
  const units = "KMGTPE";
  let u = -1;
  let x = v;
  while (x >= base && u < units.length - 1) { x /= base; u++; }
  return (x < 10 ? x.toFixed(1) : Math.round(x).toString()) + units[u] + (facts.si ? "" : "i");
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
function gone(i) {
  return diff && rows[i][CLASS] === GONE;
}
function change(i) {
  return rows[i][OLD] === null ? 0 : (gone(i) ? -rows[i][OLD] : rows[i][SIZE] - rows[i][OLD]);
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
// the entries below `i` the page holds, not folded ones (`i` itself included)
function fullCount(i) {
  let n = 0;
  for (const k of kids[i]) n += rows[k][KIND] === "m" ? rows[k][ITEMS] : 1;
  return n;
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
// owners: a colour each from a palette of distinct hues, "others" grey; an entry whose owner
// is among the others has a class past the legend, the place of its owner's name there
const OWNER_HUES = [210, 120, 30, 280, 0, 175, 55, 330, 95, 250, 15];
function ownerColour(c) {
  const owners = facts.owners || [];
  const others = (facts.otherOwners || []).length > 0;
  if (others && c >= owners.length - 1) return dark ? "#4a4a4a" : "#c8c8c8";
  const hue = OWNER_HUES[c % OWNER_HUES.length];
  return dark ? "hsl(" + hue + " 45% 34%)" : "hsl(" + hue + " 65% 72%)";
}
function ownerName(c) {
  const owners = facts.owners || [];
  if (c === null || c === undefined) return "";
  if (c < owners.length) return shownName(owners[c][0]);
  const name = (facts.otherOwners || [])[c - owners.length];
  return name === undefined ? "" : shownName(name);
}
function fileClass(name) {
  // `libLLVM-15.so.1`: a shared library by the extension before its version
  const m = /\.([A-Za-z0-9]+)(?:\.\d+)*$/.exec(name);
  const x = m && m.index > 0 ? EXT[m[1].toLowerCase()] : undefined;
  return x ? "x-" + x : "k-f";
}
// the class and, by owner, the colour of an entry's rectangle
function paint(e, i) {
  const r = rows[i];
  if (r[KIND] === "m") { e.classList.add("k-m"); return; }
  if (diff) e.classList.add("g-" + r[CLASS]);
  else if (facts.colours === "owner" && r[CLASS] !== null) e.style.background = ownerColour(r[CLASS]);
  else e.classList.add(r[KIND] === "f" ? fileClass(r[NAME]) : "k-" + r[KIND]);
}
