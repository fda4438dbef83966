/** A whole vehicle in a page: its document (the vehicle file and its axle files, edited) and its frames (docs/vehicle.md, "Viewer"). */
export {
  readVehicleDocument, vehicleSpecOf, moveVehicleHardpoint, vehicleHardpointPosition, vehicleAxleTexts, axleIsSymmetric, mirrorName,
  looksLikeVehicleFile, baseNameOf, type VehicleDocument, type VehicleAxleSource, type VehicleHardpoint,
} from './document.ts';
export { vehicleFrame, UNDERSTEER_RADIUS, type VehicleFrame, type VehicleFigures, type VehicleCornerFigures, type VehicleFrameOptions } from './frame.ts';
