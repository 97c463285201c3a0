// scripts/supercluster-aggregates: supercluster-js map/reduce of the airports' elevation (sum, count, min, max) at the
// zooms given, printed as JSON by zoom: {"0": [{id, count, s, n, lo, hi}, …]}. node reduce.mjs AIRPORTS.csv ZOOM…
import Supercluster from 'supercluster';
import fs from 'fs';
const text = fs.readFileSync(process.argv[2], 'utf8').trim().split('\n');
const header = text[0].split(',').map(s => s.replace(/"/g, ''));
const parse = (line) => { const out = []; let cur = '', q = false; for (const c of line) { if (c === '"') q = !q; else if (c === ',' && !q) { out.push(cur); cur = ''; } else cur += c; } out.push(cur); return out; };
const features = text.slice(1).map(line => { const f = parse(line); const o = {}; header.forEach((h, i) => o[h] = f[i]); return { type: 'Feature', properties: { elevation: o.elevation }, geometry: { type: 'Point', coordinates: [+o.lon, +o.lat] } }; });
const num = (v) => { if (v === undefined || v === null || String(v).trim() === '') return null; const n = Number(String(v).trim()); return Number.isFinite(n) ? n : null; };
const index = new Supercluster({ radius: 40, extent: 512, maxZoom: 16, minPoints: 2,
  map: (p) => { const n = num(p.elevation); return { s: n ?? 0, n: n === null ? 0 : 1, lo: n ?? Infinity, hi: n ?? -Infinity }; },
  reduce: (a, b) => { a.s += b.s; a.n += b.n; a.lo = Math.min(a.lo, b.lo); a.hi = Math.max(a.hi, b.hi); } }).load(features);
const out = {};
for (const z of process.argv.slice(3).map(Number)) {
  out[z] = index.getClusters([-180, -85, 180, 85], z).filter(f => f.properties.cluster).map(f => ({ id: f.properties.cluster_id, count: f.properties.point_count, s: f.properties.s, n: f.properties.n, lo: f.properties.lo, hi: f.properties.hi }));
}
console.log(JSON.stringify(out));
