// Draws the installed app's PNG icons from src/web/public/icon.svg, the one drawing of the mark
// (the favicon is that file itself). Run it again after changing the drawing; the PNGs are
// committed, so neither the build nor a user needs a browser for them.
//
//   node scripts/make-icons.mjs
//
// Needs Chromium at /usr/bin/chromium (as the end-to-end stories do).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'web', 'public');
const svg = readFileSync(join(publicDir, 'icon.svg'), 'utf8');
// The drawing's own background colour fills the edge-to-edge icons, so the colour stays in one place.
const background = /<rect[^>]*fill="(#[0-9a-f]{3,8})"/i.exec(svg)?.[1];
if (!background)
  throw new Error('icon.svg has no <rect fill="#…"> background to fill the full-bleed icons with.');

/**
 * `mark` is the share of the side the drawing takes. At 1 it is the drawing as it is (rounded
 * corners, transparent outside them). Below 1 the icon is edge to edge in the background colour
 * with the drawing centred: a launcher crops a maskable icon to any shape inside the middle 80 %
 * circle, and iOS rounds the corners itself and turns transparency black.
 */
const ICONS = [
  { file: 'icon-192.png', size: 192, mark: 1 },
  { file: 'icon-512.png', size: 512, mark: 1 },
  { file: 'icon-maskable-512.png', size: 512, mark: 0.8 },
  { file: 'apple-touch-icon.png', size: 180, mark: 0.8 },
];

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

function pageFor({ size, mark }) {
  const side = Math.round(size * mark);
  const offset = (size - side) / 2;
  const fill = mark < 1 ? background : 'transparent';
  const image = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  return `<!doctype html><html><body style="margin:0;width:${size}px;height:${size}px;background:${fill}">
<img src="${image}" width="${side}" height="${side}" style="position:absolute;left:${offset}px;top:${offset}px">
</body></html>`;
}

async function main() {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    for (const icon of ICONS) {
      const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
      await page.setContent(pageFor(icon));
      await page.locator('img').evaluate((image) => image.decode());
      writeFileSync(join(publicDir, icon.file), await page.screenshot({ omitBackground: true }));
      await page.close();
      console.log(`${icon.file} ${icon.size}×${icon.size}`);
    }
  } finally {
    await browser.close();
  }
}

main().catch((error) => {
  console.error(`Could not draw the icons: ${error?.message ?? error}`);
  process.exit(1);
});
