/**
 * The suite's browser: Debian's Chromium driven by playwright-core (`.ci/run` installs it), and
 * the check that a screenshot shows a rendered page.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Takes a screenshot (kept as TMPDIR/NAME.png to look at) and measures it in the page: its size,
 * how many colours it has and the share of pixels that are not near-white. A page that renders
 * nothing is a blank or single-colour image.
 */
export async function screenshotStats(page: Page, name: string) {
  const png = await page.screenshot({ fullPage: false });
  writeFileSync(`${process.env.TMPDIR ?? '/tmp'}/${name}.png`, png);
  return page.evaluate(
    async (src) => {
      // Runs in the page (this file is type-checked without the DOM library).
      const { Image, document } = globalThis as any;
      const img = new Image();
      img.src = src;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0);
      const px = g.getImageData(0, 0, c.width, c.height).data;
      const colours = new Set<number>();
      let ink = 0;
      for (let i = 0; i < px.length; i += 4) {
        colours.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
        if (px[i] + px[i + 1] + px[i + 2] < 600) ink++;
      }
      return { width: c.width, height: c.height, colours: colours.size, ink: ink / (px.length / 4) };
    },
    `data:image/png;base64,${png.toString('base64')}`,
  );
}
