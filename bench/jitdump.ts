/**
 * Names for JavaScript code the JIT made, read from a jitdump file (the format `perf inject --jit`
 * reads; JavaScriptCore writes one with `BUN_JSC_useJITDump=1`). perf itself cannot use Bun's:
 * it looks for a file named `jit-<pid>.dump`, and JavaScriptCore adds a second number to the name.
 * So the profile resolves addresses here.
 */
import { readFileSync } from "node:fs";

const MAGIC = 0x4a695444; // "JiTD"
const CODE_LOAD = 0;

export interface JitCode {
  address: number;
  size: number;
  /** The name JavaScriptCore gave it: the tier, then the function's name and hash (`JSC-FTL: find#A2DjDJ`). */
  name: string;
  /** The machine code as it was written. */
  bytes: Uint8Array;
}

export interface JitPlace {
  code: JitCode;
  offset: number;
}

/** Every code load the file records, in the order written. */
export function readJitDump(bytes: Uint8Array): JitCode[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 40 || view.getUint32(0, true) !== MAGIC) throw new Error("not a little-endian jitdump file");
  const decoder = new TextDecoder();
  const loads: JitCode[] = [];
  let at = view.getUint32(8, true);
  while (at + 16 <= bytes.byteLength) {
    const id = view.getUint32(at, true);
    const size = view.getUint32(at + 4, true);
    if (size < 16 || at + size > bytes.byteLength) break; // a record still being written
    if (id === CODE_LOAD) {
      // id, size, timestamp; pid, tid; vma, code address, code size, code index; name; code.
      const address = Number(view.getBigUint64(at + 32, true));
      const codeSize = Number(view.getBigUint64(at + 40, true));
      const nameStart = at + 56;
      const nameEnd = bytes.indexOf(0, nameStart);
      if (nameEnd === -1 || nameEnd >= at + size) break;
      const code = bytes.slice(nameEnd + 1, Math.min(nameEnd + 1 + codeSize, at + size));
      loads.push({ address, size: codeSize, name: decoder.decode(bytes.subarray(nameStart, nameEnd)), bytes: code });
    }
    at += size;
  }
  return loads;
}

export function readJitDumpFile(path: string): JitCode[] {
  return readJitDump(readFileSync(path));
}

/** Looks addresses up in code loads; a later load at the same place (code freed and reused) wins. */
export class JitNames {
  private readonly loads: JitCode[];

  constructor(loads: JitCode[]) {
    this.loads = [...loads].reverse();
  }

  find(address: number): JitPlace | null {
    const code = this.loads.find((c) => c.address <= address && address < c.address + c.size);
    return code === undefined ? null : { code, offset: address - code.address };
  }
}
