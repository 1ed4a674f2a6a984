// Runs a Python script under real MicroPython (the WebAssembly port from npm) in Node.
//
//   node tests/firmware/run_micropython.mjs MODULE_DIR SCRIPT.py
//
// Every .py file in MODULE_DIR is copied into MicroPython's /lib, so the script can
// import the firmware modules as the board does. The script's output goes to stdout;
// an uncaught Python exception prints its traceback on stderr and exits with status 1.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const entry = join(repo, "node_modules", "@micropython", "micropython-webassembly-pyscript",
                   "micropython.mjs");
const { loadMicroPython } = await import(pathToFileURL(entry).href);

const [moduleDir, scriptPath] = process.argv.slice(2);
if (!moduleDir || !scriptPath) {
  process.stderr.write("usage: run_micropython.mjs MODULE_DIR SCRIPT.py\n");
  process.exit(2);
}
const mp = await loadMicroPython({
  heapsize: 8 * 1024 * 1024,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
try { mp.FS.mkdir("/lib"); } catch { /* already there */ }
for (const name of readdirSync(moduleDir)) {
  if (name.endsWith(".py") && name !== "main.py") {
    mp.FS.writeFile(join("/lib", name), readFileSync(join(moduleDir, name)));
  }
}
try {
  mp.runPython(readFileSync(scriptPath, "utf8"));
} catch (error) {
  process.stderr.write(String(error.message || error) + "\n");
  process.exit(1);
}
