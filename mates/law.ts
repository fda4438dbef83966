/** The scalar law of a force element (forces.ts), apart so the point-to-point values can name it. */
/** A scalar law x ↦ y with its slope, for tensions and time scales. */
export interface Law {
  /** y(x) into out[0], dy/dx into out[1]. */
  evaluate(x: number, out: Float64Array): Float64Array;
  /** ∫ y dx from a fixed reference (for a potential); absent when not needed. */
  integral?(x: number): number;
}
