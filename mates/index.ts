/** Mates, joints, couplings and limits as residual blocks on the kernel's System. */
export * from './entities';
export * from './joints';
export * from './couplings';
export * from './constraints';
export * from './catalogue';
export * from './rolling';
export * from './arc-length';
export { ENTITY_RULES, MATE_COORDINATES, mateJoins, mateTypesJoining, type EntityMateType, type ContactType, CONTACT_TYPES, type EntityRule, type MateType, type CoordinateName } from './vocabulary';
