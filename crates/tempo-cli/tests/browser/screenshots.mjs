// The guide's screenshots (docs/web.md, "Screenshots"): each main page of
// scenes.mjs at desktop (1366×800) and phone (390×844) size, in German and
// English, as viewport shots (what a reader sees first; small files) into
// GUIDE_DIR as PAGE-SIZE-LANG.png. Driven by the ignored test
// `screenshots_for_the_guide` of crates/tempo-cli/tests/browser.rs.

import { statSync } from 'node:fs';
import path from 'node:path';
import { launch, sleep } from './lib.mjs';
import { PAGES, PRINTOUTS, TABLE_PAGES, pageFor, printoutScene, ready, setUp, tablesScene, tableScene } from './scenes.mjs';

const OUT = path.resolve(process.env.GUIDE_DIR || '../../../../docs/screenshots');
const SIZES = [['desktop', { width: 1366, height: 800 }], ['phone', { width: 390, height: 844 }]];
const LANGS = [['de', 'de-DE'], ['en', 'en-GB']];

const browser = await launch();
let failed = false;
try {
  const state = await setUp();
  let total = 0;
  for (const [name, route, who, selector, scrollTo] of PAGES) {
    for (const [size, viewport] of SIZES) {
      for (const [lang, locale] of LANGS) {
        const page = await pageFor(browser, who, { viewport, locale });
        await page.goto(route(state));
        await ready(page, selector, state);
        if (scrollTo) await page.locator(scrollTo).first().scrollIntoViewIfNeeded();
        // The web font, the board's pieces and any slide settle.
        await page.evaluate(() => document.fonts.ready);
        await sleep(600);
        const file = path.join(OUT, `${name}-${size}-${lang}.png`);
        await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
        const bytes = statSync(file).size;
        total += bytes;
        const shownLang = await page.evaluate(() => document.documentElement.lang);
        console.log(`${path.basename(file)}  ${bytes} bytes  (lang=${shownLang}${page.errors.length ? '; errors: ' + page.errors.join('; ') : ''})`);
        await page.context().close();
      }
    }
  }
  // A table game: the display at a projector's size, a seat's phone, the
  // director's page with both seats' codes, as TABLE-LANG.png.
  const table = await tableScene();
  for (const [name, route, who, selector, viewport] of TABLE_PAGES) {
    for (const [lang, locale] of LANGS) {
      const page = await pageFor(browser, who, { viewport, locale });
      await page.goto(route(table));
      await ready(page, selector, table);
      await page.evaluate(() => document.fonts.ready);
      await sleep(600);
      const file = path.join(OUT, `${name}-${lang}.png`);
      await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
      const bytes = statSync(file).size;
      total += bytes;
      console.log(`${path.basename(file)}  ${bytes} bytes${page.errors.length ? '; errors: ' + page.errors.join('; ') : ''}`);
      await page.context().close();
    }
  }
  // The printouts as on paper: print media, an A4 sheet's width at 96 dpi
  // (portrait 794 px, landscape 1123 px), the whole sheet.
  const printouts = await printoutScene();
  for (const [name, route, landscape, selector] of PRINTOUTS) {
    for (const [lang, locale] of LANGS) {
      const viewport = landscape ? { width: 1123, height: 794 } : { width: 794, height: 1123 };
      const page = await pageFor(browser, null, { viewport, locale });
      await page.goto(route(printouts));
      await ready(page, selector, printouts);
      await page.emulateMedia({ media: 'print' });
      // The sheet's margin (on paper the @page rule's).
      await page.evaluate(() => { document.body.style.padding = '40px'; });
      await sleep(400);
      const file = path.join(OUT, `${name}-${lang}.png`);
      await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide' });
      const bytes = statSync(file).size;
      total += bytes;
      console.log(`${path.basename(file)}  ${bytes} bytes${page.errors.length ? '; errors: ' + page.errors.join('; ') : ''}`);
      await page.context().close();
    }
  }
  // The director's print of a round at tables: the list, then the seat
  // cards (a sheet of their own on paper; shown here below the list).
  const tables = await tablesScene();
  for (const [lang, locale] of LANGS) {
    const page = await pageFor(browser, 'arbi', { viewport: { width: 794, height: 1123 }, locale });
    await page.goto(`/tournaments/${tables}/print?round=1`);
    await ready(page, '[data-seat-card] svg path');
    await page.emulateMedia({ media: 'print' });
    await page.evaluate(() => { document.body.style.padding = '40px'; });
    await sleep(400);
    const file = path.join(OUT, `print-seat-cards-${lang}.png`);
    await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide' });
    const bytes = statSync(file).size;
    total += bytes;
    console.log(`${path.basename(file)}  ${bytes} bytes${page.errors.length ? '; errors: ' + page.errors.join('; ') : ''}`);
    await page.context().close();
  }
  console.log(`\n${total} bytes in all, in ${OUT}`);
} catch (err) {
  console.error(err.stack || err);
  failed = true;
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
