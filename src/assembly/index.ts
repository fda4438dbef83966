/** The assembly document: its types, and exact loading and saving of `*.kinemate.json`. */

export * from './types.ts';
export { AssemblyError, ROOT_PATH, memberPath, itemPath, type TextPosition } from './errors.ts';
export { parseAssembly, validateAssembly, mateTypesJoining } from './load.ts';
export { serializeAssembly } from './save.ts';
export * from './geometry/index.ts';
export { parseJson, stringifyJson, MAX_JSON_DEPTH, type JsonValue, type JsonObject } from './json.ts';
