import { describe, expect, it } from 'vitest';
import { validateGeometry, sweepFromShortcut } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { validateAssembly } from '../../../src/assembly';
import { SuspensionModel, type MetricValues } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import type { AssemblyDoc } from '../../../src/assembly/types';

type AxleMetricsOut = { axle: MetricValues; left: MetricValues; right: MetricValues };
const xyz = (x: number, y: number, z: number) => ({ x, y, z });

describe('closed forms', () => {
  it('parallel, equal, horizontal wishbones: zero camber change in heave and the kinematic roll centre on the ground', () => {
    const geometry = validateGeometry({
      type: 'double_wishbone', scope: 'axle', units: 'mm',
      vehicle_config: { cg_position: { x: 1250, y: 0, z: 450 }, wheelbase: 2500 },
      axle_config: { axle_position: 'front', steering: { type: 'rack' }, actuation: { type: 'direct', mount: 'lower_wishbone' }, spring: { type: 'none' },
        wheel: { offset: 0, tire: { aspect_ratio: 0.55, section_width: 270, rim_diameter: 13 } } },
      hardpoints: { left: {
        lower_wishbone_inboard_front: xyz(250, 400, 200), lower_wishbone_inboard_rear: xyz(-250, 400, 200), lower_wishbone_outboard: xyz(0, 900, 200),
        upper_wishbone_inboard_front: xyz(250, 400, 500), upper_wishbone_inboard_rear: xyz(-250, 400, 500), upper_wishbone_outboard: xyz(0, 900, 500),
        // a track rod parallel and equal to the arms: no steer in heave
        trackrod_inboard: xyz(100, 400, 350), trackrod_outboard: xyz(100, 900, 350),
        axle_inboard: xyz(0, 800, 350), axle_outboard: xyz(0, 950, 350),
      } },
    });
    const sm = new SuspensionModel(validateAssembly(suspensionAssembly(geometry)));
    const run = runSweep(sm, sweepFromShortcut('bump', '-40:40:9'));
    for (const step of run.steps) {
      expect(step.status).toBe('solved');
      const m = step.metrics as AxleMetricsOut;
      expect(Math.abs(m.left.camber!)).toBeLessThan(1e-9);
      expect(Math.abs(m.left.deriv_camber_wrt_hub_z!)).toBeLessThan(1e-9);
    }
    const design = run.steps[4].metrics as AxleMetricsOut;
    const contactZ = run.steps[4].positions!.left_wheel_contact_centre[2];
    expect(design.axle.roll_center_kinematic_z).toBeCloseTo(contactZ, 8);
    expect(Math.abs(design.axle.roll_center_kinematic_y!)).toBeLessThan(1e-8);
  });

  it('a swing axle pivoting on the centreline at height h puts the kinematic roll centre at h', () => {
    const h = 150;
    const arm = (side: 'left' | 'right') => {
      const s = side === 'left' ? 1 : -1;
      return {
        pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] },
        axes: { hinge: { origin: [0, 0, h], direction: [1, 0, 0] } },
        points: { pivot: [0, 0, h], pivot2: [100, 0, h], hub_in: [0, s * 700, 320], hub_out: [0, s * 850, 320] },
      };
    };
    const corner = (side: 'left' | 'right') => ({
      side, upright: `${side}Arm`,
      points: { axle_inboard: `${side}Arm.hub_in`, axle_outboard: `${side}Arm.hub_out` },
      axle: [`${side}Arm.hub_in`, `${side}Arm.hub_out`],
      steering_axis: null,
      instant_axis: { type: 'line', line: ['body.p1', 'body.p2'] },
      wheel: { offset: 0, tire: { aspect_ratio: 0.55, section_width: 270, rim_diameter: 13 } },
      holds: { default: null },
    });
    const doc = {
      format: 'kinemate.assembly/1', name: 'swing axle', units: { length: 'mm', angle: 'deg' },
      parts: {
        body: { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, axes: { hinge: { origin: [0, 0, h], direction: [1, 0, 0] } }, points: { p1: [0, 0, h], p2: [100, 0, h] } },
        leftArm: arm('left'), rightArm: arm('right'),
      },
      mates: {
        leftHinge: { type: 'revolute', a: 'body.hinge', b: 'leftArm.hinge' },
        rightHinge: { type: 'revolute', a: 'body.hinge', b: 'rightArm.hinge' },
      },
      state: {}, held: [],
      suspension: { scope: 'axle', chassis: 'body', steering: null, axle_position: 'rear', vehicle: {}, corners: [corner('left'), corner('right')] },
    } as unknown as AssemblyDoc;
    const sm = new SuspensionModel(validateAssembly(doc));
    const run = runSweep(sm, sweepFromShortcut('bump', '-30:30:3'));
    for (const step of run.steps) {
      expect(step.status).toBe('solved');
      const m = step.metrics as AxleMetricsOut;
      expect(m.axle.roll_center_kinematic_z).toBeCloseTo(h, 8);
      expect(Math.abs(m.axle.roll_center_kinematic_y!)).toBeLessThan(1e-8);
      // the classic construction agrees for a swing axle: the FVIC is the pivot itself
      expect(m.axle.roll_center_z).toBeCloseTo(h, 8);
    }
  });
});
