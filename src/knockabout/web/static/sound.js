// Sounds, made in the browser with the Web Audio API (no sound files, so nothing to license):
// short envelopes of oscillators and filtered noise. They are off until a person turns them
// on, and the choice is kept per browser (localStorage): a page that makes noise by itself
// surprises people in a shared room, and browsers refuse to start audio before a click
// anyway, so a first sound "on by default" would be lost. `soundToggle()` is the switch the
// table shows; any module may `playSound(name)` (it does nothing while sound is off).
//
// Names: "card" (a card slides or is drawn), "place" (a card or tile lands), "hit" (damage),
// "turn" (a decision opens for you), "end" (the game is over).
import { h } from "./page.js";

const KEY = "knockabout:sound";
const listeners = new Set();

export const sound = {
  on() { try { return localStorage.getItem(KEY) === "on"; } catch { return false; } },
  set(on) {
    try { localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* private mode: this page only */ }
    if (on) context();  // the click that turns sound on is the gesture that lets audio start
    for (const fn of listeners) fn(on);
  },
};

let ctx = null;
function context() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!ctx) ctx = new Ctx();
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

let noiseBuf = null;
function noise(ac) {
  if (!noiseBuf) {
    noiseBuf = ac.createBuffer(1, Math.floor(ac.sampleRate * 0.3), ac.sampleRate);
    const d = noiseBuf.getChannelData(0);
    let x = 12345;  // a fixed sequence: the same hiss every time
    for (let i = 0; i < d.length; i++) { x = (x * 1103515245 + 12345) & 0x7fffffff; d[i] = x / 0x3fffffff - 1; }
  }
  return noiseBuf;
}

function env(ac, at, peak, attack, decay) {
  const g = ac.createGain();
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(peak, at + attack);
  g.gain.exponentialRampToValueAtTime(0.0001, at + attack + decay);
  g.connect(ac.destination);
  return g;
}

function tone(ac, at, freq, { type = "sine", peak = 0.12, attack = 0.005, decay = 0.18, to = null } = {}) {
  const o = ac.createOscillator();
  o.type = type;
  o.frequency.setValueAtTime(freq, at);
  if (to) o.frequency.exponentialRampToValueAtTime(to, at + attack + decay);
  o.connect(env(ac, at, peak, attack, decay));
  o.start(at);
  o.stop(at + attack + decay + 0.02);
}

function hiss(ac, at, { freq = 2500, q = 0.8, peak = 0.15, attack = 0.004, decay = 0.09, type = "bandpass" } = {}) {
  const src = ac.createBufferSource();
  src.buffer = noise(ac);
  const f = ac.createBiquadFilter();
  f.type = type; f.frequency.value = freq; f.Q.value = q;
  src.connect(f);
  f.connect(env(ac, at, peak, attack, decay));
  src.start(at);
  src.stop(at + attack + decay + 0.02);
}

const SOUNDS = {
  card(ac, t) { hiss(ac, t, { freq: 3200, q: 0.7, peak: 0.09, decay: 0.08 }); },
  place(ac, t) { hiss(ac, t, { freq: 900, q: 1.2, peak: 0.16, decay: 0.06 }); tone(ac, t, 180, { peak: 0.08, decay: 0.07 }); },
  hit(ac, t) {
    tone(ac, t, 140, { type: "triangle", peak: 0.25, decay: 0.22, to: 55 });
    hiss(ac, t, { freq: 600, q: 0.6, peak: 0.18, decay: 0.12, type: "lowpass" });
  },
  turn(ac, t) { tone(ac, t, 660, { peak: 0.09, decay: 0.16 }); tone(ac, t + 0.12, 880, { peak: 0.09, decay: 0.26 }); },
  end(ac, t) { [523, 659, 784].forEach((f, i) => tone(ac, t + i * 0.11, f, { type: "triangle", peak: 0.09, decay: 0.3 })); },
};
export const SOUND_NAMES = Object.keys(SOUNDS);

let lastAt = 0;
// plays a sound by name while sound is on; returns whether it played (several things moving
// in one redraw make one sound, not a burst: at most one sound per 60 ms)
export function playSound(name) {
  if (!sound.on() || !SOUNDS[name]) return false;
  const ac = context();
  if (!ac || ac.state !== "running") return false;
  const now = performance.now();
  if (now - lastAt < 60) return false;
  lastAt = now;
  SOUNDS[name](ac, ac.currentTime + 0.01);
  return true;
}

// the switch: a checkbox labelled "sound", kept in step with every other switch on the page
export function soundToggle() {
  const box = h("input", { type: "checkbox", id: "sound-on", checked: sound.on(),
    onchange: (e) => { sound.set(e.target.checked); if (e.target.checked) playSound("turn"); } });
  const sync = (on) => { if (!box.isConnected) { listeners.delete(sync); return; } box.checked = on; };
  listeners.add(sync);
  return h("label", { class: "check", title: "Sounds for moves, hits and your turn (kept in this browser)" }, box, " sound");
}
