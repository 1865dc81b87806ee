'use strict';
// Polygons as arrays of { lat, lon } vertices (not closed: the last joins the first).

// Ray casting along the parallel of the point: inside when it crosses an odd number of edges.
function containsPoint(vertices, point) {
  let inside = false;
  for (let i = 0, j = vertices.length - 1; i < vertices.length; j = i++) {
    const a = vertices[i];
    const b = vertices[j];
    const crosses = (a.lat > point.lat) !== (b.lat > point.lat);
    if (crosses) {
      const lonAtLat = a.lon + ((point.lat - a.lat) * (b.lon - a.lon)) / (b.lat - a.lat);
      if (point.lon < lonAtLat) inside = !inside;
    }
  }
  return inside;
}

function boundingBox(vertices) {
  const lats = vertices.map((v) => v.lat);
  const lons = vertices.map((v) => v.lon);
  return {
    south: Math.min(...lats),
    north: Math.max(...lats),
    west: Math.min(...lons),
    east: Math.max(...lons),
  };
}

function centroid(vertices) {
  const n = vertices.length;
  return {
    lat: vertices.reduce((sum, v) => sum + v.lat, 0) / n,
    lon: vertices.reduce((sum, v) => sum + v.lon, 0) / n,
  };
}

module.exports = { containsPoint, boundingBox, centroid };
