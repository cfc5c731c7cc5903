// Opens a page of `hogs --html` in Debian's chromium and reports what it shows, as JSON on
// stdout: tests/cli/html.rs runs it and checks the report against GNU du.
//
//   node report.js PAGE.html [JOURNEY]
//
// JOURNEY (JSON): {"zoom": PATH} clicks inside the rectangle of the child directory PATH
// (on something drawn inside it, when there is), then goes back; {"keys": true} also walks
// the table with the keyboard; {"screenshot": FILE} saves a PNG of the page as first drawn;
// {"dark": true} asks for the dark colour scheme; {"viewport": [W, H]} sizes the window;
// {"touch": true} makes it a phone's (taps, see `taps`); {"search": Q} types Q in the search
// and presses Enter, then clicks the first match; {"up": PATH} opens PATH from the table by
// keyboard and comes back up with Backspace; {"csp": PATH} opens the page with its own
// Content-Security-Policy in force and does the zoom into PATH with real mouse and keyboard
// events, reading the page through locators only (see `underPolicy`).
"use strict";
const path = require("path");
const { chromium } = require("playwright-core");

const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run"];

async function main() {
  const page_file = path.resolve(process.argv[2]);
  const journey = JSON.parse(process.argv[3] || "{}");
  const url = "file://" + page_file.split("/").map(encodeURIComponent).join("/");
  // {"hash": "#…"}: the page opened on that zoom
  const start_url = url + (journey.hash || "");
  const browser = await chromium.launch({
    executablePath: process.env.HOGS_CHROMIUM || "/usr/bin/chromium",
    args: ARGS,
    headless: true,
  });
  const report = { requests: [], console: [], pageErrors: [], dialogs: 0 };
  try {
    const context = await browser.newContext({
      viewport: journey.viewport ? { width: journey.viewport[0], height: journey.viewport[1] } : { width: 1280, height: 900 },
      hasTouch: !!journey.touch,
      isMobile: !!journey.touch,
      colorScheme: journey.dark ? "dark" : "light",
      // The checks below read the page with page.evaluate. Under the page's policy Chromium
      // runs it all the same (the DevTools protocol lets the code it is handed compile), but
      // then the page's own code may eval while it runs: bypassed, nothing but the page's
      // code keeps names inert. The policy in force is `underPolicy`'s journey.
      bypassCSP: !journey.csp,
    });
    // every request but the page itself is aborted and counted
    await context.route("**/*", (route) => {
      const u = route.request().url();
      if (u.split("#")[0] === url) return route.continue();
      report.requests.push(u);
      return route.abort();
    });
    const page = await context.newPage();
    page.on("request", (r) => {
      if (r.url().split("#")[0] !== url && !report.requests.includes(r.url())) report.requests.push(r.url());
    });
    page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") report.console.push(m.text()); });
    page.on("pageerror", (e) => report.pageErrors.push(String(e)));
    page.on("dialog", (d) => { report.dialogs++; d.dismiss(); });
    const start = Date.now();
    await page.goto(start_url);
    await page.waitForSelector("body[data-ready]", { timeout: 30000 });
    report.loadMs = Date.now() - start;
    // read through locators, which need no code evaluated in the page (see `underPolicy`)
    report.sizedElsewhere = await page.locator("[data-size]").count() - await page.locator("#map .r[data-size]").count();
    report.undrawnPaths = await page.locator("#map .r:not([data-path])").count();
    report.text = await page.locator("body").innerText();
    report.scripts = await page.locator("script").count();
    report.images = await page.locator("img").count();
    if (journey.csp) report.csp = await underPolicy(page, journey.csp);
    else await journeys(page, journey, report);
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(report));
}

// The journeys of a page read with page.evaluate (its policy bypassed).
async function journeys(page, journey, report) {
  report.first = await view(page);
  if (journey.screenshot) await page.screenshot({ path: journey.screenshot, fullPage: true });
  if (journey.zoom) {
    await clickInside(page, journey.zoom);
    await page.waitForFunction((h) => location.hash !== h, report.first.hash);
    await drawn(page);
    report.zoomed = await view(page);
    await page.goBack();
    await page.waitForFunction((h) => location.hash === h, report.first.hash);
    await drawn(page);
    report.back = await view(page);
  }
  if (journey.sort) {
    await page.click("th[data-key=name] button");
    report.sortedByName = await view(page);
  }
  if (journey.keys) report.keys = await keys(page);
  if (journey.search) report.search = await searching(page, journey.search);
  if (journey.up) report.up = await upAgain(page, journey.up);
  if (journey.tap) report.taps = await taps(page, journey.tap);
}

