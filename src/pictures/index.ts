/**
 * Pictures as a library (a second public entry beside src/index.ts, kept apart so that
 * importing the solver does not load the chart and glTF libraries): charts as SVG, the
 * report page as HTML, animated glTF scenes as .glb bytes. Plain functions, data in,
 * text or bytes out, no Node API: the viewer and the command share them. Writing files and
 * PNG rendering (resvg, native) belong to the command (src/cli/pictures.ts, png.ts).
 */
export { chartSvg, chartSpec, chartSize, type Chart, type ChartSize, type Curve, type DesignPoint, type Panel } from './plot.ts';
export { sweepChart, sweepAxis, plottableMetrics, type SweepSeries, type SweepAxis, type DesignState } from './sweep-chart.ts';
export { metricLabel, axisTitle, type MetricLabel } from './labels.ts';
export { assemblyScene, type SceneOptions, type StatePoses } from './scene.ts';
export { sceneToGlb, ROOT_NODE, type AnimatedScene, type MeshData, type Pose, type SceneNode } from './gltf.ts';
export { reportHtml, type ReportInput } from './report.ts';
export { kcChart, KC_LOAD_TITLES, type KcSeries } from './kc-chart.ts';
export { tyreChart, TYRE_METRICS, type TyreMetric, type TyreSeries } from './tyre-chart.ts';
