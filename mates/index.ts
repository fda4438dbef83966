/** Mates, joints, couplings and limits as residual blocks on the kernel's System. */
export * from './entities';
export * from './joints';
export * from './couplings';
export * from './constraints';
export * from './catalogue';
export * from './rolling';
export * from './arc-length';
