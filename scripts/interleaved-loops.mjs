/**
 * Two checkouts' loops timed in turn (who goes first alternating), CPU time: each named loop
 * warmed 2000 times, then 20 000 times a round; prints the medians in µs a loop (A: the first
 * set, B: the second) and of the rounds' B/A. Shared by scripts/vehicle-sim-rows.mjs and
 * scripts/vehicle-sim-elements.mjs.
 */
const cpu = () => { const u = process.cpuUsage(); return u.user + u.system; };
const median = (v) => [...v].sort((x, y) => x - y)[v.length >> 1];

/** sets: [A's, B's] loops by name (a name B lacks is skipped); width: the names' column. */
export function timeInterleaved(sets, rounds, width) {
  for (const key of Object.keys(sets[0])) {
    if (!sets[1][key]) continue;
    const t = [[], []];
    for (let r = 0; r < rounds; r++) {
      for (const w of r % 2 ? [1, 0] : [0, 1]) {
        const f = sets[w][key];
        for (let k = 0; k < 2000; k++) f();
        const t0 = cpu();
        for (let k = 0; k < 20000; k++) f();
        t[w].push((cpu() - t0) / 20000);
      }
    }
    console.log(`${key.padEnd(width)} A ${median(t[0]).toFixed(3)} µs, B ${median(t[1]).toFixed(3)} µs; median of B/A ${median(t[1].map((x, i) => x / t[0][i])).toFixed(3)}`);
  }
}
