// Open a rendered allure report in headless Chromium, go to one test's page and report
// what a person would see there: whether each expected text is visible, plus a
// screenshot. Used by tests/reports/test_report_browser.py.
//
//   node reports/browser_check.mjs REPORT_INDEX_HTML TEST_NAME SCREENSHOT_PNG TEXT...
//
// Prints one JSON object: {"found": {TEXT: bool}, "url": ..., "screenshot": ...}.
// Chromium comes from Debian (CHROMIUM or /usr/bin/chromium); playwright-core never
// downloads a browser of its own.
import { chromium } from "playwright-core";
import { pathToFileURL } from "node:url";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
  await entry.waitFor({ state: "visible", timeout: 120000 });
  await entry.click();
  const found = {};
  for (const text of texts) {
    const locator = page.getByText(text, { exact: false }).first();
    try {
      await locator.waitFor({ state: "visible", timeout: 60000 });
      found[text] = true;
    } catch {
      // the description may be rendered inside an iframe
      let inFrame = false;
      for (const frame of page.frames()) {
        if (await frame.getByText(text, { exact: false }).first().isVisible().catch(() => false)) {
          inFrame = true;
          break;
        }
      }
      found[text] = inFrame;
    }
  }
  const first = texts[0] ? page.getByText(texts[0], { exact: false }).first() : null;
  if (first && (await first.isVisible().catch(() => false))) {
    await first.evaluate((node) => node.scrollIntoView({ block: "start" }));
    await page.waitForTimeout(300);
  }
  await page.screenshot({ path: screenshot, fullPage: false });
  console.log(JSON.stringify({ found, url: page.url(), screenshot }));
} catch (error) {
  console.error(`browser check failed: ${error.message}`);
  status = 1;
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(status);
