/** Which rasteriser WebGL runs on: a GPU, or software on the CPU. */

/**
 * Whether WebGL runs on a software rasteriser (SwiftShader, llvmpipe, Microsoft Basic
 * Render): headless Chromium, virtual machines, computers without a GPU driver. There a
 * frame's cost is its pixels and draw calls on the CPU, shared with the solver.
 */
export function softwareRenderer(): { software: boolean; name: string } {
  try {
    const canvas = document.createElement('canvas');
    const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext | null;
    if (!gl) return { software: false, name: 'no WebGL' };
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = `${String(gl.getParameter(gl.RENDERER))} ${info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : ''}`.trim();
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return { software: /swiftshader|llvmpipe|softpipe|software|basic render/i.test(name), name };
  } catch {
    return { software: false, name: 'unknown' };
  }
}
