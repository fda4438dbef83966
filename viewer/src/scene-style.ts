/**
 * The 3D view's colours and materials: one material per colour and style, shared by
 * every object drawn in it, and the shading chosen for the rasteriser at hand.
 */
import { Color, DoubleSide, FrontSide, MeshBasicMaterial, MeshLambertMaterial, MeshStandardMaterial, type Material, type MeshLambertMaterialParameters } from 'three';

export const COLORS = {
  chassisHandle: 0xff8c1a,
  pullHandle: 0x27c3d9,
  rackHandle: 0xb36bff,
  part: 0x8fa3b8,
  wishbone: 0x5b7fa6,
  upright: 0xa9b4c2,
  rod: 0xd9d9d9,
  trackrod: 0x7fd46b,
  rack: 0x9b7fe0,
  damper: 0xf2c94c,
  steeringAxis: 0xff5a5a,
  ghost: 0x7d8a99,
  failed: 0xff2b2b,
  ic: 0x3ddc84,
  rollCenter: 0xff4fd8,
  screw: 0xff9de2,
  baseline: 0xffc24d,
  anchor: 0x4a5563,
  tyre: 0x262a30,
  rim: 0xb8c0cc,
  hover: 0xffffff,
  selected: 0xffe066,
};

const _c = new Color();
const _white = new Color(0xffffff);

/** A colour a third of the way to white (a hovered handle). */
export function brighter(color: number): number {
  return _c.setHex(color).lerp(_white, 1 / 3).getHex();
}

/** The view's materials, made once per key and kept. */
export class SceneMaterials {
  private readonly materials = new Map<string, Material>();

  /** `software`: a software rasteriser draws (see {@link lit}). */
  constructor(private readonly software: boolean) {}

  private material(key: string, make: () => Material): Material {
    let m = this.materials.get(key);
    if (!m) { m = make(); this.materials.set(key, m); }
    return m;
  }

  solid(color: number, opts: { opacity?: number; emissive?: number; frontOnly?: boolean } = {}): Material {
    return this.material(`s${color}:${opts.opacity ?? 1}:${opts.emissive ?? 0}:${opts.frontOnly ?? false}`, () => this.lit({
      color, transparent: (opts.opacity ?? 1) < 1, opacity: opts.opacity ?? 1, side: opts.frontOnly ? FrontSide : DoubleSide,
      emissive: new Color(opts.emissive ?? 0), depthWrite: (opts.opacity ?? 1) >= 1,
      // a translucent double-sided surface in one pass, not back faces then front (twice
      // the fill for a tyre that covers a third of the view)
      forceSinglePass: true,
    }));
  }

  /**
   * A lit surface: physically based on a GPU; Lambert on a software rasteriser, where the
   * PBR fragment shader was most of a frame's cost (a few shaded pixels, not the fill).
   * Not kept: each call makes a new one.
   */
  lit(params: MeshLambertMaterialParameters): Material {
    return this.software ? new MeshLambertMaterial(params) : new MeshStandardMaterial({ roughness: 0.55, metalness: 0.15, ...params });
  }

  flat(color: number, opacity = 1): Material {
    return this.material(`f${color}:${opacity}`, () => new MeshBasicMaterial({ color, transparent: opacity < 1, opacity, depthWrite: opacity >= 1, side: DoubleSide, forceSinglePass: true }));
  }
}
