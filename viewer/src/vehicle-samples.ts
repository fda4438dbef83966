/**
 * The example vehicles embedded in the viewer, with every file they name (a page has no
 * file system): the Model menu's vehicle entries, and the files a vehicle file opened on
 * its own falls back to (by base name) when its axle files are not chosen with it.
 */
import sedanYaml from '../../examples/vehicles/sedan.vehicle.yaml?raw';
import sedanMfYaml from '../../examples/vehicles/sedan_mf.vehicle.yaml?raw';
import sedanBumpYaml from '../../examples/vehicles/sedan_bump.vehicle.yaml?raw';
import sedanStepSteerYaml from '../../examples/vehicles/sedan_step_steer.vehicle.yaml?raw';
import solidAxleYaml from '../../examples/vehicles/solid_axle.vehicle.yaml?raw';
import frontAxleYaml from '../../examples/suspension/double_wishbone_axle_front.yaml?raw';
import rearAxleYaml from '../../examples/suspension/multi_link_axle_rear.yaml?raw';
import solidRearYaml from '../../examples/suspension/solid_axle_four_link_rates.yaml?raw';
import pacejkaTir from '../../examples/tyres/pacejka_205_60R15.tir?raw';

/** The files the example vehicles name, by base name. */
export const VEHICLE_FILES: Readonly<Record<string, string>> = {
  'double_wishbone_axle_front.yaml': frontAxleYaml,
  'multi_link_axle_rear.yaml': rearAxleYaml,
  'solid_axle_four_link_rates.yaml': solidRearYaml,
  'pacejka_205_60R15.tir': pacejkaTir,
};

export interface VehicleSample { id: string; label: string; name: string; text: string }

export const VEHICLE_SAMPLES: readonly VehicleSample[] = [
  { id: 'vehicle:sedan', label: 'Vehicle: sedan (double wishbone + U-bar, multi-link)', name: 'sedan.vehicle.yaml', text: sedanYaml },
  { id: 'vehicle:sedan_mf', label: 'Vehicle: sedan on Magic Formula tyres', name: 'sedan_mf.vehicle.yaml', text: sedanMfYaml },
  { id: 'vehicle:sedan_bump', label: 'Vehicle: sedan over a bump (Simulate)', name: 'sedan_bump.vehicle.yaml', text: sedanBumpYaml },
  { id: 'vehicle:sedan_step_steer', label: 'Vehicle: sedan, a step steer (Simulate)', name: 'sedan_step_steer.vehicle.yaml', text: sedanStepSteerYaml },
  { id: 'vehicle:solid_axle', label: 'Vehicle: solid rear axle', name: 'solid_axle.vehicle.yaml', text: solidAxleYaml },
];
