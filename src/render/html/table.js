// What the page does around the map: the details of an entry, clicks and taps, the
// breadcrumb, the table and its keys, the search, the legend and the header.

let zoom = 0;
let sort = { key: "size", asc: false };
let focusTable = false;
// the row to focus once drawn: the directory a Backspace came up from
let cameFrom = -1;
const tip = document.getElementById("tip");
const pop = document.getElementById("pop");
function describe(i) {
  const r = rows[i];
  const parts = [(r[KIND] === "d" ? "directory " : KINDS[r[KIND]] + " ") + shownPath(i),
    (gone(i) ? "gone, was " + human(r[OLD]) : human(r[SIZE]) + " (" + exact(r[SIZE]) + ")"),
    share(i, zoom) + " of " + label[zoom],
    r[ITEMS].toLocaleString("en-US") + (r[ITEMS] === 1 ? " item" : " items")];
  if (r[MTIME] > 0) parts.push("modified " + when(r[MTIME]));
  if (r.length > SHARED) parts.push("exclusive " + human(r[EXCL]) + ", shared " + human(r[SHARED]));
  if (diff && !gone(i)) parts.push(GROWTH[r[CLASS]] + " " + signed(change(i)) + " (was " + human(r[OLD]) + ")");
  if (facts.colours === "owner" && ownerName(r[CLASS])) parts.push("owner " + ownerName(r[CLASS]));
  return parts.join(" · ");
}
function describeRect(e) {
  const i = Number(e.dataset.i);
  if (i >= 0) return describe(i);
  const n = Number(e.dataset.fold);
  return n.toLocaleString("en-US") + " smaller entries of " + shownName(e.getAttribute("data-path")) +
    " · " + human(Number(e.getAttribute("data-size")));
}
function highlight(i) {
  map.querySelectorAll(".hl").forEach((e) => e.classList.remove("hl"));
  const e = map.querySelector('[data-i="' + i + '"]');
  if (e) e.classList.add("hl");
}
// the details of a rectangle by the pointer (or by the finger), inside the picture
function showPop(e, x, y) {
  pop.textContent = describeRect(e);
  pop.hidden = false;
  const box = document.getElementById("picture").getBoundingClientRect();
  const px = Math.min(Math.max(0, x - box.left + 12), Math.max(0, box.width - pop.offsetWidth));
  let py = y - box.top + 16;
  if (py + pop.offsetHeight > box.height) py = Math.max(0, y - box.top - pop.offsetHeight - 8);
  pop.style.left = px + "px"; pop.style.top = py + "px";
}
map.addEventListener("mouseover", (ev) => {
  const e = ev.target.closest(".r");
  if (e) tip.textContent = describeRect(e);
});
map.addEventListener("mousemove", (ev) => {
  const e = ev.target.closest(".r");
  if (e && ev.pointerType !== "touch") showPop(e, ev.clientX, ev.clientY);
});
map.addEventListener("mouseleave", () => { pop.hidden = true; });
// A click anywhere inside a child directory's rectangle opens that child. A tap first
// selects what is under the finger and tells its facts; a second tap on it opens.
let selected = null;
map.addEventListener("click", (ev) => {
  const hit = ev.target.closest(".r");
  if (!hit) return;
  let e = hit;
  while (e && e.parentElement !== map) e = e.parentElement.closest(".r");
  if (ev.pointerType === "touch" && selected !== hit) {
    map.querySelectorAll(".hl").forEach((x) => x.classList.remove("hl"));
    hit.classList.add("hl");
    selected = hit;
    tip.textContent = describeRect(hit);
    showPop(hit, ev.clientX, ev.clientY);
    return;
  }
  if (e) open(Number(e.dataset.i));
});
function hashOf(i) {
  return "#" + encodeURIComponent(path[i]);
}
function open(i) {
  if (i >= 0 && rows[i][KIND] === "d" && kids[i].length) location.hash = hashOf(i);
}
function up() {
  if (parent[zoom] >= 0) {
    cameFrom = zoom;
    location.hash = hashOf(parent[zoom]);
  }
}

// the breadcrumb: the top, "…" and the last two when the chain is long
function crumbs() {
  const ol = document.querySelector("#crumbs ol");
  ol.textContent = "";
  const chain = [];
  for (let i = zoom; i >= 0; i = parent[i]) chain.unshift(i);
  const shown = chain.length > 5 ? [chain[0], -1].concat(chain.slice(-3)) : chain;
  shown.forEach((i) => {
    const li = el("li");
    if (i < 0) {
      li.appendChild(el("span", "", "…"));
      li.title = (chain.length - 4) + " levels";
    } else {
      const a = el("a", "", label[i]);
      a.href = hashOf(i);
      if (i === zoom) a.setAttribute("aria-current", "location");
      li.appendChild(a);
    }
    ol.appendChild(li);
  });
}
