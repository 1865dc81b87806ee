'use strict';
const { distanceMeters } = require('./geo');
const { containsPoint, boundingBox } = require('./polygon');

class CircleFence {
  constructor(id, center, radiusMeters) {
    if (!(radiusMeters > 0)) throw new Error(`fence ${id}: the radius must be positive`);
    this.id = id;
    this.center = center;
    this.radiusMeters = radiusMeters;
  }

  contains(point) {
    return distanceMeters(this.center, point) <= this.radiusMeters;
  }
}

class PolygonFence {
  constructor(id, vertices) {
    if (vertices.length < 3) throw new Error(`fence ${id}: a polygon needs 3 vertices`);
    this.id = id;
    this.vertices = vertices;
    this.box = boundingBox(vertices);
  }

  contains(point) {
    const { south, north, west, east } = this.box;
    if (point.lat < south || point.lat > north || point.lon < west || point.lon > east) return false;
    return containsPoint(this.vertices, point);
  }
}

// Follows devices and reports when one enters or leaves a fence.
class FenceWatcher {
  constructor(fences) {
    this.fences = fences;
    this.inside = new Map(); // device -> Set of fence ids
  }

  update(device, point) {
    const before = this.inside.get(device) || new Set();
    const now = new Set(this.fences.filter((f) => f.contains(point)).map((f) => f.id));
    this.inside.set(device, now);
    const events = [];
    for (const id of now) if (!before.has(id)) events.push({ device, fence: id, type: 'enter' });
    for (const id of before) if (!now.has(id)) events.push({ device, fence: id, type: 'exit' });
    return events;
  }
}

module.exports = { CircleFence, PolygonFence, FenceWatcher };
