// Allure 3 configuration for `make report` (reports/allure-results -> reports/allure-report).
// One self-contained index.html (singleFile), so the report opens from disk or from a CI
// artifact without a web server; the tree is target (epic) / property (feature) /
// scenario family (story). The failure categories are the ones the pytest plugin wrote
// beside the results (categories.json, fixtures/report/allure.py), so there is one list.
import { existsSync, readFileSync } from "node:fs";
import { defineConfig } from "allure";

const results = process.env.ATP_ALLURE_RESULTS
  ?? new URL("./allure-results", import.meta.url).pathname;
const categoriesFile = `${results}/categories.json`;
const categories = existsSync(categoriesFile)
  ? JSON.parse(readFileSync(categoriesFile, "utf8"))
  : [];

export default defineConfig({
  name: "ATP conformance",
  categories,
  plugins: {
    awesome: {
      options: {
        singleFile: true,
        reportName: "ATP conformance",
        groupBy: ["epic", "feature", "story"],
      },
    },
  },
});
