/** A whole vehicle in a page: its document (the vehicle file and its axle files, edited) and its frames (docs/vehicle.md, "Viewer"). */
export {
  readVehicleDocument, vehicleSpecOf, moveVehicleHardpoint, vehicleHardpointPosition, vehicleAxleTexts, axleIsSymmetric, mirrorName,
  looksLikeVehicleFile, baseNameOf, type VehicleDocument, type VehicleAxleSource, type VehicleHardpoint,
} from './document.ts';
export { vehicleLiveFrame, UNDERSTEER_RADIUS, type VehicleLiveFrame, type VehicleFigures, type VehicleCornerFigures, type VehicleLiveFrameOptions } from './frame.ts';
export { KeptVehicle } from './kept.ts';
export { VEHICLE_DESIGN_METRICS, VEHICLE_DESIGN_GROUPS, vehicleMetricUnit, vehicleMetricGradients, type VehicleMetricGradients } from './metric-gradients.ts';
export { vehiclePickupRates, pickupParameters, type VehiclePickupRate, type VehiclePickupRates, type VehicleRateGradient } from './design.ts';
export { vehicleRates, vehicleRateNames, moveVehicleRate, type VehicleRate } from './rates.ts';
export { fitVehicleDocument, targetOutcome, type VehicleFitRequest, type VehicleFitTargetRequest, type VehicleTargetOutcome, type VehicleDocumentFit } from './design-fit.ts';
export { runVehicleSimulation, vehicleRunOf, vehiclePlaybackFrame, vehicleRunHeader, VEHICLE_RUN_DEFAULTS, DEFAULT_VEHICLE_ROAD, type VehiclePlaybackFrame, type VehicleRunMessage } from './run.ts';
