// The table of the zoomed directory's children, its keys, and the search.

const tbody = document.querySelector("#table tbody");
function sortedKids() {
  const list = kids[zoom].slice();
  const key = {
    name: (i) => label[i], size: (i) => rows[i][SIZE], share: (i) => rows[i][SIZE],
    items: (i) => rows[i][ITEMS], change: change,
  }[sort.key];
  list.sort((a, b) => {
    // what is gone is listed apart, after what is there
    const g = Number(gone(a)) - Number(gone(b));
    if (g) return g;
    const x = key(a), y = key(b);
    const c = typeof x === "string" ? x.localeCompare(y) : x - y;
    return (sort.asc ? c : -c) || rows[b][SIZE] - rows[a][SIZE] || (rows[b][OLD] || 0) - (rows[a][OLD] || 0);
  });
  return list;
}
function caption() {
  const r = rows[zoom];
  let text = "Contents of " + shownPath(zoom) + ": ";
  if (r[KIND] !== "d") return text + "a " + KINDS[r[KIND]] + ", " + human(r[SIZE]);
  const all = fullCount(zoom);
  const held = kids[zoom].filter((k) => rows[k][KIND] !== "m").length;
  if (!all) return text + "empty directory";
  text += all.toLocaleString("en-US") + (all === 1 ? " entry" : " entries");
  if (held < all) text += " (" + held.toLocaleString("en-US") + " shown)";
  text += ", " + human(r[SIZE]);
  if (diff) {
    const lost = kids[zoom].filter(gone);
    text += " · Δ " + signed(change(zoom));
    if (lost.length) text += " · " + lost.length + " removed (" + human(lost.reduce((s, k) => s + rows[k][OLD], 0)) + ")";
  }
  return text;
}
function row(i, n) {
  const r = rows[i];
  const tr = el("tr", r[KIND] + (gone(i) ? " gone" : ""));
  tr.tabIndex = n === 0 ? 0 : -1;
  tr.dataset.i = i;
  const name = el("td", "name");
  if (r[KIND] === "d" && kids[i].length) {
    const a = el("a", "", label[i]);
    a.href = hashOf(i);
    a.tabIndex = -1;
    name.appendChild(a);
  } else {
    name.appendChild(el("span", "", label[i]));
  }
  if (r[KIND] !== "f") name.appendChild(el("span", "sr", " (" + KINDS[r[KIND]] + ")"));
  tr.appendChild(name);
  tr.appendChild(el("td", "num", gone(i) ? "was " + human(r[OLD]) : human(r[SIZE])));
  tr.appendChild(el("td", "num", gone(i) ? "–" : share(i, zoom)));
  tr.appendChild(el("td", "num", r[ITEMS].toLocaleString("en-US")));
  tr.appendChild(el("td", "num diff-only", diff ? signed(change(i)) : ""));
  tr.appendChild(el("td", "owner-only", owner(i)));
  return tr;
}
function owner(i) {
  return facts.colours === "owner" ? ownerName(rows[i][CLASS]) : "";
}
function table() {
  document.getElementById("caption").textContent = caption();
  document.querySelectorAll("#table th").forEach((th) => {
    const on = th.dataset.key === sort.key;
    th.setAttribute("aria-sort", on ? (sort.asc ? "ascending" : "descending") : "none");
  });
  tbody.textContent = "";
  sortedKids().forEach((i, n) => tbody.appendChild(row(i, n)));
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

// The search: a name or a glob (`*.iso`; a plain word matches inside names) among the
// entries the page holds, biggest first; a click on one zooms to it (a file: to its directory).
const found = document.getElementById("found");
const SHOW_FOUND = 500;
function matcher(q) {
  if (!/[*?]/.test(q)) return (name) => name.toLowerCase().includes(q.toLowerCase());
  const re = new RegExp("^" + q.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".") + "$", "i");
  return (name) => re.test(name);
}
function search(q) {
  found.textContent = "";
  if (!q) { found.hidden = true; return; }
  const match = matcher(q);
  const hits = [];
  for (let i = 1; i < count; i++) if (rows[i][KIND] !== "m" && match(label[i])) hits.push(i);
  hits.sort((a, b) => rows[b][SIZE] - rows[a][SIZE]);
  const total = hits.reduce((s, i) => s + rows[i][SIZE], 0);
  found.appendChild(el("p", "", hits.length.toLocaleString("en-US") + " found, " + human(total) +
    (hits.length > SHOW_FOUND ? " (the biggest " + SHOW_FOUND + " listed)" : "") +
    " among the " + count.toLocaleString("en-US") + " entries this page holds"));
  const ol = el("ol");
  hits.slice(0, SHOW_FOUND).forEach((i) => {
    const li = el("li");
    const a = el("a", "", shownPath(i));
    const dir = rows[i][KIND] === "d" && kids[i].length ? i : Math.max(0, parent[i]);
    a.href = hashOf(dir);
    a.dataset.i = i;
    li.appendChild(a);
    li.appendChild(el("span", "num", " " + human(rows[i][SIZE])));
    ol.appendChild(li);
  });
  found.appendChild(ol);
  found.hidden = false;
}
document.getElementById("find").addEventListener("submit", (ev) => {
  ev.preventDefault();
  search(document.getElementById("q").value.trim());
});
found.addEventListener("click", (ev) => {
  const a = ev.target.closest("a");
  if (a) cameFrom = Number(a.dataset.i);
});
