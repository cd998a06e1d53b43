// Validates an AsyncAPI document with @asyncapi/parser: prints its diagnostics as JSON
// (an error is severity 0) and exits 1 if any is an error.
import { readFileSync } from "node:fs";
import { Parser } from "@asyncapi/parser";

const text = readFileSync(process.argv[2], "utf8");
const { document, diagnostics } = await new Parser().parse(text);
const out = diagnostics.map((d) => ({ severity: d.severity, code: d.code, message: d.message,
  path: d.path.join(".") }));
console.log(JSON.stringify({ parsed: document !== undefined, diagnostics: out }));
process.exit(document === undefined || out.some((d) => d.severity === 0) ? 1 : 0);
