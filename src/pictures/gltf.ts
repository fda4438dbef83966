/**
 * An animated glTF 2.0 binary (.glb) of solved states, built with @gltf-transform/core: no
 * DOM, no Node API (the viewer can call it too).
 *
 * The scene is given in the assembly's frame and length unit (ISO 8855: z up; mm); the file
 * is in glTF's (y up; metres): a root node `kinemate` turns z up into y up and every length
 * is scaled by `metresPerUnit`. Each animated node gets one translation and one rotation
 * keyframe per state (LINEAR), quaternions kept on one hemisphere from state to state.
 *
 * Precision: glTF stores keyframes as 32-bit floats (≈ 1e-4 mm at 1 m, 6e-8 in a quaternion
 * component). The exact double-precision poses (file units, rotation [w, x, y, z]) ride along
 * in each animated node's `extras.kinemate` for anyone who needs them.
 */
import { Document, WebIO, type Node as GltfNode } from '@gltf-transform/core';
import type { Vec3Tuple } from '../../kernel/vec3.ts';
import { ArgumentError } from '../../kernel/errors.ts';

/** Rotation as [w, x, y, z] (the assembly file's order). */
export type Quat = readonly [number, number, number, number];

export interface Pose {
  readonly position: Readonly<Vec3Tuple>;
  readonly rotation: Quat;
}

/** Triangles in a node's own frame (file units): flat-shaded, one colour. */
export interface MeshData {
  /** xyz per vertex. */
  readonly positions: Float32Array;
  /** Unit normal per vertex. */
  readonly normals: Float32Array;
  readonly indices: Uint32Array;
  /** Linear RGBA, 0–1. */
  readonly color: readonly [number, number, number, number];
}

/** A node fixed to its parent (a wheel on its upright). */
export interface StaticChild {
  readonly name: string;
  readonly mesh: MeshData;
}

export interface SceneNode {
  readonly name: string;
  readonly meshes: readonly MeshData[];
  /** One pose per state (animated), or exactly one (static, e.g. the chassis). */
  readonly poses: readonly Pose[];
  readonly children?: readonly StaticChild[];
}

export interface AnimatedScene {
  readonly name: string;
  /** Time of each state, seconds, increasing. */
  readonly times: readonly number[];
  readonly nodes: readonly SceneNode[];
  /** Metres per file length unit (0.001 for mm). */
  readonly metresPerUnit: number;
  /** Anything worth keeping with the file (the command, the sweep's drivers…): the root's extras. */
  readonly extras?: Record<string, unknown>;
}

/** The name of the root node that turns the assembly's z-up frame into glTF's y-up one. */
export const ROOT_NODE = 'kinemate';
/** −90° about x: z up becomes y up (x stays forward-ish, y left becomes −z). */
const Z_UP_TO_Y_UP: [number, number, number, number] = [-Math.SQRT1_2, 0, 0, Math.SQRT1_2];

/**
 * The scene as .glb bytes. Throws an ArgumentError when a node's pose count is neither 1 nor the
 * number of times, or the times are not increasing.
 */
export async function sceneToGlb(scene: AnimatedScene): Promise<Uint8Array> {
  const steps = scene.times.length;
  for (let i = 1; i < steps; i++) if (!(scene.times[i] > scene.times[i - 1])) throw new ArgumentError(`times[${i}]`, 'times must increase');
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'kinemate';
  const buffer = doc.createBuffer();
  const gltfScene = doc.createScene(scene.name);
  const root = doc.createNode(ROOT_NODE).setRotation(Z_UP_TO_Y_UP);
  if (scene.extras) root.setExtras({ kinemate: scene.extras });
  gltfScene.addChild(root);
  const s = scene.metresPerUnit;
  const materials = new Map<string, ReturnType<Document['createMaterial']>>();
  const materialOf = (color: MeshData['color']) => {
    const key = color.join(',');
    let material = materials.get(key);
    if (!material) {
      material = doc.createMaterial(`color ${key}`).setBaseColorFactor([...color]).setMetallicFactor(0).setRoughnessFactor(0.6).setDoubleSided(true);
      materials.set(key, material);
    }
    return material;
  };
  const meshOf = (name: string, parts: readonly MeshData[]) => {
    const mesh = doc.createMesh(name);
    for (const part of parts) {
      const positions = new Float32Array(part.positions.length);
      for (let i = 0; i < positions.length; i++) positions[i] = part.positions[i] * s;
      const primitive = doc.createPrimitive()
        .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer))
        .setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(part.normals).setBuffer(buffer))
        .setIndices(doc.createAccessor().setType('SCALAR').setArray(part.indices).setBuffer(buffer))
        .setMaterial(materialOf(part.color));
      mesh.addPrimitive(primitive);
    }
    return mesh;
  };
  const animation = steps > 1 ? doc.createAnimation(scene.name) : null;
  const input = steps > 1 ? doc.createAccessor('times').setType('SCALAR').setArray(Float32Array.from(scene.times)).setBuffer(buffer) : null;
  for (const node of scene.nodes) {
    if (node.poses.length !== 1 && node.poses.length !== steps) throw new ArgumentError(node.name, `${node.poses.length} poses for ${steps} states`);
    const rotations = continuousRotations(node.poses);
    const gltfNode: GltfNode = doc.createNode(node.name)
      .setTranslation(scaled(node.poses[0].position, s))
      .setRotation(rotations[0]);
    if (node.meshes.length > 0) gltfNode.setMesh(meshOf(node.name, node.meshes));
    for (const child of node.children ?? []) gltfNode.addChild(doc.createNode(child.name).setMesh(meshOf(child.name, [child.mesh])));
    root.addChild(gltfNode);
    if (animation && input && node.poses.length === steps) {
      const translations = new Float32Array(3 * steps), quaternions = new Float32Array(4 * steps);
      node.poses.forEach((pose, i) => {
        translations.set(scaled(pose.position, s), 3 * i);
        quaternions.set(rotations[i], 4 * i);
      });
      for (const [path, array, type] of [['translation', translations, 'VEC3'], ['rotation', quaternions, 'VEC4']] as const) {
        const sampler = doc.createAnimationSampler().setInput(input).setInterpolation('LINEAR')
          .setOutput(doc.createAccessor(`${node.name} ${path}`).setType(type).setArray(array).setBuffer(buffer));
        animation.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(gltfNode).setTargetPath(path).setSampler(sampler));
      }
      gltfNode.setExtras({
        kinemate: {
          positions: node.poses.map((pose) => [...pose.position]),
          rotations: node.poses.map((pose) => [...pose.rotation]),
        },
      });
    }
  }
  return new WebIO().writeBinary(doc);
}

function scaled(p: Readonly<Vec3Tuple>, s: number): [number, number, number] {
  return [p[0] * s, p[1] * s, p[2] * s];
}

/**
 * The poses' rotations as glTF quaternions [x, y, z, w], normalised, each on the same
 * hemisphere as the one before (so that interpolation takes the short way).
 */
export function continuousRotations(poses: readonly Pose[]): [number, number, number, number][] {
  const out: [number, number, number, number][] = [];
  let previous: [number, number, number, number] | null = null;
  for (const { rotation: [w, x, y, z] } of poses) {
    const norm = Math.hypot(w, x, y, z);
    let q: [number, number, number, number] = [x / norm, y / norm, z / norm, w / norm];
    if (previous && q[0] * previous[0] + q[1] * previous[1] + q[2] * previous[2] + q[3] * previous[3] < 0) q = [-q[0], -q[1], -q[2], -q[3]];
    out.push(q);
    previous = q;
  }
  return out;
}
