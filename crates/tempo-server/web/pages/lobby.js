// The lobby: create a challenge, answer pending ones, my running games
// (my move first, with correspondence deadlines in local time), recent games.

import { t, addCatalogue } from '../i18n.js';
import { get, getAll, post, me, stream } from '../api.js';
import { h, field, select, localTime } from '../dom.js';
import { navigate, toast } from '../app.js';
import catalogue from '../i18n/lobby.js';

addCatalogue(catalogue);

const VARIANTS = ['fairschach', 'synchronschach', 'standard', 'chess960'];
export const CLOCKS = [
  ['180+2', '3 + 2'],
  ['300+3', '5 + 3'],
  ['600+5', '10 + 5'],
  ['900+10', '15 + 10'],
  ['1800+30', '30 + 30'],
  ['5400+30', '90 + 30'],
  ['1/86400', 'clock.day'],
  ['1/259200', 'clock.threeDays'],
  ['', 'clock.none'],
];

let events = null;
const started = new Set(); // games this page has gone to already

export function leave() {
  events?.abort();
  events = null;
}

function clockText(clock) {
  const found = CLOCKS.find(([v]) => v === (clock || ''));
  if (!found) return clock;
  return found[1].startsWith('clock.') ? t(found[1]) : found[1];
}

function challengeForm(users, onDone) {
  const opponents = users.filter((u) => u.name.toLowerCase() !== me().username.toLowerCase());
  const rulesBox = h('fieldset', { class: 'rules-options', dataset: { for: 'fairschach' } },
    h('legend', {}, t('lobby.options')),
    field(t('lobby.sameSquare'), select('same-square', [['stronger', t('lobby.sameSquare.stronger')], ['both', t('lobby.sameSquare.both')], ['weaker-stays', t('lobby.sameSquare.weaker')]], 'stronger')),
    field(t('lobby.pause'), select('pause', [['moved', t('lobby.pause.moved')], ['capturable', t('lobby.pause.capturable')], ['none', t('lobby.pause.none')]], 'moved')),
    field(t('lobby.fsr8'), h('input', { name: 'fsr8', inputmode: 'numeric', placeholder: t('lobby.default'), size: '5' })),
  );
  const position = field(t('lobby.chess960'), h('input', { name: 'chess960', type: 'number', min: '0', max: '959', placeholder: t('lobby.randomPosition') }));
  const form = h('form', { class: 'card', dataset: { form: 'challenge' } },
    h('h2', {}, t('lobby.challenge')),
    opponents.length
      ? field(t('lobby.opponent'), select('opponent', opponents.map((u) => [u.name, u.name])))
      : h('p', { class: 'hint' }, t('lobby.noOpponents')),
    field(t('lobby.variant'), select('variant', VARIANTS.map((v) => [v, t('variant.' + v)]), 'fairschach')),
    rulesBox,
    position,
    field(t('lobby.clock'), select('clock', CLOCKS.map(([v, text]) => [v, text.startsWith('clock.') ? t(text) : text]), '300+3')),
    field(t('lobby.color'), select('color', ['random', 'white', 'black'].map((c) => [c, t('color.' + c)]), 'random')),
    h('button', { type: 'submit', class: 'primary', disabled: !opponents.length, dataset: { action: 'challenge' } }, t('lobby.send')),
  );
  const sync = () => {
    rulesBox.hidden = form.variant.value !== 'fairschach';
    position.hidden = form.variant.value !== 'chess960';
  };
  form.variant.addEventListener('change', sync);
  sync();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = { variant: form.variant.value, color: form.color.value };
    if (form.clock.value) body.clock = form.clock.value;
    if (body.variant === 'fairschach') {
      body.rules = { 'same-square': form['same-square'].value, pause: form.pause.value };
      if (form.fsr8.value.trim()) body.rules.fsr8 = form.fsr8.value.trim();
    }
    if (body.variant === 'chess960' && form.chess960.value !== '') body.chess960 = Number(form.chess960.value);
    try {
      await post('/api/challenge/' + encodeURIComponent(form.opponent.value), body);
      toast(t('lobby.sent', { name: form.opponent.value }));
      onDone();
    } catch (err) {
      toast(t('error.generic', { reason: err.message }), 'error');
    }
  });
  return form;
}

