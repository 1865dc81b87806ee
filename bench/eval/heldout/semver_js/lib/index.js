'use strict';
const { parse, format } = require('./parse');
const { compare, sort, maxSatisfying } = require('./compare');

function bump(version, part) {
  const v = parse(version);
  const n = { major: Number(v.major), minor: Number(v.minor), patch: Number(v.patch) };
  if (part === 'major') return `${n.major + 1}.0.0`;
  if (part === 'minor') return `${n.major}.${n.minor + 1}.0`;
  if (part === 'patch') return v.prerelease.length ? format({ ...v, prerelease: [] }) : `${n.major}.${n.minor}.${n.patch + 1}`;
  throw new Error(`cannot bump ${part}`);
}

module.exports = { parse, format, compare, sort, maxSatisfying, bump };
