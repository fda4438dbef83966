/**
 * One seed for every fast-check property unless asked otherwise, so a CI run is repeatable:
 * a property that fails, fails again on the same commit. `FC_RANDOM=1` explores fresh seeds
 * (`npm run test:fuzz`); `FC_SEED=n` replays the seed a failure printed.
 */
import fc from 'fast-check';

const FIXED_SEED = 20261206;

const seed = process.env.FC_SEED !== undefined ? Number(process.env.FC_SEED)
  : process.env.FC_RANDOM ? undefined : FIXED_SEED;
if (seed !== undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