function challengeItem(c, refresh) {
  const incoming = c.direction === 'in';
  const act = (path) => async () => {
    try {
      const r = await post(`/api/challenge/${c.id}/${path}`);
      if (r.gameId) {
        started.add(r.gameId); // its gameStart event must not navigate again
        navigate('/game/' + r.gameId);
      }
      else refresh();
    } catch (err) {
      toast(t('error.generic', { reason: err.message }), 'error');
    }
  };
  const what = `${t('variant.' + c.variant)}, ${c.clock ? clockText(c.clock) : t('time.untimed')}`;
  return h('li', { dataset: { challenge: c.id } },
    incoming ? t('lobby.from', { name: c.challenger }) : t('lobby.to', { name: c.destUser }),
    ' — ', what, c.color !== 'random' ? ` (${t('lobby.challengerPlays', { color: t('color.' + c.color) })})` : '',
    ' ',
    incoming
      ? [h('button', { type: 'button', class: 'primary', dataset: { action: 'accept' }, onclick: act('accept') }, t('lobby.accept')),
         h('button', { type: 'button', dataset: { action: 'decline' }, onclick: act('decline') }, t('lobby.decline'))]
      : h('button', { type: 'button', dataset: { action: 'cancel' }, onclick: act('cancel') }, t('lobby.cancel')),
  );
}

function gameItem(g) {
  return h('li', { class: g.isMyTurn ? 'my-turn' : '' },
    h('a', { href: '/game/' + g.gameId, dataset: { link: '', game: g.gameId } }, t('lobby.vs', { name: g.opponent })),
    ' ', t('variant.' + g.variant), ' · ', t('color.' + g.color),
    g.isMyTurn ? h('strong', {}, ' · ' + t('lobby.yourMove')) : '',
    g.deadline ? h('span', { class: 'deadline' }, ' · ' + t('lobby.deadline', { time: localTime(g.deadline) })) : '',
  );
}

export async function render(main) {
  main.append(h('h1', {}, t('lobby.title')));
  const challenges = h('section', { class: 'card', 'aria-live': 'polite' });
  const playing = h('section', { class: 'card' });
  const recent = h('section', { class: 'card' });
  const tournaments = h('section', { class: 'card' });
  const users = await getAll('/api/users', 'users');
  const refresh = async () => {
    const [pending, mine, done, tours] = await Promise.all([
      get('/api/challenge'),
      getAll('/api/account/playing', 'nowPlaying').then((nowPlaying) => ({ nowPlaying })),
      get('/api/games?user=' + encodeURIComponent(me().username)),
      get('/api/tournaments').catch(() => ({ tournaments: [] })),
    ]);
    tournaments.replaceChildren(h('h2', {}, t('nav.tournaments')),
      tours.tournaments.length
        ? h('ul', {}, tours.tournaments.slice(0, 8).map((x) => h('li', {},
            h('a', { href: '/tournaments/' + x.id, dataset: { link: '' } }, x.name))))
        : h('p', { class: 'hint' }, t('lobby.noTournaments')));
    const all = [...pending.in, ...pending.out];
    challenges.replaceChildren(h('h2', {}, t('lobby.pending')),
      all.length ? h('ul', {}, all.map((c) => challengeItem(c, refresh))) : h('p', { class: 'hint' }, t('lobby.noPending')));
    playing.replaceChildren(h('h2', {}, t('lobby.playing')),
      mine.nowPlaying.length ? h('ul', {}, mine.nowPlaying.map(gameItem)) : h('p', { class: 'hint' }, t('lobby.noGames')));
    recent.replaceChildren(h('h2', {}, t('lobby.recent')),
      done.games.length
        ? h('ul', {}, done.games.slice(0, 10).map((g) => h('li', {},
            h('a', { href: '/game/' + g.gameId, dataset: { link: '' } }, `${g.white} – ${g.black}`), ' ', g.result || '', ' · ', t('variant.' + g.variant))))
        : h('p', { class: 'hint' }, t('lobby.noRecent')));
    return mine.nowPlaying.map((g) => g.gameId);
  };
  main.append(h('div', { class: 'columns' }, challengeForm(users, refresh), h('div', {}, challenges, playing, recent, tournaments)));
  for (const id of await refresh()) started.add(id);
  leave();
  const controller = new AbortController();
  events = controller;
  let pendingRefresh = null;
  const refreshSoon = () => {
    // A burst of events (the stream's first lines) is one refresh.
    clearTimeout(pendingRefresh);
    pendingRefresh = setTimeout(() => refresh().catch(() => {}), 250);
  };
  const follow = async () => {
    while (!controller.signal.aborted) {
      await stream('/api/stream/event', (event) => {
        // A game that starts now (the opponent accepted): go to its board.
        if (event.type === 'gameStart' && !started.has(event.game.id)) {
          started.add(event.game.id);
          navigate('/game/' + event.game.id);
          return;
        }
        if (event.type === 'challenge' && event.challenge.destUser?.toLowerCase() === me().username.toLowerCase()) {
          toast(t('lobby.newChallenge'));
        }
        refreshSoon();
      }, controller.signal).catch(() => {});
      // The stream ended (a restart, a lost connection): again shortly.
      await new Promise((r) => setTimeout(r, 3000));
    }
  };
  follow();
}
