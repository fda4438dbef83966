/** The tests' one generator: the kernel's seeded mulberry32, so a failing case can be named and replayed. */
export { seededRandom as rng } from '../../kernel/random.ts';
