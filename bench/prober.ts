export {};

/**
 * The /healthz prober of bench:cost, a process of its own so the clients' work never delays it:
 * `bun bench/prober.ts <url> <everyMs> <seconds>` prints one JSON line of latencies in ms.
 */
const [url, everyMs, seconds] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4])];
const deadline = performance.now() + seconds * 1000;
const latencies: number[] = [];
let failures = 0;
// Ended early (SIGTERM): what was measured so far.
process.on("SIGTERM", () => {
  console.log(JSON.stringify({ latencies, failures }));
  process.exit(0);
});
while (performance.now() < deadline) {
  const started = performance.now();
  try {
    await (await fetch(`${url}/healthz`)).arrayBuffer();
    latencies.push(performance.now() - started);
  } catch {
    failures++;
  }
  await Bun.sleep(Math.max(0, everyMs - (performance.now() - started)));
}
console.log(JSON.stringify({ latencies, failures }));
