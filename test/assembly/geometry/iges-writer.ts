/**
 * A minimal IGES 5.3 writer for tests: bounded planes (entity 108, form 1) each bounded by
 * a closed 3D polyline (entity 106, form 12, physically dependent). Fixed 80-column
 * records: start (S), global (G), directory entries (D, two lines each), parameter data
 * (P, 64 columns and a back-pointer), terminate (T).
 */
export function planesIges(squares: readonly (readonly (readonly [number, number, number])[])[]): string {
  const col = (text: string, width: number): string => text.padStart(width).slice(-width);
  const seq = (letter: string, n: number): string => `${letter}${String(n).padStart(7)}`;
  const start = ['kinemate test'];
  const global = '1H,,1H;,4Hpart,8Hpart.igs,8Hkinemate,3H1.0,32,38,6,308,15,4Hpart,1.0,2,2HMM,1,1.0,15H20260101.000000,1.0E-06,1000.0,0H,0H,11,0,15H20260101.000000;';
  const de: string[] = [];
  const pd: string[] = [];
  const entity = (type: number, form: number, params: string, status: string): number => {
    const deIndex = de.length + 1;
    const pdStart = pd.length + 1;
    for (let i = 0; i < params.length; i += 64) pd.push(`${params.slice(i, i + 64).padEnd(64)} ${col(String(deIndex), 7)}${seq('P', pd.length + 1)}`);
    const lines = pd.length - pdStart + 1;
    de.push(`${col(String(type), 8)}${col(String(pdStart), 8)}${col('0', 8)}${col('0', 8)}${col('0', 8)}${col('0', 8)}${col('0', 8)}${col('0', 8)}${status}${seq('D', de.length + 1)}`);
    de.push(`${col(String(type), 8)}${col('0', 8)}${col('0', 8)}${col(String(lines), 8)}${col(String(form), 8)}${' '.repeat(8)}${' '.repeat(8)}${' '.repeat(8)}${col('0', 8)}${seq('D', de.length + 1)}`);
    return deIndex;
  };
  for (const square of squares) {
    const pts = [...square, square[0]!];
    const curve = entity(106, 12, `106,2,${pts.length},${pts.map((p) => p.join(',')).join(',')};`, '00010000');
    const [p0, p1, p2] = [square[0]!, square[1]!, square[2]!];
    const u = [p1[0]! - p0[0]!, p1[1]! - p0[1]!, p1[2]! - p0[2]!], v = [p2[0]! - p0[0]!, p2[1]! - p0[1]!, p2[2]! - p0[2]!];
    const n = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
    const len = Math.hypot(n[0]!, n[1]!, n[2]!);
    const [a, b, c] = n.map((x) => x / len) as [number, number, number];
    const d = a * p0[0]! + b * p0[1]! + c * p0[2]!;
    entity(108, 1, `108,${a},${b},${c},${d},${curve},0.0,0.0,0.0,0.0;`, '00000000');
  }
  const gl: string[] = [];
  for (let i = 0; i < global.length; i += 72) gl.push(`${global.slice(i, i + 72).padEnd(72)}${seq('G', gl.length + 1)}`);
  const s = start.map((t, i) => `${t.padEnd(72)}${seq('S', i + 1)}`);
  const t = `${`S${String(s.length).padStart(7)}G${String(gl.length).padStart(7)}D${String(de.length).padStart(7)}P${String(pd.length).padStart(7)}`.padEnd(72)}${seq('T', 1)}`;
  return [...s, ...gl, ...de, ...pd, t, ''].join('\n');
}