// Types `q` in the search, presses Enter: what is listed; then a click on the first match.
async function searching(page, q) {
  const out = {};
  await page.fill("#q", q);
  await page.press("#q", "Enter");
  out.found = await page.evaluate(() => Array.from(document.querySelectorAll("#found li")).map((l) => l.firstChild.textContent));
  out.said = await page.evaluate(() => document.querySelector("#found p").textContent);
  if (out.found.length) {
    const before = await page.evaluate(() => location.hash);
    await page.click("#found li a");
    await page.waitForFunction((h) => location.hash !== h, before).catch(() => {});
    await drawn(page);
    out.opened = await view(page);
  }
  return out;
}

// Opens the directory `p` from the table with Enter, comes up with Backspace: the focused row.
async function upAgain(page, p) {
  const out = {};
  await page.evaluate((p) => {
    const tr = Array.from(document.querySelectorAll("#table tbody tr")).find((t) => t.querySelector("td").firstChild.textContent === p);
    tr.focus();
  }, p);
  let before = await page.evaluate(() => location.hash);
  await page.keyboard.press("Enter");
  await page.waitForFunction((h) => location.hash !== h, before);
  await drawn(page);
  before = await page.evaluate(() => location.hash);
  await page.keyboard.press("Backspace");
  await page.waitForFunction((h) => location.hash !== h, before);
  await drawn(page);
  out.focused = (await view(page)).focused;
  return out;
}

// A phone: a tap on a nested rectangle of the top rectangle `p` tells its facts by it and
// zooms nowhere; a second tap on it zooms into `p`.
async function taps(page, p) {
  const out = {};
  const box = await page.evaluate((p) => {
    const top = Array.from(document.querySelectorAll("#map > .r")).find((e) => e.getAttribute("data-path") === p);
    if (!top) return null;
    const inner = top.querySelector(".r") || top;
    const b = inner.getBoundingClientRect();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2, path: inner.getAttribute("data-path") };
  }, p);
  if (!box) throw new Error("no rectangle drawn for " + p);
  out.tapped = box.path;
  await page.touchscreen.tap(box.x, box.y);
  await page.waitForTimeout(200);
  out.first = await view(page);
  await page.touchscreen.tap(box.x, box.y);
  await page.waitForFunction((h) => location.hash !== h, out.first.hash).catch(() => {});
  await drawn(page);
  out.second = await view(page);
  return out;
}

// What the page shows now: the zoom, the breadcrumb, the table, the top rectangles.
function view(page) {
  return page.evaluate(() => {
    const rect = (e) => {
      const b = e.getBoundingClientRect();
      return { path: e.getAttribute("data-path"), size: Number(e.getAttribute("data-size")),
        area: b.width * b.height, folded: e.hasAttribute("data-folded"),
        colour: getComputedStyle(e).backgroundColor };
    };
    // the map's blank: its area no top rectangle covers (they never overlap: a squarified
    // layout tiles the map; hit-testing points instead takes a minute on 6,000 rectangles)
    const m = document.getElementById("map").getBoundingClientRect();
    const inner = { left: m.left + 1, top: m.top + 1, right: m.right - 1, bottom: m.bottom - 1 };
    let covered = 0;
    for (const e of document.querySelectorAll("#map > .r")) {
      const b = e.getBoundingClientRect();
      const w = Math.min(b.right, inner.right) - Math.max(b.left, inner.left);
      const h = Math.min(b.bottom, inner.bottom) - Math.max(b.top, inner.top);
      if (w > 0 && h > 0) covered += w * h;
    }
    const blank = Math.max(0, 1 - covered / ((inner.right - inner.left) * (inner.bottom - inner.top)));
    return {
      blank,
      mapWidth: m.width,
      pageWidth: document.documentElement.scrollWidth,
      pop: (document.getElementById("pop") || { hidden: true }).hidden ? null : document.getElementById("pop").textContent,
      hash: location.hash,
      crumbs: Array.from(document.querySelectorAll("#crumbs li")).map((l) => l.textContent),
      table: Array.from(document.querySelectorAll("#table tbody tr td:first-child")).map((t) => t.firstChild.textContent),
      caption: document.getElementById("caption").textContent,
      owners: Array.from(document.querySelectorAll("#table tbody tr")).map((t) => [t.querySelector("td").firstChild.textContent, (t.querySelector("td.owner-only") || {}).textContent || ""]),
      shares: Array.from(document.querySelectorAll("#table tbody tr:not(.gone) td:nth-child(3)")).map((t) => t.textContent),
      sizes: Array.from(document.querySelectorAll("#table tbody tr td:nth-child(2)")).map((t) => t.textContent),
      rects: Array.from(document.querySelectorAll("#map > .r")).map(rect),
      nested: document.querySelectorAll("#map .r .r").length,
      focused: document.activeElement && document.activeElement.closest("tbody tr")
        ? document.activeElement.querySelector("td").firstChild.textContent : null,
    };
  });
}

