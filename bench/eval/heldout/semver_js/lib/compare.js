'use strict';
const { parse } = require('./parse');

// Pre-release identifiers: numbers compare as numbers and sort before words.
function compareIdentifiers(a, b) {
  const an = /^\d+$/.test(a);
  const bn = /^\d+$/.test(b);
  if (an && bn) return Number(a) - Number(b);
  if (an) return -1;
  if (bn) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function comparePrerelease(a, b) {
  // A release sorts after any of its pre-releases: 1.0.0-rc.1 < 1.0.0.
  if (!a.length && !b.length) return 0;
  if (!a.length) return 1;
  if (!b.length) return -1;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] === undefined) return -1;
    if (b[i] === undefined) return 1;
    const c = compareIdentifiers(a[i], b[i]);
    if (c) return c;
  }
  return 0;
}

function compare(left, right) {
  const a = parse(left);
  const b = parse(right);
  for (const part of ['major', 'minor', 'patch']) {
    if (a[part] !== b[part]) return a[part] < b[part] ? -1 : 1;
  }
  return Math.sign(comparePrerelease(a.prerelease, b.prerelease));
}

function sort(versions) {
  return [...versions].sort(compare);
}

function maxSatisfying(versions, major) {
  const candidates = versions.filter((v) => Number(parse(v).major) === major && !parse(v).prerelease.length);
  return candidates.length ? sort(candidates).at(-1) : null;
}

module.exports = { compare, sort, maxSatisfying };
