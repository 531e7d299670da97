// The lobby: create a challenge (to a member or, open, to anyone), the open
// challenges of everyone, answer pending ones, who is online, my running
// games (my move first, with correspondence deadlines in local time), the
// club's games in play as small boards to watch, recent games. One event
// stream keeps it current; a light poll the boards and the online list.

import { t, addCatalogue } from '../i18n.js';
import { get, getAll, post, me } from '../api.js';
import { subscribe, variantKey } from '../events.js';
import { h, field, select, localTime } from '../dom.js';
import { navigate, toast } from '../app.js';
import catalogue from '../i18n/lobby.js';
import ratingsCatalogue from '../i18n/ratings.js';
import { runningGames } from './watch.js';

addCatalogue(catalogue);
addCatalogue(ratingsCatalogue);

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

// Anyone: the opponent select's value for an open challenge.
const ANYONE = '*';
// Seconds between reads of the games in play and of who is online.
const POLL_MS = 5000;

let events = null; // the unsubscribe from the app's event stream
let stopPolling = () => {};

export function leave() {
  events?.();
  events = null;
  stopPolling();
  stopPolling = () => {};
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
    field(t('lobby.opponent'), select('opponent', [...opponents.map((u) => [u.name, opponentLabel(u)]), [ANYONE, t('lobby.anyone')]])),
    opponents.length ? '' : h('p', { class: 'hint' }, t('lobby.noOpponents')),
    field(t('lobby.variant'), select('variant', VARIANTS.map((v) => [v, t('variant.' + v)]), 'fairschach')),
    rulesBox,
    position,
    field(t('lobby.clock'), select('clock', CLOCKS.map(([v, text]) => [v, text.startsWith('clock.') ? t(text) : text]), '300+3')),
    field(t('lobby.color'), select('color', ['random', 'white', 'black'].map((c) => [c, t('color.' + c)]), 'random')),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'rated' }), ' ', t('ratings.ratedBox')),
    h('button', { type: 'submit', class: 'primary', dataset: { action: 'challenge' } }, t('lobby.send')),
  );
  const sync = () => {
    rulesBox.hidden = form.variant.value !== 'fairschach';
    position.hidden = form.variant.value !== 'chess960';
  };
  form.variant.addEventListener('change', sync);
  sync();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = { variant: form.variant.value, color: form.color.value, rated: form.rated.checked };
    if (form.clock.value) body.clock = form.clock.value;
    if (body.variant === 'fairschach') {
      body.rules = { 'same-square': form['same-square'].value, pause: form.pause.value };
      if (form.fsr8.value.trim()) body.rules.fsr8 = form.fsr8.value.trim();
    }
    if (body.variant === 'chess960' && form.chess960.value !== '') body.chess960 = Number(form.chess960.value);
    try {
      if (form.opponent.value === ANYONE) {
        await post('/api/challenge/open', body);
        toast(t('lobby.openSent'));
      } else {
        await post('/api/challenge/' + encodeURIComponent(form.opponent.value), body);
        toast(t('lobby.sent', { name: form.opponent.value }));
      }
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
        navigate('/game/' + r.gameId);
      }
      else refresh();
    } catch (err) {
      toast(t('error.generic', { reason: err.message }), 'error');
    }
  };
  const what = `${t('variant.' + variantKey(c.variant))}, ${c.clock ? clockText(c.clock) : t('time.untimed')}, ${c.rated ? t('ratings.rated') : t('ratings.casual')}`;
  return h('li', { dataset: { challenge: c.id } },
    incoming ? t('lobby.from', { name: c.challenger.name }) : t('lobby.to', { name: c.destUser.name }),
    ' — ', what, c.color !== 'random' ? ` (${t('lobby.challengerPlays', { color: t('color.' + c.color) })})` : '',
    ' ',
    incoming
      ? [h('button', { type: 'button', class: 'primary', dataset: { action: 'accept' }, onclick: act('accept') }, t('lobby.accept')),
         h('button', { type: 'button', dataset: { action: 'decline' }, onclick: act('decline') }, t('lobby.decline'))]
      : h('button', { type: 'button', dataset: { action: 'cancel' }, onclick: act('cancel') }, t('lobby.cancel')),
  );
}

