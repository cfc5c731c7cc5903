// The legend, the header, and drawing the zoom the URL names.

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
  if (diff) {
    GROWTH.forEach((g, n) => item(n === GONE ? g + " (listed, no area)" : g, "g-" + n));
  } else if (facts.colours === "owner") {
    facts.owners.forEach(([name, size], n) => item(shownName(name) + " " + human(size), "", ownerColour(n)));
  } else {
    const seen = new Set(rows.map((r) => (r[KIND] === "f" ? fileClass(r[NAME]) : "k-" + r[KIND])));
    [["k-d", "directory"], ["k-f", "file"], ["x-media", "media"], ["x-archive", "archive, image"],
      ["x-code", "source"], ["x-doc", "document"], ["x-data", "data, log"], ["x-bin", "binary, library"],
      ["k-l", "symlink"], ["k-o", "other"]].forEach(([c, t]) => { if (seen.has(c)) item(t, c); });
  }
  item("smaller entries, folded", "k-m");
  item("more inside, not drawn", "more");
}

function header() {
  const top = rows[0];
  document.getElementById("title").textContent = label[0];
  document.title = "hogs: " + label[0];
  const dl = document.getElementById("facts");
  const fact = (k, v) => {
    const d = el("div");
    d.appendChild(el("dt", "", k));
    d.appendChild(el("dd", "", v));
    dl.appendChild(d);
  };
  const mode = { disk: "disk usage", apparent: "apparent sizes", count: "entries (inodes)", time: "newest times" };
  fact(facts.paths.length > 1 ? "Paths" : "Path", facts.paths.map(shownName).join(", "));
  fact("Made", when(facts.when));
  fact("Sizes", (facts.extents
    ? "disk usage by extents: each range of disk counted once, where it is met first"
    : mode[facts.mode] || facts.mode) + (facts.mode === "count" ? "" : facts.si
    ? ", in powers of 1000 (K = 1000 bytes)" : ", in powers of 1024 (Ki = 1024 bytes)"));
  if (diff) {
    fact("Then", human(facts.oldTotal) + " (" + exact(facts.oldTotal) + ")");
    fact("Now", human(facts.total) + " (" + exact(facts.total) + ")");
    fact("Change", signed(facts.total - facts.oldTotal));
  } else {
    fact("Total", human(facts.total) + " (" + exact(facts.total) + ")");
  }
  fact("Entries", top[ITEMS].toLocaleString("en-US"));
  facts.notes.forEach((n) => fact("Note", n));
  fact("By", "hogs " + facts.version);
  if (diff) document.body.classList.add("diff");
  if (facts.colours === "owner") document.body.classList.add("owners");
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
  selected = null;
  pop.hidden = true;
  drawMap(zoom);
  crumbs();
  table();
  tip.textContent = "";
  const back = cameFrom >= 0 ? tbody.querySelector('tr[data-i="' + cameFrom + '"]') : null;
  if (back) {
    back.focus();
    if (!focusTable) highlight(cameFrom);
  } else if (focusTable && tbody.rows.length) {
    tbody.rows[0].focus();
  }
  focusTable = false;
  cameFrom = -1;
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
