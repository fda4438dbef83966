/** Part geometry: the mesh type, the `geometry` field, the readers and the lazy, cached loading. */
export * from './mesh.ts';
export { GeometryError } from './errors.ts';
export { GEOMETRY_UNITS, checkGeometryList, type GeometryDoc, type GeometryFrameDoc, type GeometryUnit } from './doc.ts';
export { geometryFormat, formatOf, readMeshBytes, checkMesh, placeMesh, unitScale, type GeometryFormat } from './read.ts';
export { fileSource, loadGeometryEntry, loadPartGeometry, loadDocumentGeometry, clearGeometryCache, type GeometrySource, type DocumentGeometry } from './load.ts';
export type { ResourceReader } from './gltf.ts';
export { sphereMesh, boxMesh, torusMesh, gridBoxMesh, cylinderMesh } from './primitives.ts';
export { meshToStl, meshToAsciiStl, meshToObj, meshToGlb } from './write.ts';
