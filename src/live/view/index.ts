/**
 * What a page draws of the live model, without the DOM: the pose worker's presenter (a
 * request of the live model in, the frame as drawn out: structure, points, corners,
 * read-outs, devices, loads) and the plots' sweep series, the scene's structure, the
 * sensitivity arrows, the simulation run for playback, assemble mode's recipes and the
 * fit's run. The viewer (viewer/src) is the DOM over these; Node tests run them directly.
 */
export * from './frame-types.ts';
export * from './presenter.ts';
export * from './scene-structure.ts';
export * from './loads.ts';
export * from './compliance.ts';
export * from './devices.ts';
export * from './sensitivity.ts';
export * from './simulation.ts';
export * from './assemble.ts';
export * from './assemble-roles.ts';
export * from './fit.ts';
export * from './playback.ts';
