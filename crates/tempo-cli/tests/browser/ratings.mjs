// Club ratings (issue #26, item 4): a challenge sent with the form's
// "Rated" box is rated; after the game both members' pages show the
// changed Glicko-2 rating and its history as an SVG chart; the ratings
// list puts the winner first. Ella and Finn play no other test's games.

import { createRequire } from 'node:module';
import {
  apiAs, assert, assertEqual, DESKTOP, loggedInPage, PHONE, screenshot,
} from './lib.mjs';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');

// Nothing wider than the phone, no serious axe-core violation.
async function fitsAndPasses(page, what) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 1, `${what}: ${overflow}px wider than the screen`);
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert(!bad.length, `${what}: axe-core: ${bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 120)).join(' | ')}`).join('; ')}`);
}

async function orthodox(name) {
  const api = await apiAs(name);
  const data = await api.get(`/api/users/${name}/ratings`);
  return data.ratings.find((g) => g.variant === 'orthodox');
}

export const tests = [
  [
    'a rated challenge from the form changes both ratings; the member page shows them and an SVG chart',
    async (browser) => {
      const before = { ella: await orthodox('ella'), finn: await orthodox('finn') };
      const ella = await loggedInPage(browser, 'ella', { bypassCSP: true });
      const finn = await loggedInPage(browser, 'finn');
      await ella.goto('/');
      const form = ella.locator('[data-form="challenge"]');
      await form.locator('select[name="opponent"]').selectOption('finn');
      await form.locator('select[name="variant"]').selectOption('standard');
      await form.locator('select[name="clock"]').selectOption('300+3');
      await form.locator('select[name="color"]').selectOption('white');
      await form.locator('input[name="rated"]').check();
      await form.locator('[data-action="challenge"]').click();
      await finn.goto('/');
      const offer = finn.locator('[data-challenge]').filter({ hasText: 'ella' });
      await offer.locator('[data-action="accept"]').waitFor();
      assert((await offer.innerText()).includes('Rated'), 'the challenge says it is rated');
      await offer.locator('[data-action="accept"]').click();
      await finn.waitForURL(/\/game\/[A-Za-z0-9]+$/);
      const gameId = new URL(finn.url()).pathname.split('/').pop();
      await finn.locator('[data-rated="true"]').waitFor();
      assertEqual((await finn.locator('[data-rated]').innerText()).trim(), 'Rated game', 'the game page says rated');
      // The first moves at once (the first-move rule aborts an untouched game), then Finn resigns.
      const [w, b] = [await apiAs('ella'), await apiAs('finn')];
      await w.post(`/api/board/game/${gameId}/move/e2e4`);
      await b.post(`/api/board/game/${gameId}/move/e7e5`);
      await b.post(`/api/board/game/${gameId}/resign`);
      const after = { ella: await orthodox('ella'), finn: await orthodox('finn') };
      assertEqual(after.ella.games, before.ella.games + 1, 'Ella: one more rated game');
      assertEqual(after.finn.games, before.finn.games + 1, 'Finn: one more rated game');
      assert(after.ella.history[0].ratingAfter > after.ella.history[0].ratingBefore, 'the winner gains');
      assert(after.finn.history[0].ratingAfter < after.finn.history[0].ratingBefore, 'the loser loses');
      assertEqual(after.ella.history[0].gameId, gameId, 'the history names the game');
      // Ella's page, from the lobby's link to her name is Finn's way there.
      await ella.goto('/@/ella');
      const card = ella.locator('[data-rating-group="orthodox"]');
      await card.waitFor();
      assertEqual(await card.locator('[data-rating]').getAttribute('data-rating'), String(after.ella.rating), 'the page shows the new rating');
      const shown = (await card.locator('[data-rating]').innerText()).trim();
      assertEqual(shown, after.ella.rd >= 110 ? `${after.ella.rating}?` : String(after.ella.rating), 'a "?" while provisional');
      const chart = card.locator('svg[data-chart="orthodox"]');
      await chart.waitFor();
      assert(await chart.locator('polyline').count() === 1, 'a line of the ratings');
      assertEqual(await chart.locator('circle').count(), after.ella.history.length + 1, 'a dot per game and the start');
      assert(await card.locator(`[data-game="${gameId}"]`).count() === 1, 'the game in the history table');
      await screenshot(ella, 'ratings-member-desktop');
      await fitsAndPasses(ella, 'member page, desktop');
      // The list: Ella above Finn.
      await ella.goto('/ratings?variant=chess960');
      await ella.locator('[data-ratings="orthodox"]').waitFor();
      const names = await ella.locator('[data-ratings="orthodox"] tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.row));
      assert(names.indexOf('ella') >= 0 && names.indexOf('ella') < names.indexOf('finn'), `Ella above Finn: ${names}`);
      assertEqual(await ella.locator('.tabs [aria-current="page"]').getAttribute('data-group'), 'orthodox', 'Chess960 is the orthodox group');
      for (const page of [ella, finn]) assertEqual(page.errors.join('\n'), '', 'no script errors');
    },
  ],
  [
    'the member page and the ratings list fit a 360 px phone in German and pass axe-core',
    async (browser) => {
      const page = await loggedInPage(browser, 'finn', { viewport: PHONE, locale: 'de-DE', bypassCSP: true });
      await page.goto('/@/finn');
      await page.locator('[data-rating-group="orthodox"]').waitFor();
      assertEqual(await page.evaluate(() => document.documentElement.lang), 'de', 'German');
      const chart = page.locator('svg[data-chart="orthodox"]');
      if (await chart.count()) {
        const box = await chart.boundingBox();
        assert(box.width <= PHONE.width, `the chart fits: ${box.width}`);
      }
      await screenshot(page, 'ratings-member-phone');
      await fitsAndPasses(page, 'member page, phone');
      await page.goto('/ratings');
      await page.locator('.tabs [data-group="fairschach"]').waitFor();
      await screenshot(page, 'ratings-list-phone');
      await fitsAndPasses(page, 'ratings list, phone');
      const desktop = await loggedInPage(browser, 'finn', { viewport: DESKTOP, bypassCSP: true });
      await desktop.goto('/ratings');
      await desktop.locator('.tabs [data-group="orthodox"]').waitFor();
      await screenshot(desktop, 'ratings-list-desktop');
      await fitsAndPasses(desktop, 'ratings list, desktop');
      // The lobby's form has the box in both languages.
      await page.goto('/');
      await page.locator('[data-form="challenge"] input[name="rated"]').waitFor();
      assert((await page.locator('[data-form="challenge"]').innerText()).includes('Gewertet'), 'the box in German');
      assertEqual(page.errors.join('\n') + desktop.errors.join('\n'), '', 'no script errors');
    },
  ],
  [
    'a member page pages through older rated games (Older games)',
    async (browser) => {
      // The page's paging alone: the member's answers are stand-ins (a
      // member with 15 rated games would take 15 played games here).
      const point = (i) => ({
        gameId: `g${i}`, at: new Date(Date.UTC(2026, 0, 30 - i)).toISOString(),
        ratingBefore: 1500 + i, rdBefore: 200, ratingAfter: 1501 + i, rdAfter: 199, games: 15 - i,
      });
      const page = await loggedInPage(browser, 'finn', { viewport: DESKTOP });
      await page.route('**/api/users/zed/ratings', (route) => route.fulfill({ json: {
        username: 'Zed',
        ratings: [{ variant: 'orthodox', rating: 1515, rd: 120, volatility: 0.09, games: 15, provisional: true,
          history: Array.from({ length: 10 }, (_, i) => point(i)), moreHistory: false }],
      } }));
      const asked = [];
      await page.route('**/api/users/Zed/ratings/orthodox/history?*', (route) => {
        asked.push(new URL(route.request().url()).search);
        route.fulfill({ json: { username: 'Zed', variant: 'orthodox', page: 1,
          history: Array.from({ length: 5 }, (_, i) => point(10 + i)), nextPage: null } });
      });
      await page.goto('/@/zed');
      const rows = page.locator('[data-history="orthodox"] tbody tr');
      await rows.first().waitFor();
      assertEqual(await rows.count(), 10, 'the newest ten first');
      await page.click('[data-action="more-history"]');
      await page.locator('[data-game="g14"]').waitFor();
      assertEqual(await rows.count(), 15, 'then the older five');
      assertEqual(asked.join(' '), '?page=1&nb=10', 'the second page of ten asked');
      assertEqual(await page.locator('[data-action="more-history"]').count(), 0, 'no button after the last page');
      assertEqual(page.errors.join('\n'), '', 'no script errors');
    },
  ],
];
