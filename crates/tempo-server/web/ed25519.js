// Ed25519 signature verification (RFC 8032 §5.1) in plain JS with BigInt,
// for the log check where the browser has no WebCrypto (plain HTTP on a
// club's network: crypto.subtle exists only in a secure context). Verify
// only: the page never signs. Strict as §5.1.7 asks: wrong lengths, a
// point encoding that is not canonical or not on the curve, and S ≥ L
// are refused before any arithmetic; the check is the cofactored one,
// [8][S]B = [8]R + [8][k]A. Not constant-time, which verification of
// public data does not need.

import { sha512 } from './sha512.js';

const P = (1n << 255n) - 19n;
// The group order L = 2^252 + 27742317777372353535851937790883648493.
const L = (1n << 252n) + 27742317777372353535851937790883648493n;
const mod = (a) => {
  const r = a % P;
  return r < 0n ? r + P : r;
};

function pow(base, exponent) {
  let result = 1n;
  let b = mod(base);
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
    e >>= 1n;
  }
  return result;
}

const inverse = (a) => pow(a, P - 2n);
// d = -121665/121666, and √-1 = 2^((p-1)/4) (§5.1).
const D = mod(-121665n * inverse(121666n));
const SQRT_M1 = pow(2n, (P - 1n) / 4n);

// Points in extended coordinates (X:Y:Z:T), x = X/Z, y = Y/Z, x·y = T/Z (§5.1.4).
const IDENTITY = [0n, 1n, 1n, 0n];

function add([x1, y1, z1, t1], [x2, y2, z2, t2]) {
  const a = mod((y1 - x1) * (y2 - x2));
  const b = mod((y1 + x1) * (y2 + x2));
  const c = mod(2n * t1 * t2 * D);
  const d = mod(2n * z1 * z2);
  const e = b - a;
  const f = d - c;
  const g = d + c;
  const h = b + a;
  return [mod(e * f), mod(g * h), mod(f * g), mod(e * h)];
}

function double([x1, y1, z1]) {
  const a = mod(x1 * x1);
  const b = mod(y1 * y1);
  const c = mod(2n * z1 * z1);
  const h = a + b;
  const e = h - mod((x1 + y1) * (x1 + y1));
  const g = a - b;
  const f = c + g;
  return [mod(e * f), mod(g * h), mod(f * g), mod(e * h)];
}

function multiply(point, scalar) {
  let result = IDENTITY;
  for (let i = BigInt(scalar.toString(2).length) - 1n; i >= 0n; i--) {
    result = double(result);
    if ((scalar >> i) & 1n) result = add(result, point);
  }
  return result;
}

function equal([x1, y1, z1], [x2, y2, z2]) {
  return mod(x1 * z2 - x2 * z1) === 0n && mod(y1 * z2 - y2 * z1) === 0n;
}

function littleEndian(bytes) {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]);
  return n;
}

// The base point B: y = 4/5, x even (§5.1).
const BASE = decodePoint((() => {
  const y = mod(4n * inverse(5n));
  const out = new Uint8Array(32);
  for (let i = 0, v = y; i < 32; i++, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
})());

// 32 bytes → a point, or null when they encode none (§5.1.3): y ≥ p, no
// square root for x, or x = 0 with the sign bit set.
export function decodePoint(bytes) {
  if (!(bytes instanceof Uint8Array) || bytes.length !== 32) return null;
  const sign = bytes[31] >> 7;
  const copy = bytes.slice();
  copy[31] &= 0x7f;
  const y = littleEndian(copy);
  if (y >= P) return null;
  const yy = (y * y) % P;
  const u = mod(yy - 1n);
  const v = mod(D * yy + 1n);
  // x = (u/v)^((p+3)/8) = u·v³·(u·v⁷)^((p-5)/8).
  const v3 = (v * v % P) * v % P;
  let x = (u * v3 % P) * pow(u * v3 % P * v3 % P * v, (P - 5n) / 8n) % P;
  const vxx = v * x % P * x % P;
  if (vxx === u) {
    // x is a root.
  } else if (vxx === mod(-u)) {
    x = x * SQRT_M1 % P;
  } else {
    return null;
  }
  if (x === 0n && sign === 1) return null;
  if (Number(x & 1n) !== sign) x = P - x;
  return [x, y, 1n, x * y % P];
}

// verify(publicKey: 32 bytes, message: bytes, signature: 64 bytes) → true
// when the signature is the key's on the message (RFC 8032 §5.1.7).
export function verify(publicKey, message, signature) {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32) return false;
  if (!(signature instanceof Uint8Array) || signature.length !== 64) return false;
  if (!(message instanceof Uint8Array)) return false;
  const a = decodePoint(publicKey);
  const r = decodePoint(signature.subarray(0, 32));
  const s = littleEndian(signature.subarray(32));
  if (!a || !r || s >= L) return false;
  const input = new Uint8Array(64 + message.length);
  input.set(signature.subarray(0, 32));
  input.set(publicKey, 32);
  input.set(message, 64);
  const k = littleEndian(sha512(input)) % L;
  const times8 = (p) => double(double(double(p)));
  const left = times8(multiply(BASE, s));
  const right = times8(add(r, multiply(a, k)));
  return equal(left, right);
}
