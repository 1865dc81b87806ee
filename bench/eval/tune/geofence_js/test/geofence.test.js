'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { distanceMeters, bearing, destination, CircleFence, PolygonFence, FenceWatcher } = require('../src');

const PARIS = { lat: 48.8566, lon: 2.3522 };
const LONDON = { lat: 51.5074, lon: -0.1278 };
const near = (actual, expected, tolerance) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`);

test('distance from Paris to London', () => {
  near(distanceMeters(PARIS, LONDON), 343_560, 500);
  assert.equal(distanceMeters(PARIS, PARIS), 0);
});

test('bearing from Paris to London is north-west', () => {
  near(bearing(PARIS, LONDON), 330.0, 1);
  near(bearing({ lat: 0, lon: 0 }, { lat: 0, lon: 1 }), 90, 1e-9);
});

test('destination goes the given distance', () => {
  const east = destination({ lat: 0, lon: 0 }, 90, 111_195);
  near(east.lat, 0, 1e-9);
  near(east.lon, 1, 1e-3);
});

test('a circle fence holds the points within its radius', () => {
  const office = new CircleFence('office', PARIS, 250);
  assert.equal(office.contains({ lat: 48.8580, lon: 2.3530 }), true);
  assert.equal(office.contains({ lat: 48.8610, lon: 2.3522 }), false);
});

test('a polygon fence', () => {
  const park = new PolygonFence('park', [
    { lat: 48.84, lon: 2.33 }, { lat: 48.84, lon: 2.34 }, { lat: 48.85, lon: 2.34 }, { lat: 48.85, lon: 2.33 },
  ]);
  assert.equal(park.contains({ lat: 48.845, lon: 2.335 }), true);
  assert.equal(park.contains({ lat: 48.845, lon: 2.345 }), false);
  assert.throws(() => new PolygonFence('line', [PARIS, LONDON]));
});

test('the watcher reports entering and leaving', () => {
  const watcher = new FenceWatcher([new CircleFence('office', PARIS, 250)]);
  assert.deepEqual(watcher.update('van-1', { lat: 48.87, lon: 2.36 }), []);
  assert.deepEqual(watcher.update('van-1', { lat: 48.8570, lon: 2.3525 }), [
    { device: 'van-1', fence: 'office', type: 'enter' },
  ]);
  assert.deepEqual(watcher.update('van-1', { lat: 48.87, lon: 2.36 }), [
    { device: 'van-1', fence: 'office', type: 'exit' },
  ]);
});
