/**
 * Exact sensitivities of suspension metrics to every hardpoint coordinate (MATH.md, implicit
 * function theorem; dynamics.md "Sensitivities and gradients").
 *
 * At a solved state the constraints and drivers Φ(q, p) = 0 hold, so the state's rate per
 * hardpoint coordinate is q̇ = −Φ_q⁻¹ Φ_p. Φ_p needs no new derivative code: every part sits
 * at the identity at design, so a hardpoint is a part-local point, and moving a local entity
 * (a point, an axis's origin and direction) inside one block is the same, for that block, as
 * a body twist of that part — so Φ_p = (the block's own Jacobian columns of that part) ×
 * (the twist). A distance mate's length is regenerated from its ends (design-consistent:
 * links change length with their end points), which adds −d|b − a|/dp to its row. The
 * metrics are then evaluated once with duals over all hardpoint coordinates: each point's
 * rate is its state rate plus its own local move (SuspensionModel.explicitPointRate).
 * One factorisation per state; no finite differences anywhere.
 *
 * In files: sensitivity-model.ts (the model, its work split by job: hardpoint-index.ts,
 * parameter-maps.ts, design-rates.ts, state-factors.ts, evaluate-along.ts, first-order-duals.ts,
 * adjoint.ts, metric-gradients.ts; together: parameters, the state's factorisation, the
 * metrics' duals, their gradients by side), metric-names.ts (what is offered), sweeps.ts
 * (gradients along a sweep); this file is their one entry.
 */
export { SensitivityModel, mirroredRollCentre } from './sensitivity-model';
export { SENSITIVITY_METRICS, AXLE_SENSITIVITY_METRICS, CORNER_ROLL_CENTRE_METRICS, sensitivityMetricsOf } from './metric-names';
export { sensitivitySweep, sensitivitySweepBySide, sensitivityAt, bumpStates, gradientsAtFirstState } from './sweeps';
export { SensitivityError, type MetricGradient, type BlockParameters, type DriverParameters, type StateFactors, type ExtraGradients, type ExtraSideGradients, type SensitivityStep, type SideMetrics, type SensitivityContext } from './types';
