import { sweptEnvelope } from './src/assembly/geometry/envelope.ts';
import { torusMesh } from './src/assembly/geometry/primitives.ts';
const tyre = torusMesh(213.6, 100, 256, 96, [0,0,0], 'y');
const poses: number[][] = [];
for (let i = 0; i < 21; i++) for (let j = 0; j < 21; j++) { const a = (j - 10) * 0.03; poses.push([0, 0, (i - 10) * 5, Math.cos(a/2), 0, 0, Math.sin(a/2)]); }
let t = performance.now();
const env = sweptEnvelope(tyre, poses);
console.log('ms', performance.now() - t, 'voxel', env.voxel, 'tris', env.mesh.indices.length / 3);
