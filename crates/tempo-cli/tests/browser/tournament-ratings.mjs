// tournament-ratings.mjs — the rating figures beside the standings (docs/ratings.md): a round robin
// set up through the API with ratings, birth years, DWZ and a FIDE K, its
// standings page in English and German, on a desktop and a 360 px phone.
// The figures are the FIDE example (+10.0) and sk-troisdorf.de's
// DWZ example (1000 beating 1200: 1101).

import { createRequire } from 'node:module';
import { apiAs, newPage, login, assert, assertEqual, screenshot, PHONE } from './lib.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

async function ratedTournament() {
  const arbi = await apiAs('arbi');
  const { id } = await arbi.post('/api/tournaments', { name: 'Rated evening', system: 'round-robin', rounds: 3 });
  const junior = new Date().getUTCFullYear() - 15;
  for (const p of [
    { name: 'Anna', rating: 1800, fide_k: 20, dwz: 1000, dwz_index: 10, birth_year: junior },
    { name: 'Ben', rating: 1900, dwz: 1200, dwz_index: 10, birth_year: junior },
    { name: 'Cleo', rating: 1700 },
    { name: 'Dirk' },
  ]) await arbi.post(`/api/tournaments/${id}/players`, p);
  // Berger for four: 1-4, 2-3; 4-3, 1-2; 2-4, 3-1.
  const results = [['1-0', '+-'], ['0-1', '1-0'], ['1/2-1/2', '1/2-1/2']];
  for (const [i, round] of results.entries()) {
    await arbi.post(`/api/tournaments/${id}/rounds`);
    for (const [b, result] of round.entries()) {
      await arbi.post(`/api/tournaments/${id}/rounds/${i + 1}/results`, { board: b + 1, result });
    }
  }
  return id;
}

export const tests = [
  ['the FIDE change and the DWZ preview beside the standings, in both languages, on a phone', async (browser) => {
    const id = await ratedTournament();
    for (const [locale, fideHead, dwzHead] of [['en-GB', 'Elo ±', 'New DWZ'], ['de-DE', 'Elo ±', 'DWZ neu']]) {
      const page = await newPage(browser, { locale, bypassCSP: true });
      await login(page, 'arbi');
      await page.goto(`/tournaments/${id}/standings`);
      await page.waitForSelector('table.standings tbody tr');
      const heads = await page.$$eval('table.standings th', (ths) => ths.map((th) => th.textContent));
      assert(heads.includes(fideHead) && heads.includes(dwzHead), `${locale} headers: ${heads}`);
      assertEqual(await page.textContent('[data-fide="+10.0"]'), '+10.0', 'Anna: the issue\'s FIDE example');
      assertEqual(await page.textContent('[data-dwz="1101 (+101)"]'), '1101 (+101)', 'Anna: sk-troisdorf.de\'s DWZ example');
      assertEqual(await page.textContent('[data-fide="−25.6"]'), '−25.6', 'Ben: a junior\'s K 40');
      const title = await page.getAttribute('[data-fide="+10.0"]', 'title');
      assert(title.includes('20') && title.includes('1.00'), `the K and the expected score in the title: ${title}`);
      await screenshot(page, `tournament-ratings-desktop-${locale.slice(0, 2)}`);
      await page.setViewportSize(PHONE);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert(width <= PHONE.width, `the standings fit a phone (${width} px)`);
      await screenshot(page, `tournament-ratings-phone-${locale.slice(0, 2)}`);
      await page.addScriptTag({ path: AXE });
      const { violations } = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
      const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assertEqual(bad.map((v) => v.id).join(', '), '', `no serious axe-core violation (${locale})`);
      assertEqual(page.errors.join('; '), '', 'no script error, no missing string');
      await page.close();
    }
  }],
];
