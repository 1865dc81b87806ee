'use strict';
// Great-circle maths on a spherical Earth. Points are { lat, lon } in degrees.

const EARTH_RADIUS_M = 6371008.8;

const toRadians = (deg) => (deg * Math.PI) / 180;
const toDegrees = (rad) => (rad * 180) / Math.PI;

// The haversine of the central angle between two points.
function haversine(a, b) {
  const dLat = toRadians(b.lat - a.lat);
  const dLon = toRadians(b.lon - a.lon);
  const s = Math.sin(dLat / 2) ** 2
    + Math.cos(toRadians(a.lat)) * Math.cos(toRadians(b.lat)) * Math.sin(dLon / 2) ** 2;
  return Math.min(1, s);
}

// The central angle between two points, in radians.
function centralAngle(a, b) {
  const h = haversine(a, b);
  return 2 * Math.atan2(Math.sqrt(1 - h), Math.sqrt(h));
}

function distanceMeters(a, b) {
  return EARTH_RADIUS_M * centralAngle(a, b);
}

// Initial bearing from a to b, degrees clockwise from north in [0, 360).
function bearing(a, b) {
  const phi1 = toRadians(a.lat);
  const phi2 = toRadians(b.lat);
  const dLon = toRadians(b.lon - a.lon);
  const y = Math.sin(dLon) * Math.cos(phi2);
  const x = Math.cos(phi1) * Math.sin(phi2) - Math.sin(phi1) * Math.cos(phi2) * Math.cos(dLon);
  return (toDegrees(Math.atan2(y, x)) + 360) % 360;
}

// The point `meters` away from `start` along `bearingDeg`.
function destination(start, bearingDeg, meters) {
  const delta = meters / EARTH_RADIUS_M;
  const theta = toRadians(bearingDeg);
  const phi1 = toRadians(start.lat);
  const lambda1 = toRadians(start.lon);
  const phi2 = Math.asin(
    Math.sin(phi1) * Math.cos(delta) + Math.cos(phi1) * Math.sin(delta) * Math.cos(theta),
  );
  const lambda2 = lambda1 + Math.atan2(
    Math.sin(theta) * Math.sin(delta) * Math.cos(phi1),
    Math.cos(delta) - Math.sin(phi1) * Math.sin(phi2),
  );
  return { lat: toDegrees(phi2), lon: ((toDegrees(lambda2) + 540) % 360) - 180 };
}

module.exports = { EARTH_RADIUS_M, toRadians, toDegrees, distanceMeters, bearing, destination };
