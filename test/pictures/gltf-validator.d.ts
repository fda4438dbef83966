/** The part of the Khronos glTF validator's API the tests use (the package ships no types). */
declare module 'gltf-validator' {
  interface ValidationMessage { code: string; message: string; severity: number; pointer?: string }
  interface ValidationReport {
    issues: { numErrors: number; numWarnings: number; numInfos: number; numHints: number; messages: ValidationMessage[] };
    info?: { animationCount?: number; meshCount?: number; nodeCount?: number };
  }
  export function validateBytes(data: Uint8Array, options?: { maxIssues?: number; format?: 'glb' | 'gltf' }): Promise<ValidationReport>;
}
