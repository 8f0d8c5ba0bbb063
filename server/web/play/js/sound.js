// Sound (issue 30, item 6): short tones synthesised with WebAudio (no audio
// file), loaded with motion.js. Off until the player turns it on with the
// game screen's Sound toggle (remembered in localStorage as cod.sound, "on"
// or "off"): a page makes no noise uninvited, and one click mutes it again.
// Each cue is also a "cod-sound" event on window (detail: its kind), so that
// what would sound can be checked without speakers.
const KEY = "cod.sound";
// kind -> [frequency Hz, seconds, wave]: played one after the other.
const TONES = {
  play: [[523, 0.07], [784, 0.09]],
  attack: [[196, 0.1, "sawtooth"]],
  hit: [[110, 0.14, "square"]],
  destroy: [[330, 0.08], [220, 0.16]],
  turn: [[659, 0.1], [880, 0.16]],
};
let audio = null;

export function soundOn() {
  try {
    return window.localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

// Turned on by a click: the browser lets a page start audio from a gesture.
export function setSound(on) {
  try { window.localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* private mode: this page only */ }
  if (on) context();
}

function context() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
  } catch {
    audio = null; // no WebAudio: silent
  }
  return audio;
}

export function cue(kind) {
  const tones = TONES[kind];
  if (!tones || !soundOn()) return;
  window.dispatchEvent(new CustomEvent("cod-sound", { detail: kind }));
  const ctx = context();
  if (!ctx) return;
  let t = ctx.currentTime + 0.01;
  for (const [freq, secs, wave = "sine"] of tones) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    // A quick rise and an exponential fall: no click at either end.
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.12, t + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + secs);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + secs + 0.02);
    t += secs;
  }
}
