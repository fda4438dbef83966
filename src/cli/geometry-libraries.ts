/**
 * three and three-mesh-bvh, loaded as ES modules before the clearance and envelope code that
 * imports them runs. From the sources this is an ordinary import; the built command is one
 * CommonJS file (scripts/build-command.mjs), where a plain import of them would require
 * three's CommonJS build, which prints a deprecation warning on every run (and is going
 * away). The build serves that code's imports from the modules loaded here instead.
 */
export async function loadGeometryLibraries(): Promise<void> {
  await Promise.all([import('three'), import('three-mesh-bvh')]);
}
