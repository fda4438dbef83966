/**
 * The table entries of `kinemate plot`, `kinemate report` and `kinemate export`: names and
 * help here, the work in pictures.ts, imported when one of them runs, so that the other
 * commands do not load the chart, PNG and glTF libraries (about half a second).
 */
import type { Command } from './command.ts';

export const plotCommand: Command = {
  name: 'plot',
  synopsis:
    'plot   GEOMETRY [--bump A:B:N | --steer A:B:N | --roll A:B:N | --sweep SWEEP] [--hold ID]\n' +
    '       --metric NAME [--metric NAME]... [--baseline GEOMETRY] --out FILE.svg|FILE.png\n' +
    '       or MODEL --drive COORD --from A --to B --steps N --metric COORD... --out FILE.svg|FILE.png\n' +
    '       or FILE.tir --metric fx|fy|mz [--slip-angle A:B:N] [--slip-ratio A:B:N] [--load FZ] [--camber DEG] --out FILE.svg|FILE.png\n' +
    '       or GEOMETRY --kc EVENT [--range A:B:N] [--at bump=V|steer=V|roll=V] --metric NAME... --out FILE.svg|FILE.png',
  summary: 'plot metrics over a sweep (or coordinates over a drive, a tyre\'s forces over slip, K&C curves over load) as SVG or PNG',
  help: `Usage: kinemate plot GEOMETRY [sweep options] --metric NAME [--metric NAME]...
                     [--baseline GEOMETRY] --out FILE.svg|FILE.png [--width PX] [--height PX]
       kinemate plot MODEL --drive COORD --from A --to B --steps N --metric COORD...
                     [--baseline MODEL] --out FILE.svg|FILE.png
       kinemate plot FILE.tir --metric fx|fy|mz [--slip-angle A:B:N] [--slip-ratio A:B:N]
                     [--load FZ] [--camber DEG] [--baseline OTHER.tir] --out FILE.svg|FILE.png
       kinemate plot GEOMETRY --kc EVENT [--range A:B:N] [--at bump=V|steer=V|roll=V]
                     --metric NAME... --out FILE.svg|FILE.png

Runs one suspension sweep of GEOMETRY (default: --bump -50:50:11) and draws one panel per
metric against the swept quantity (wheel travel, rack travel, roll, or the first moving
target of a sweep file), with axis titles and units and the design point marked. With
--baseline, the baseline geometry is swept the same way and drawn dashed beside it.
With --drive, MODEL (any *.kinemate.json) is driven as by "kinemate drive" and the
--metric names are its coordinates, drawn against the driven one. With --kc, a geometry
with compliance: runs that K&C rig event (as kinemate kc) and each metric is drawn at the
deflected pose against the event's load (docs/compliance.md).
A tyre property file (FILE.tir) is evaluated as by "kinemate tyre" and its forces drawn
against the slip angle (default -15:15:61), one curve per slip ratio; with --slip-ratio
alone, against the slip ratio (docs/tyres.md).

The picture is SVG or PNG by the --out extension, --width × --height px (default 720 wide,
60 + 220 px per panel high).

Options:
  --bump/--steer/--roll A:B:N, --sweep SWEEP, --hold ID   as for kinemate sweep (one sweep)
  --metric NAME      a metric of the sweep (camber, toe_angle, left.camber, axle.roll, …;
                     a wrong name lists them all), or a coordinate with --drive. Repeatable.
  --baseline FILE    a second geometry (or model) to compare against, drawn dashed
  --out FILE         where to write the picture: .svg or .png
  --width PX, --height PX   the picture's size (16 to 10000 px each)
  -h, --help         this text

The metrics' definitions, units and signs: docs/metrics.md.

Exit codes: 0 done; 1 bad input (one line on stderr); 2 a step could not be solved (the
picture is written with a gap there).
`,
  async run(argv, io) {
    return (await import('./pictures.ts')).runPlot(argv, io);
  },
};

export const reportCommand: Command = {
  name: 'report',
  synopsis: 'report GEOMETRY [sweep options] [--baseline GEOMETRY] --out report.html',
  summary: 'one self-contained HTML page: hardpoints, design metrics, curves, diagnostics, CSV',
  help: `Usage: kinemate report GEOMETRY [--bump A:B:N | --steer A:B:N | --roll A:B:N | --sweep SWEEP]
                       [--hold ID] [--baseline GEOMETRY] --out report.html

Writes one self-contained HTML file (no network needed to view it): the hardpoint table
(with the differences from the baseline), the key metrics at design, the standard curves
(camber, toe, caster, KPI, scrub, roll centre, anti-geometry, motion ratio where a spring
is fitted) over the sweep (default: --bump -50:50:11), the sweep's diagnostics (failed
steps, possible branch jumps, steering-axis status), and the sweep as a CSV download
(the same CSV as kinemate sweep --format csv). On a geometry with a compliance: section, a
"Compliance (K&C)" section too: the zero-load K&C coefficients (a column per side) and toe
and camber against the lateral, braking and aligning loads (docs/compliance.md).

The metrics' definitions, units and signs: docs/metrics.md.

Exit codes: 0 done; 1 bad input (one line on stderr); 2 a step could not be solved (the
report is written and lists it).
`,
  async run(argv, io) {
    return (await import('./report-command.ts')).runReport(argv, io);
  },
};

export const exportCommand: Command = {
  name: 'export',
  synopsis:
    'export GEOMETRY [sweep options] --gltf OUT.glb [--fps N]\n' +
    '       or MODEL --drive COORD --from A --to B --steps N --gltf OUT.glb [--fps N]\n' +
    '       or MODEL --simulate DURATION [--step H] --gltf OUT.glb [--fps N]',
  summary: 'an animated glTF (.glb) of a sweep, a drive or a simulation, for any glTF viewer or Blender',
  help: `Usage: kinemate export GEOMETRY [--bump A:B:N | --steer A:B:N | --roll A:B:N | --sweep SWEEP]
                       [--hold ID] --gltf OUT.glb [--fps N]
       kinemate export MODEL --drive COORD --from A --to B --steps N --gltf OUT.glb [--fps N]
       kinemate export MODEL --simulate DURATION [--step H] --gltf OUT.glb [--fps N]

With --simulate, MODEL (a *.kinemate.json with masses) is simulated as by "kinemate simulate"
for DURATION seconds at step H (default 0.001 s); a keyframe is written every round(1/(N·H))
steps, at the simulation's own times. A failed step ends the clip there (exit 2).
Writes an animated glTF 2.0 binary: every part of the assembly a node named after it, with
a translation and a rotation keyframe at each solved state (N per second, default 25);
every two-point link (track rod, pushrod, multi-link rod) a node named after its mate; simple
meshes for links, wishbones, uprights, wheels (<upright>_wheel) and tyres (<upright>_tyre).
Metres, y up (the root node "kinemate" turns the model's z-up frame); keyframes are 32-bit
floats as glTF requires, and each animated node's extras.kinemate keeps the exact poses
(file units, rotation [w, x, y, z]). A failed step keeps the last good pose.

Exit codes: 0 done; 1 bad input (one line on stderr); 2 a step could not be solved.
`,
  async run(argv, io) {
    return (await import('./pictures.ts')).runExport(argv, io);
  },
};
