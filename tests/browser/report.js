// Opens a page of `hogs --html` in Debian's chromium and reports what it shows, as JSON on
// stdout: tests/cli/html.rs runs it and checks the report against GNU du.
//
//   node report.js PAGE.html [JOURNEY]
//
// JOURNEY (JSON): {"zoom": PATH} clicks inside the rectangle of the child directory PATH
// (on something drawn inside it, when there is), then goes back; {"keys": true} also walks
// the table with the keyboard; {"screenshot": FILE} saves a PNG of the page as first drawn;
// {"dark": true} asks for the dark colour scheme.
"use strict";
const path = require("path");
const { chromium } = require("playwright-core");

const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run"];

async function main() {
  const page_file = path.resolve(process.argv[2]);
  const journey = JSON.parse(process.argv[3] || "{}");
  const url = "file://" + page_file.split("/").map(encodeURIComponent).join("/");
  const browser = await chromium.launch({
    executablePath: process.env.HOGS_CHROMIUM || "/usr/bin/chromium",
    args: ARGS,
    headless: true,
  });
  const report = { requests: [], console: [], pageErrors: [], dialogs: 0 };
  try {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      colorScheme: journey.dark ? "dark" : "light",
      // the page's own policy forbids eval, which playwright's page.evaluate needs; without
      // it the checks below are stricter (nothing but the page's code keeps names inert)
      bypassCSP: true,
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
    await page.goto(url);
    await page.waitForSelector("body[data-ready]", { timeout: 30000 });
    report.loadMs = Date.now() - start;
    report.first = await view(page);
    report.sizedElsewhere = await page.evaluate(() =>
      Array.from(document.querySelectorAll("[data-size]")).filter((e) => !(e.classList.contains("r") && e.closest("#map"))).length);
    report.undrawnPaths = await page.evaluate(() =>
      Array.from(document.querySelectorAll("#map .r")).filter((e) => !e.hasAttribute("data-path")).length);
    report.text = await page.evaluate(() => document.body.innerText);
    report.scripts = await page.evaluate(() => document.scripts.length);
    report.images = await page.evaluate(() => document.images.length);
    if (journey.screenshot) await page.screenshot({ path: journey.screenshot, fullPage: true });
    if (journey.zoom) {
      await clickInside(page, journey.zoom);
      await page.waitForFunction((h) => location.hash !== h, report.first.hash);
      report.zoomed = await view(page);
      await page.goBack();
      await page.waitForFunction((h) => location.hash === h, report.first.hash);
      report.back = await view(page);
    }
    if (journey.sort) {
      await page.click("th[data-key=name] button");
      report.sortedByName = await view(page);
    }
    if (journey.keys) report.keys = await keys(page);
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(report));
}

// What the page shows now: the zoom, the breadcrumb, the table, the top rectangles.
function view(page) {
  return page.evaluate(() => {
    const rect = (e) => {
      const b = e.getBoundingClientRect();
      return { path: e.getAttribute("data-path"), size: Number(e.getAttribute("data-size")),
        area: b.width * b.height, folded: e.hasAttribute("data-folded") };
    };
    return {
      hash: location.hash,
      crumbs: Array.from(document.querySelectorAll("#crumbs li")).map((l) => l.textContent),
      table: Array.from(document.querySelectorAll("#table tbody tr td:first-child")).map((t) => t.firstChild.textContent),
      caption: document.getElementById("caption").textContent,
      rects: Array.from(document.querySelectorAll("#map > .r")).map(rect),
      nested: document.querySelectorAll("#map .r .r").length,
      focused: document.activeElement && document.activeElement.closest("tbody tr")
        ? document.activeElement.querySelector("td").firstChild.textContent : null,
    };
  });
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
  out.entered = await view(page);
  const inside = await page.evaluate(() => location.hash);
  await page.keyboard.press("Backspace");
  await page.waitForFunction((h) => location.hash !== h, inside).catch(() => {});
  out.left = await view(page);
  return out;
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + "\n");
  process.exit(1);
});
