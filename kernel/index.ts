/** The kernel: Float64 pose math, forward-mode AD, the System, the solver and analyses. */
export * as vec3 from './vec3';
export * as quat from './quat';
export * from './pose';
export * from './dual';
export * from './linalg';
export * from './system';
export * from './solver/solve';
export * from './analysis';
export * from './forces';
export * from './mass';
export * from './integrator/integrator';
export * from './motion';
