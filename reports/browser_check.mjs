// Open a rendered allure report in headless Chromium, go to one test's page and report
// what a person would see there: whether each expected text is visible, plus a
// screenshot. Used by tests/reports/test_report_browser.py.
//
//   node reports/browser_check.mjs REPORT_INDEX_HTML TEST_NAME SCREENSHOT_PNG TEXT...
//
// Prints one JSON object: {"found": {TEXT: bool}, "tree_listed": bool, "url": ...,
// "screenshot": ...}. The test's page is reached through the tree when it lists the test;
// when it does not within TREE_WAIT_MS (a slow machine, a collapsed group), the page is
// opened by the test's id from test-results.json, and what the tree showed is printed to
// stderr so a CI log says why.
// Chromium comes from Debian (CHROMIUM or /usr/bin/chromium); playwright-core never
// downloads a browser of its own.
import { chromium } from "playwright-core";
import { pathToFileURL } from "node:url";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const TREE_WAIT_MS = 45000;
const TEXT_WAIT_MS = 60000;
const POLL_MS = 250;

// Whether text becomes visible in the page or any of its frames (allure renders a test's
// description in an iframe) within timeoutMs: every frame is polled together, so a text
// that lives in a frame is found as soon as it is drawn, not after a wait on the main
// page has run out.
async function visibleInAnyFrame(page, text, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      if (await frame.getByText(text, { exact: false }).first().isVisible().catch(() => false)) {
        return true;
      }
    }
    if (Date.now() >= deadline) return false;
    await page.waitForTimeout(POLL_MS);
  }
}

// The report's own id for the test named testName (allure 3 keeps them in test-results.json).
function testId(index, testName) {
  try {
    const results = JSON.parse(readFileSync(join(dirname(index), "test-results.json"), "utf8"));
    const hit = Object.values(results.byId ?? {}).find((r) => (r.name ?? "").includes(testName));
    return hit?.id ?? null;
  } catch {
    return null;
  }
}

const [index, testName, screenshot, ...texts] = process.argv.slice(2);
if (!index || !testName || !screenshot) {
  console.error("usage: node browser_check.mjs REPORT_INDEX_HTML TEST_NAME SCREENSHOT_PNG TEXT...");
  process.exit(2);
}
const profile = mkdtempSync(join(tmpdir(), "atp-reports-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1300, height: 1900 },
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--disable-dev-shm-usage"],
});
let status = 0;
try {
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(120000);
  await page.goto(pathToFileURL(index).href, { waitUntil: "load", timeout: 120000 });
  // the tree lists the test by name; open its page
  const entry = page.getByText(testName, { exact: false }).first();
  let treeListed = true;
  try {
    await entry.waitFor({ state: "visible", timeout: TREE_WAIT_MS });
    await entry.click();
  } catch {
    treeListed = false;
    const shown = (await page.locator("body").innerText().catch(() => "")).slice(0, 1500);
    console.error(`the tree did not list ${testName} within ${TREE_WAIT_MS} ms; it showed:\n${shown}`);
    const id = testId(index, testName);
    if (!id) throw new Error(`${testName} is not in ${join(dirname(index), "test-results.json")}`);
    await page.goto(`${pathToFileURL(index).href}#${id}`, { waitUntil: "load", timeout: 120000 });
  }
  const found = {};
  for (const text of texts) found[text] = await visibleInAnyFrame(page, text, TEXT_WAIT_MS);
  const first = texts[0] ? page.getByText(texts[0], { exact: false }).first() : null;
  if (first && (await first.isVisible().catch(() => false))) {
    await first.evaluate((node) => node.scrollIntoView({ block: "start" }));
    await page.waitForTimeout(300);
  }
  await page.screenshot({ path: screenshot, fullPage: false });
  console.log(JSON.stringify({ found, tree_listed: treeListed, url: page.url(), screenshot }));
} catch (error) {
  console.error(`browser check failed: ${error.message}`);
  status = 1;
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(status);
