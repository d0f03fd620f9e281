// Runs a Python script under MicroPython's WebAssembly port in Node.
//   node run.mjs MANIFEST.json
// The manifest names the port's micropython.mjs ("module"), files to copy into the VM's in-memory
// file system ("files": {"/lib/shoefw/wire.py": "/abs/source", ...}) and the script to run ("main").
// The script's stdout goes to stdout; a Python exception prints its traceback to stderr, exit 1.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const manifest = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const { loadMicroPython } = await import(pathToFileURL(manifest.module).href);
const mp = await loadMicroPython({
  heapsize: manifest.heapsize || 8 * 1024 * 1024,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
for (const [dest, src] of Object.entries(manifest.files)) {
  const dir = path.posix.dirname(dest);
  let at = "";
  for (const part of dir.split("/").filter(Boolean)) {
    at += "/" + part;
    try { mp.FS.mkdir(at); } catch (e) { /* exists */ }
  }
  mp.FS.writeFile(dest, fs.readFileSync(src));
}
try {
  mp.runPython(fs.readFileSync(manifest.main, "utf8"));
} catch (e) {
  process.stderr.write(String(e && e.message ? e.message : e) + "\n");
  process.exit(1);
}
