/** The profile's names for JIT code: jitdump records read back, the latest code at an address winning. */
import { describe, expect, test } from "bun:test";
import { JitNames, readJitDump } from "../../bench/jitdump";

/** A jitdump as JavaScriptCore writes one: a 40-byte header, then records (a code load is id 0). */
function dump(records: { id: number; address?: number; name?: string; code?: number[] }[]): Uint8Array {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  const header = new DataView(new ArrayBuffer(40));
  header.setUint32(0, 0x4a695444, true);
  header.setUint32(4, 1, true);
  header.setUint32(8, 40, true);
  parts.push(new Uint8Array(header.buffer));
  for (const r of records) {
    const name = encoder.encode(`${r.name ?? ""}\0`);
    const code = new Uint8Array(r.code ?? []);
    const size = r.id === 0 ? 56 + name.byteLength + code.byteLength : 24;
    const bytes = new Uint8Array(size);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, r.id, true);
    view.setUint32(4, size, true);
    if (r.id === 0) {
      view.setBigUint64(24, BigInt(r.address!), true);
      view.setBigUint64(32, BigInt(r.address!), true);
      view.setBigUint64(40, BigInt(code.byteLength), true);
      bytes.set(name, 56);
      bytes.set(code, 56 + name.byteLength);
    }
    parts.push(bytes);
  }
  return Buffer.concat(parts);
}

describe("jitdump", () => {
  test("reads every code load with its name, address and bytes, and skips other records", () => {
    const loads = readJitDump(dump([
      { id: 0, address: 0x7f0000001000, name: "JSC-FTL: find#A2DjDJ", code: [0xc5, 0xf9, 0x2e, 0xc2] },
      { id: 2 },
      { id: 0, address: 0x7f0000002000, name: "JSC-Baseline: #ALl2Hn", code: [0x90, 0x90] },
    ]));
    expect(loads.map((l) => [l.name, l.address, l.size, [...l.bytes]])).toEqual([
      ["JSC-FTL: find#A2DjDJ", 0x7f0000001000, 4, [0xc5, 0xf9, 0x2e, 0xc2]],
      ["JSC-Baseline: #ALl2Hn", 0x7f0000002000, 2, [0x90, 0x90]],
    ]);
  });

  test("an address resolves to the code around it; code written later at the same place wins", () => {
    const names = new JitNames(readJitDump(dump([
      { id: 0, address: 0x1000, name: "JSC-DFG: old", code: new Array(16).fill(0) },
      { id: 0, address: 0x1000, name: "JSC-FTL: new", code: new Array(8).fill(0) },
    ])));
    expect(names.find(0x1003)).toMatchObject({ code: { name: "JSC-FTL: new" }, offset: 3 });
    expect(names.find(0x100c)).toMatchObject({ code: { name: "JSC-DFG: old" }, offset: 12 });
    expect(names.find(0x2000)).toBeNull();
  });

  test("a record cut short by the writer ends the reading, and other files are refused", () => {
    const whole = dump([{ id: 0, address: 0x1000, name: "JSC-FTL: a", code: [1, 2, 3] }, { id: 0, address: 0x2000, name: "JSC-FTL: b", code: [4] }]);
    expect(readJitDump(whole.subarray(0, whole.byteLength - 3)).map((l) => l.name)).toEqual(["JSC-FTL: a"]);
    expect(() => readJitDump(new Uint8Array(64))).toThrow("not a little-endian jitdump file");
  });
});
