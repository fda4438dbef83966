/** A whole vehicle from two axle files (../shared/design/vehicle.md, docs/vehicle.md). */
export { readVehicleFile, type VehicleSpec, type VehicleAxle, type VehicleTyre, type OpenFile, type AxleName } from './file';
export { buildVehicle, vehicleAssembly, cgWorld, CORNERS, type VehicleModel, type VehicleWheel, type CornerName } from './assembly';
export { applyAcceleration, type Acceleration } from './loads';
export { vehicleState, type VehicleState, type CornerState } from './state';
export { stateDerivative, poseTangent, accelerationDirection, wheelPairDirection, exactReduced, type StateDerivative } from './tangent';
export { newtonEquilibrium } from './newton';
export {
  solveVehicle, staticAnalysis, accelerationSweep, lateralSummary, longitudinalSummary,
  type StateResult, type SolvedState, type FailedState, type SweepStep, type LateralSummary, type LongitudinalSummary,
} from './analysis';
export { vehicleCsv } from './csv';
export { VehicleInputError } from './errors';
export { steadyStateSweep, steadySummary, steadyTyres, type SteadyStateStep, type SteadySummary } from './steady-state';
export { rackSteadySweep, type RackStateStep, type RackSummary } from './steady-rack';
export { vehicleStaticSensitivity, type VehicleSensitivity, type VehicleMetricGradient } from './static-gradients';
export { vehicleParameterNames, movedVehicleSpec } from './parameters';
export { wheelMoments } from '../dynamics/wheel-inertia';
export { STATIC_METRICS, VEHICLE_METRIC_UNITS } from './metric-rates';
export { fitVehicle, parseVehicleFitSpec, type VehicleFitSpec, type VehicleFitReport } from './fit';
export { vehicleGradientSensitivity, GRADIENT_METRICS } from './gradient-figures';
export { understeerSensitivity, UNDERSTEER_METRIC, UNDERSTEER_RADIUS, STEADY_METRICS } from './understeer-rates';
export { steadySpeedSensitivity, SPEED_METRIC } from './steady-speed-rates';
export { frequencySensitivity, FREQUENCY_METRICS } from './frequency-rates';
export { radiusSensitivity, isRadiusMetric, radiusOf } from './radius-metrics';
export { rackSensitivity, isRackMetric, rackOf } from './rack-rates';
