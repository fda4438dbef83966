/** Mates, joints, couplings and limits as residual blocks on the kernel's System. */
export * from './entities';
export * from './joints';
export * from './couplings';
export * from './constraints';
export * from './catalogue';
export { ENTITY_RULES, MATE_COORDINATES, mateJoins, mateTypesJoining, type EntityMateType, type EntityRule, type MateType, type CoordinateName } from './vocabulary';
