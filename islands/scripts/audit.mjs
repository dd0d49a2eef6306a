// npm audit of the islands' runtime dependencies (what ships to
// browsers), failing on a high or critical advisory. Where the registry's
// advisory endpoint cannot be reached (machines with a registry mirror
// and no internet answer 405), it says so plainly and does not fail:
// run it where the endpoint answers (the README's CI recipe).
import { execFileSync } from "node:child_process";

let out;
try {
  out = execFileSync("npm", ["audit", "--omit=dev", "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
} catch (err) {
  out = err.stdout; // npm audit exits 1 when it finds advisories
}
let report;
try {
  report = JSON.parse(out);
} catch {
  console.error("npm audit: no JSON answer:\n" + out);
  process.exit(1);
}
if (report.statusCode || report.error) {
  console.warn(`npm audit: NOT CHECKED: the advisory endpoint answered: ${report.message ?? report.statusCode}`);
  process.exit(0);
}
const v = report.metadata?.vulnerabilities ?? {};
const serious = (v.high ?? 0) + (v.critical ?? 0);
console.log(`npm audit (runtime dependencies): ${v.critical ?? 0} critical, ${v.high ?? 0} high, ${v.moderate ?? 0} moderate, ${v.low ?? 0} low`);
if (serious > 0) {
  for (const [name, a] of Object.entries(report.vulnerabilities ?? {})) {
    if (a.severity === "high" || a.severity === "critical") console.error(`  ${a.severity}: ${name} ${a.range}`);
  }
  process.exit(1);
}