// Waits until the page has drawn what its URL asks for: the URL changes first, the page
// draws on the hashchange event after, and reading rectangles in between reads a view that
// is being replaced.
async function drawn(page) {
  const want = new URL(page.url()).hash;
  for (let i = 0; i < 200; i++) {
    if ((await page.locator("body").getAttribute("data-drawn")) === want) return;
    await page.waitForTimeout(50);
  }
  throw new Error("the page never drew " + want);
}

// The page as its policy leaves it: nothing here evaluates code in the page, every read is
// a locator's (attributes, text, boxes: Playwright's injected script, which the DevTools
// protocol installs whatever the policy says), every action a real mouse or keyboard event.
// Zooms into the child directory `p` by a click inside its rectangle, shows its tip by
// hovering, goes up with Backspace from the table, then proves the policy was in force: a
// script the page is handed may not eval (the one read that needs page.evaluate, last).
async function underPolicy(page, p) {
  const out = {};
  const seen = async () => {
    const rects = [];
    for (const r of await page.locator("#map > .r").all()) {
      const b = await r.boundingBox();
      rects.push({ path: await r.getAttribute("data-path"), size: Number(await r.getAttribute("data-size")),
        area: b ? b.width * b.height : 0, folded: (await r.getAttribute("data-folded")) !== null });
    }
    return {
      hash: new URL(page.url()).hash,
      crumbs: await page.locator("#crumbs li").allTextContents(),
      table: await page.locator("#table tbody td.name > :first-child").allTextContents(),
      rects,
      nested: await page.locator("#map .r .r").count(),
    };
  };
  out.first = await seen();
  const top = page.locator("#map > .r[data-path=" + JSON.stringify(p) + "]");
  const inner = top.locator(".r .r").or(top.locator(".r")).first();
  const target = (await inner.count()) ? inner : top;
  const box = await target.boundingBox();
  if (!box) throw new Error("no rectangle drawn for " + p);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  out.tip = await page.locator("#tip").textContent();
  await page.mouse.down();
  await page.mouse.up();
  await page.waitForURL((u) => u.hash !== out.first.hash);
  await drawn(page);
  out.zoomed = await seen();
  for (let i = 0; i < 40 && !(await page.locator("#table tbody tr:focus").count()); i++) {
    await page.keyboard.press("Tab");
  }
  out.focused = await page.locator("#table tbody tr:focus td.name > :first-child").allTextContents();
  await page.keyboard.press("Backspace");
  await page.waitForURL((u) => u.hash !== out.zoomed.hash);
  await drawn(page);
  out.up = await seen();
  await page.evaluate(() => {
    document.addEventListener("securitypolicyviolation", (e) => { document.body.dataset.refused = e.violatedDirective; });
    setTimeout(() => { try { eval("0"); document.body.dataset.evalRan = "1"; } catch (e) { /* refused */ } }, 0);
  });
  await page.locator("body[data-refused]").waitFor({ timeout: 5000 }).catch(() => {});
  out.refused = await page.locator("body").getAttribute("data-refused");
  out.evalRan = (await page.locator("body").getAttribute("data-eval-ran")) !== null;
  return out;
}

// Clicks the deepest thing drawn inside the top rectangle of `p` (a nested file or
// directory when there is one: a click on it zooms into `p` all the same).
async function clickInside(page, p) {
  const box = await page.evaluate((p) => {
    const top = Array.from(document.querySelectorAll("#map > .r")).find((e) => e.getAttribute("data-path") === p);
    if (!top) return null;
    const inner = top.querySelector(".r .r") || top.querySelector(".r") || top;
    const b = inner.getBoundingClientRect();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  }, p);
  if (!box) throw new Error("no rectangle drawn for " + p);
  await page.mouse.click(box.x, box.y);
}

// The table from the keyboard alone: Tab into it, move, open a directory, go back up.
async function keys(page) {
  const out = {};
  await page.focus("body");
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab");
    const inRow = await page.evaluate(() => !!(document.activeElement && document.activeElement.closest("tbody tr")));
    if (inRow) break;
  }
  const focused = () => page.evaluate(() => {
    const tr = document.activeElement && document.activeElement.closest("tbody tr");
    return tr ? tr.querySelector("td").firstChild.textContent : null;
  });
  out.tabbed = await focused();
  await page.keyboard.press("ArrowDown");
  out.down = await focused();
  await page.keyboard.press("End");
  out.end = await focused();
  await page.keyboard.press("Home");
  out.home = await focused();
  out.tip = await page.evaluate(() => document.getElementById("tip").textContent);
  const before = await page.evaluate(() => location.hash);
  await page.keyboard.press("Enter");
  await page.waitForFunction((h) => location.hash !== h, before).catch(() => {});
  await drawn(page);
  out.entered = await view(page);
  const inside = await page.evaluate(() => location.hash);
  await page.keyboard.press("Backspace");
  await page.waitForFunction((h) => location.hash !== h, inside).catch(() => {});
  await drawn(page);
  out.left = await view(page);
  return out;
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + "\n");
  process.exit(1);
});
