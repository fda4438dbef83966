/**
 * SVG → PNG in Node with resvg (a real SVG renderer, native code shipped inside its npm
 * package). Text needs fonts: the common sans-serif families installed by Debian's
 * fonts-dejavu-core or fonts-liberation are loaded by file (fast); failing those, the
 * system's fonts are scanned.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';

/** Font files tried first, and the family they provide. */
const FONT_CANDIDATES: readonly { family: string; files: readonly string[] }[] = [
  { family: 'DejaVu Sans', files: ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'] },
  { family: 'Liberation Sans', files: ['LiberationSans-Regular.ttf', 'LiberationSans-Bold.ttf'] },
];
const FONT_ROOTS = ['/usr/share/fonts', '/usr/local/share/fonts', '/Library/Fonts', '/System/Library/Fonts', 'C:\\Windows\\Fonts'];

let cachedFonts: ResvgRenderOptions['font'] | undefined;

/** Where a file of that name lies under the font folders (two levels deep), or undefined. */
function findFontFile(name: string): string | undefined {
  for (const root of FONT_ROOTS) {
    if (!existsSync(root)) continue;
    const direct = join(root, name);
    if (existsSync(direct)) return direct;
    const stack: [string, number][] = [[root, 0]];
    while (stack.length > 0) {
      const [dir, depth] = stack.pop()!;
      let entries;
      try { entries = readdirSync(dir, { withFileTypes: true }); } catch { continue; }
      for (const entry of entries) {
        if (entry.isFile() && entry.name === name) return join(dir, entry.name);
        if (entry.isDirectory() && depth < 3) stack.push([join(dir, entry.name), depth + 1]);
      }
    }
  }
  return undefined;
}

/** resvg's font options: a known sans-serif family by file, else every system font. Cached. */
export function fontOptions(): NonNullable<ResvgRenderOptions['font']> {
  if (cachedFonts === undefined) {
    for (const candidate of FONT_CANDIDATES) {
      const files = candidate.files.map(findFontFile).filter((f): f is string => f !== undefined);
      if (files.length > 0) {
        cachedFonts = { loadSystemFonts: false, fontFiles: files, defaultFontFamily: candidate.family, sansSerifFamily: candidate.family };
        break;
      }
    }
    cachedFonts ??= { loadSystemFonts: true };
  }
  return cachedFonts!;
}

/** True when a known sans-serif font file was found (else text relies on whatever the system has). */
export function knownFontFound(): boolean {
  return fontOptions().loadSystemFonts === false;
}

/**
 * Renders an SVG document to PNG bytes at its own size in px (`width`/`height` of the root
 * element), on white. Throws the renderer's error for a document it cannot parse.
 */
export function svgToPng(svg: string): Uint8Array {
  const resvg = new Resvg(svg, { font: fontOptions(), background: 'white', fitTo: { mode: 'original' } });
  return resvg.render().asPng();
}
