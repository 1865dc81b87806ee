'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const semver = require('../lib');

test('parse and format', () => {
  const v = semver.parse('v1.2.3-beta.2+build.5');
  assert.deepEqual(v.prerelease, ['beta', '2']);
  assert.equal(semver.format(v), '1.2.3-beta.2');
});

test('numeric parts compare as numbers', () => {
  assert.equal(semver.compare('1.10.0', '1.9.0'), 1);
  assert.equal(semver.compare('2.0.0', '10.0.0'), -1);
});

test('pre-releases sort before the release', () => {
  assert.deepEqual(semver.sort(['1.0.0', '1.0.0-rc.1', '1.0.0-beta.11', '1.0.0-beta.2']),
    ['1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0']);
});

test('max satisfying a major', () => {
  assert.equal(semver.maxSatisfying(['1.2.0', '1.10.1', '1.9.9', '2.0.0', '1.11.0-rc.1'], 1), '1.10.1');
});

test('bump', () => {
  assert.equal(semver.bump('1.9.9', 'minor'), '1.10.0');
  assert.equal(semver.bump('1.0.0-rc.1', 'patch'), '1.0.0');
});
