// Renders the site's own artwork (the SVG covers and portrait in public/images) to AVIF at the widths the
// pages show them, and writes the list to src/client/lib/image-variants.json. The SVGs stay the masters (the
// gallery's lightbox and the file store use them); the pages draw the AVIF files because a browser
// rasterises an SVG with noise and blur filters on the main thread, which on a phone is a long task.
// Run it after changing an SVG (npm run images); the outputs are committed, so builds do not need it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import sharp from 'sharp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const publicDir = path.join(root, 'public');
const manifestPath = path.join(root, 'src/client/lib/image-variants.json');
// Widths let a phone (15rem at 1.75x-3x) and a desktop column (20-24rem at 1x-2x) each find a close fit.
const WIDTHS = [240, 320, 420, 560, 720, 960];
const DIRS = ['images/covers', 'images/author'];
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// The browser draws the masters (text fitted with textLength, filters) exactly as the site showed them;
// sharp only encodes its pixels.
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = await browser.newPage();
const manifest = {};
try {
  for (const dir of DIRS) {
    for (const file of fs.readdirSync(path.join(publicDir, dir)).filter((f) => f.endsWith('.svg')).sort()) {
      const svg = fs.readFileSync(path.join(publicDir, dir, file));
      const { width, height } = await sharp(svg).metadata();
      const base = file.replace(/\.svg$/, '');
      const dataUrl = `data:image/svg+xml;base64,${svg.toString('base64')}`;
      const variants = [];
      for (const w of WIDTHS) {
        const h = Math.round((w * height) / width);
        await page.setViewportSize({ width: w, height: h });
        await page.setContent(`<html><body style="margin:0"><img src="${dataUrl}" style="display:block;width:${w}px;height:${h}px"></body></html>`);
        await page.waitForFunction(() => document.images[0]?.complete);
        const pixels = await page.screenshot({ type: 'png' });
        const out = `${dir}/${base}-${w}.avif`;
        await sharp(pixels).avif({ quality: 50, effort: 6 }).toFile(path.join(publicDir, out));
        variants.push({ width: w, src: `/${out}` });
      }
      manifest[`/${dir}/${file}`] = { width, height, variants };
      console.log(`${dir}/${file}: ${variants.map((v) => v.width).join(', ')}`);
    }
  }
} finally {
  await browser.close();
}
fs.writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`wrote ${path.relative(root, manifestPath)}`);
