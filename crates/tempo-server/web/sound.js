// Sounds, synthesised with WebAudio (no files to load): short tones for a
// move, a capture, a reveal, low time, the game's end and a notification.
// One setting turns them all off; it is kept in the browser.

const STORE_KEY = 'tempo.sound';
const listeners = [];
let context = null;

// Each sound: [frequency Hz, start s, length s, gain] tones.
const SOUNDS = {
  move: [[520, 0, 0.06, 0.25]],
  capture: [[330, 0, 0.05, 0.3], [220, 0.04, 0.08, 0.3]],
  reveal: [[440, 0, 0.07, 0.25], [660, 0.07, 0.1, 0.25]],
  lowTime: [[880, 0, 0.08, 0.2], [880, 0.16, 0.08, 0.2]],
  gameEnd: [[660, 0, 0.12, 0.25], [495, 0.12, 0.12, 0.25], [392, 0.24, 0.25, 0.25]],
  notify: [[784, 0, 0.08, 0.2], [1046, 0.09, 0.12, 0.2]],
};

export function soundNames() {
  return Object.keys(SOUNDS);
}

export function soundOn() {
  return localStorage.getItem(STORE_KEY) !== 'off';
}

export function setSoundOn(on) {
  localStorage.setItem(STORE_KEY, on ? 'on' : 'off');
  for (const f of listeners) f(on);
}

export function onSoundChange(f) {
  listeners.push(f);
}

// play('capture'): nothing when sounds are off, the name is unknown or the
// browser has no audio (a page not yet touched may refuse to play: fine).
export function play(name) {
  const tones = SOUNDS[name];
  document.documentElement.dataset.lastSound = name; // for tests: what would have sounded
  if (!tones || !soundOn()) return;
  try {
    context ??= new AudioContext();
    if (context.state === 'suspended') context.resume().catch(() => {});
    const now = context.currentTime;
    for (const [freq, start, length, gain] of tones) {
      const osc = context.createOscillator();
      const amp = context.createGain();
      osc.frequency.value = freq;
      amp.gain.setValueAtTime(gain, now + start);
      amp.gain.exponentialRampToValueAtTime(0.001, now + start + length);
      osc.connect(amp).connect(context.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
    }
  } catch {
    // No audio here: sounds are a nicety.
  }
}
