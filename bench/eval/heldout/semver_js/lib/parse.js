'use strict';
// "v1.2.3-beta.2+build.5" -> { major, minor, patch, prerelease: ['beta', '2'], build }

const PATTERN = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/;

function parse(text) {
  const match = PATTERN.exec(String(text).trim());
  if (!match) throw new TypeError(`not a version: ${text}`);
  const [, major, minor, patch, pre, build] = match;
  return {
    major,
    minor,
    patch,
    prerelease: pre ? pre.split('.') : [],
    build: build || '',
  };
}

function format(v) {
  const pre = v.prerelease.length ? `-${v.prerelease.join('.')}` : '';
  return `${v.major}.${v.minor}.${v.patch}${pre}`;
}

module.exports = { parse, format };