// A challenge open to anyone: accept it (anyone else) or cancel it (its
// challenger); its address to pass on.
function openItem(c, refresh, focused) {
  const mine = c.challenger.toLowerCase() === me().username.toLowerCase();
  const act = (path) => async () => {
    try {
      const r = await post(`/api/challenge/${c.id}/${path}`);
      if (r.gameId) {
        navigate('/game/' + r.gameId);
      } else refresh();
    } catch (err) {
      toast(t('error.generic', { reason: err.message }), 'error');
      refresh();
    }
  };
  const what = `${t('variant.' + c.variant)}, ${c.clock ? clockText(c.clock) : t('time.untimed')}, ${c.rated ? t('ratings.rated') : t('ratings.casual')}`;
  return h('li', { class: focused ? 'focused' : '', dataset: { openChallenge: c.id } },
    mine ? t('lobby.mine') : t('lobby.from', { name: c.challenger }),
    ' — ', what, c.color !== 'random' ? ` (${t('lobby.challengerPlays', { color: t('color.' + c.color) })})` : '',
    ' ',
    mine
      ? [h('a', { href: '/challenge/' + c.id, dataset: { link: '' } }, t('lobby.link')), ' ',
         h('button', { type: 'button', dataset: { action: 'cancel' }, onclick: act('cancel') }, t('lobby.cancel'))]
      : h('button', { type: 'button', class: 'primary', dataset: { action: 'accept' }, onclick: act('accept') }, t('lobby.accept')),
  );
}

// A computer opponent's strength on the Elo scale of /api/users's
// `level`: `~1800` or `<1320` (below the scale).
const levelText = (level) => (level.elo != null ? `~${level.elo}` : `<${level.high}`);

// A member as the challenge form's opponent: a bot marked, with its level.
function opponentLabel(u) {
  if (u.title !== 'BOT') return u.name;
  return u.level ? t('lobby.botOptionLevel', { name: u.name, level: levelText(u.level) }) : t('lobby.botOption', { name: u.name });
}

// A bot's badge beside its name (lichess's title BOT); its level after it.
const botBadge = (level) => [
  h('span', { class: 'badge-bot', title: t('lobby.botTitle'), dataset: { bot: '' } }, t('lobby.bot')),
  level ? h('span', { class: 'bot-level', title: level.elo != null ? t('lobby.levelTitle', { low: level.low, high: level.high }) : t('lobby.levelBelowTitle', { high: level.high }), dataset: { level: level.elo ?? '' } }, ' ' + t('lobby.level', { level: levelText(level) })) : '',
];

// Who is online, each with a button that picks them in the challenge form;
// bots (`bots`, lower case) with their badge and level (`levels` by
// lower-case name).
function onlineList(names, form, bots = new Set(), levels = new Map()) {
  const others = names.filter((n) => n.toLowerCase() !== me().username.toLowerCase());
  if (!others.length) return h('p', { class: 'hint' }, t('lobby.noneOnline'));
  const pick = (name) => () => {
    const option = [...form.opponent.options].find((o) => o.value.toLowerCase() === name.toLowerCase());
    if (option) form.opponent.value = option.value;
    form.scrollIntoView({ block: 'nearest' });
    form.opponent.focus();
  };
  return h('ul', { class: 'online' }, others.map((name) => h('li', { dataset: { online: name } },
    h('a', { class: 'name', href: '/@/' + encodeURIComponent(name), dataset: { link: '', member: name } }, name), ' ',
    bots.has(name.toLowerCase()) ? botBadge(levels.get(name.toLowerCase())) : '',
    h('button', { type: 'button', dataset: { action: 'challenge-user' }, 'aria-label': t('lobby.challengeName', { name }), onclick: pick(name) }, t('lobby.challengeShort')))));
}

function gameItem(g) {
  return h('li', { class: g.isMyTurn ? 'my-turn' : '' },
    h('a', { href: '/game/' + g.gameId, dataset: { link: '', game: g.gameId } }, t('lobby.vs', { name: g.opponent.username })),
    ' ', t('variant.' + variantKey(g.variant)), ' · ', t('color.' + g.color),
    g.isMyTurn ? h('strong', {}, ' · ' + t('lobby.yourMove')) : '',
    g.deadline ? h('span', { class: 'deadline' }, ' · ' + t('lobby.deadline', { time: localTime(g.deadline) })) : '',
  );
}

