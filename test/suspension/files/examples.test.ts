import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseGeometry, parseSweep, type Geometry } from '../../../src/suspension/files';

const examples = new URL('../../../examples/suspension/', import.meta.url);
const read = (name: string): string => readFileSync(new URL(name, examples), 'utf8');
const yamlFiles = readdirSync(examples).filter((name) => name.endsWith('.yaml'));
const sweepFiles = ['bump.yaml', 'steer.yaml', 'bump_steer.yaml'];
const geometryFiles = [
  'double_wishbone.yaml',
  'double_wishbone_pushrod.yaml',
  'macpherson.yaml',
  'multi_link.yaml',
  'trailing_arm.yaml',
  'double_wishbone_axle.yaml',
  'multi_link_axle.yaml',
];
const geometries = new Map<string, Geometry>(geometryFiles.map((name) => [name, parseGeometry(read(name), name)]));

describe('examples/suspension', () => {
  it('holds every listed file, and every YAML file there is a valid geometry or sweep', () => {
    expect(yamlFiles).toEqual(expect.arrayContaining([...geometryFiles, ...sweepFiles]));
    for (const name of yamlFiles) {
      const isSweep = (parse(read(name)) as { version?: unknown }).version !== undefined;
      expect(() => (isSweep ? parseSweep(read(name)) : parseGeometry(read(name))), name).not.toThrow();
    }
  });

  it.each(geometryFiles)('%s parses and validates', (name) => {
    const geometry = parseGeometry(read(name), name);
    expect(geometry.raw).toEqual(parse(read(name)));
  });

  it('geometry layouts are as suspension.md describes them', () => {
    const summary = Object.fromEntries(
      [...geometries].map(([name, g]) => [
        name,
        [g.scope, g.topology, g.corners.length, g.axle_position, g.steering, g.actuation.type, g.actuation.mount, g.spring.type].join(' '),
      ]),
    );
    expect(summary).toEqual({
      'double_wishbone.yaml': 'corner double_wishbone 1 front rack direct lower_wishbone none',
      'double_wishbone_pushrod.yaml': 'corner double_wishbone 1 front rack pushrod_rocker upright coilover',
      'macpherson.yaml': 'corner macpherson 1 front rack direct upright coilover',
      'multi_link.yaml': 'corner multi_link 1 front rack direct lower_rear_link coilover',
      'trailing_arm.yaml': 'corner trailing_arm 1 rear none direct trailing_arm coilover',
      'double_wishbone_axle.yaml': 'axle double_wishbone 2 front rack direct lower_wishbone none',
      'multi_link_axle.yaml': 'axle multi_link 2 front rack direct lower_rear_link coilover',
    });
  });

  it('tyres and vehicle data: 270/55R13 (313.6 mm) everywhere but the multi-link (205/55R16)', () => {
    for (const [name, geometry] of geometries) {
      const multiLink = geometry.topology === 'multi_link';
      expect(geometry.wheel.offset, name).toBe(0);
      expect(geometry.wheel.tire_radius, name).toBeCloseTo(multiLink ? 16 * 12.7 + 0.55 * 205 : 313.6, 12);
      expect(geometry.vehicle.cg_position, name).toEqual(multiLink ? [1080, 0, 520] : [1250, 0, 450]);
      expect(geometry.vehicle.wheelbase, name).toBe(multiLink ? 2700 : 2500);
    }
  });

  it('the double wishbone variants share the public sanity hardpoints', () => {
    const sanity = geometries.get('double_wishbone.yaml')?.corners[0].hardpoints ?? {};
    expect(Object.keys(sanity)).toHaveLength(10);
    expect(sanity.axle_inboard).toEqual([-20, 800, 308.426]);
    expect(sanity.upper_wishbone_outboard).toEqual([-25, 750, 500]);
    for (const name of ['double_wishbone_pushrod.yaml', 'double_wishbone_axle.yaml']) {
      expect(geometries.get(name)?.corners[0].hardpoints, name).toMatchObject(sanity);
    }
  });

  it('the multi-link damper sits on the lower rear link, 0.9 of the way out', () => {
    const points = geometries.get('multi_link.yaml')?.corners[0].hardpoints ?? {};
    const [inboard, outboard] = [points.lower_rear_link_inboard, points.lower_rear_link_outboard];
    const onLink = inboard.map((value, axis) => value + 0.9 * (outboard[axis] - value));
    onLink.forEach((value, axis) => expect(points.strut_bottom[axis]).toBeCloseTo(value, 9));
  });

  it('the multi-link axle gives a right side equal to the mirrored left', () => {
    const [left, right] = geometries.get('multi_link_axle.yaml')?.corners ?? [];
    for (const [name, [x, y, z]] of Object.entries(left.hardpoints)) expect(right.hardpoints[name], name).toEqual([x, -y, z]);
  });

  it.each(sweepFiles)('%s validates alone and against every steered geometry', (name) => {
    const spec = parseSweep(read(name));
    expect(spec.steps).toBe(11);
    for (const [geometryName, geometry] of geometries) {
      if (geometry.steering === 'none') continue;
      expect(parseSweep(read(name), geometry, name), geometryName).toEqual(spec);
    }
  });

  it('bump.yaml also serves the unsteered trailing arm, without the rack hold', () => {
    const spec = parseSweep(read('bump.yaml'), geometries.get('trailing_arm.yaml'));
    expect(spec.targets).toEqual([
      { type: 'point', point: 'wheel_center', direction: { axis: 'z' }, mode: 'relative', hold: false, start: -50, stop: 50 },
    ]);
  });

  it('sweep contents: bump, steer, paired bump and steer', () => {
    const motions = (name: string): string[] =>
      parseSweep(read(name)).targets.map((t) => `${t.type}${t.type === 'point' ? `:${t.point}.${t.direction.axis}` : ''} ${t.hold ? 'hold' : `${t.start}..${t.stop}`}`);
    expect(motions('bump.yaml')).toEqual(['point:wheel_center.z -50..50', 'actuator_position hold']);
    expect(motions('steer.yaml')).toEqual(['actuator_position -30..30', 'point:wheel_center.z hold']);
    expect(motions('bump_steer.yaml')).toEqual(['point:wheel_center.z -50..50', 'actuator_position -30..30']);
  });
});
