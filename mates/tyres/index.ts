/** Tyres: the `.tir` reader, the Magic Formula and the linear tyre, one interface (model.ts). */
export { TyreFileError } from './errors';
export { PropertyFile } from './property-file';
export { mfTyreData, mfVersion, type MfTyreData, type MfVersion, type MfKey } from './coefficients';
export { DualTape } from './dual-tape';
export { MagicFormulaTyre } from './magic-formula';
export { LinearTyre, linearTyre, type LinearTyreSpec } from './linear';
export { MirroredTyre, steadyForces, type TyreForceDuals, type TyreForces, type TyreModel, type TyreOut } from './model';
export { NUMBERS, NumberArith, type Arith } from './arith';
export { readTyreText, type TyreFileRead } from './read';
export { rangeValues, tyreCurves, type TyreCurveRequest, type TyreCurveStep } from './curves';
export { SlipTyreForce, type SlipInput, type SlipState, type SlipTyreOptions } from './slip-force';
export { Forward4 } from './forward4';