export async function render(main, [focusId] = []) {
  main.append(h('h1', {}, t('lobby.title')));
  const open = h('section', { class: 'card', 'aria-live': 'polite', dataset: { section: 'open' } });
  const challenges = h('section', { class: 'card', 'aria-live': 'polite' });
  const online = h('section', { class: 'card', dataset: { section: 'online' } });
  const playing = h('section', { class: 'card' });
  const recent = h('section', { class: 'card' });
  const tournaments = h('section', { class: 'card' });
  const running = runningGames();
  const users = await getAll('/api/users', 'users');
  const levels = new Map(users.filter((u) => u.level).map((u) => [u.name.toLowerCase(), u.level]));
  let form = null;
  const refreshOpen = async () => {
    const first = await get('/api/challenge/open');
    let list = first.challenges;
    if (focusId && !list.some((c) => c.id === focusId)) {
      const found = await findOpen(focusId, first);
      if (found) list = [found, ...list];
    }
    const gone = focusId && !list.some((c) => c.id === focusId);
    open.replaceChildren(h('h2', {}, t('lobby.open')),
      gone ? h('p', { class: 'hint', dataset: { gone: '' } }, t('lobby.gone')) : '',
      list.length ? h('ul', {}, list.map((c) => openItem(c, refreshOpen, c.id === focusId))) : h('p', { class: 'hint' }, t('lobby.noOpen')));
  };
  let onlineShown = null; // the names drawn: redrawn on a change only (keeps focus)
  const refreshOnline = async () => {
    const { users: names, bots = [] } = await get('/api/users/online');
    const shown = names.join('\n') + '\n\n' + bots.join('\n');
    if (shown === onlineShown) return;
    onlineShown = shown;
    online.replaceChildren(h('h2', {}, t('lobby.online')),
      onlineList(names, form, new Set(bots.map((b) => b.toLowerCase())), levels));
  };
  const refresh = async () => {
    const [pending, mine, done, tours] = await Promise.all([
      get('/api/challenge'),
      getAll('/api/account/playing', 'nowPlaying').then((nowPlaying) => ({ nowPlaying })),
      get('/api/games?user=' + encodeURIComponent(me().username)),
      get('/api/tournaments').catch(() => ({ tournaments: [] })),
      refreshOpen(),
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
  };
  form = challengeForm(users, refresh);
  main.append(
    // What waits for the member first (on a phone the columns stack).
    h('div', { class: 'columns' }, h('div', {}, challenges, playing, open), h('div', {}, form, online)),
    running.section,
    h('div', { class: 'columns' }, recent, tournaments));
  await Promise.all([refresh(), refreshOnline(), running.refresh()]);
  // Left while loading: the next page owns the stream and the timers.
  if (!running.section.isConnected) {
    running.stop();
    return;
  }
  if (focusId) main.querySelector(`[data-open-challenge="${focusId}"]`)?.scrollIntoView({ block: 'center' });
  leave();
  const poll = setInterval(() => {
    running.refresh().catch(() => {});
    refreshOnline().catch(() => {});
  }, POLL_MS);
  stopPolling = () => {
    clearInterval(poll);
    running.stop();
    // At once, not when the next page draws: its boards alone are shown.
    running.section.remove();
  };
  followEvents(refresh, refreshOpen);
}

// Pages of open challenges read at most to find a linked one (the list
// holds at most five a member, so a link past them is a rare club).
const FIND_PAGES = 20;

// The open challenge `id` (a `/challenge/{id}` link) on the pages after
// `first`, or null when it is not (or no longer) open.
async function findOpen(id, first) {
  let page = first;
  for (let n = 1; n < FIND_PAGES && page.nextPage; n++) {
    page = await get('/api/challenge/open?page=' + page.nextPage);
    const found = page.challenges.find((c) => c.id === id);
    if (found) return found;
  }
  return null;
}

// The lobby follows the app's one event stream (events.js, which also
// opens a game that starts and announces a challenge to me): a declined
// or cancelled challenge says so here, and every event refreshes the lists
// (an open challenge, told to every stream, only the list of open ones).
function followEvents(refresh, refreshOpen) {
  let pendingRefresh = null;
  let pendingOpen = null;
  const refreshSoon = () => {
    // A burst of events (the stream's first lines) is one refresh.
    clearTimeout(pendingRefresh);
    pendingRefresh = setTimeout(() => refresh().catch(() => {}), 250);
  };
  const refreshOpenSoon = () => {
    clearTimeout(pendingOpen);
    pendingOpen = setTimeout(() => refreshOpen().catch(() => {}), 250);
  };
  const myName = () => me()?.username.toLowerCase();
  events = subscribe((event) => {
    if (event.type === 'challengeDeclined' && event.challenge.challenger.id === myName()) {
      toast(t('lobby.declined', { name: event.challenge.destUser?.name }));
    }
    if (event.type === 'challengeCanceled' && event.challenge.destUser?.id === myName()) {
      toast(t('lobby.canceled', { name: event.challenge.challenger.name }));
    }
    if (event.type === 'openChallenge') refreshOpenSoon();
    else refreshSoon();
  });
}
