/**
 * How a link force is drawn (pure, no three.js: tested in Node): the colour by sign
 * (tension blue, compression red, as the loads panel's legend says), shading from the
 * link's own grey by the share of the largest force, the sleeve's width by magnitude, and
 * the label.
 */

export const TENSION_COLOR = 0x3d8bff;
export const COMPRESSION_COLOR = 0xff4d3d;
/** A link carrying (next to) nothing keeps this colour. */
export const NEUTRAL_COLOR = 0xb8bec7;

export interface LinkForceStyle {
  color: number;
  /** Sleeve radius as a multiple of the base radius: 1 for no force, 2.5 for the largest. */
  width: number;
  label: string;
  sign: 'tension' | 'compression' | 'none';
}

function mix(a: number, b: number, t: number): number {
  const ch = (c: number, s: number) => (c >> s) & 0xff;
  const out = [16, 8, 0].map((s) => Math.round(ch(a, s) + (ch(b, s) - ch(a, s)) * t));
  return (out[0] << 16) | (out[1] << 8) | out[2];
}

/** A force in N as a label: "+1.23 kN" (tension), "−850 N" (compression). */
export function formatForce(newtons: number): string {
  const a = Math.abs(newtons);
  const sign = newtons > 0 ? '+' : newtons < 0 ? '−' : '';
  if (a >= 1000) return `${sign}${(a / 1000).toFixed(a >= 10000 ? 1 : 2)} kN`;
  return `${sign}${a.toFixed(0)} N`;
}

/**
 * The style of a link carrying `tension` (N, tension positive) when the largest force of
 * any link is `largest` (N). Below a thousandth of the largest (or 0.5 N) it counts as none.
 */
export function linkForceStyle(tension: number, largest: number): LinkForceStyle {
  const share = largest > 0 ? Math.min(1, Math.abs(tension) / largest) : 0;
  if (!Number.isFinite(tension) || Math.abs(tension) < Math.max(0.5, 1e-3 * largest)) return { color: NEUTRAL_COLOR, width: 1, label: formatForce(0), sign: 'none' };
  const sign = tension > 0 ? 'tension' : 'compression';
  // even a small force shows its sign: at least 40 % of the way to the full colour
  const color = mix(NEUTRAL_COLOR, sign === 'tension' ? TENSION_COLOR : COMPRESSION_COLOR, 0.4 + 0.6 * share);
  return { color, width: 1 + 1.5 * share, label: formatForce(tension), sign };
}
