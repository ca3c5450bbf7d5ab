#!/usr/bin/env node
// The npm registry mirror this project is built against serves native binaries
// for linux only, so `npm install` leaves the other platforms' optional
// packages out of package-lock.json and `npm ci` then rejects the lock as out of
// sync. This adds a lock entry for each such package, marked optional and
// restricted to its platform, so npm skips it here and resolves it elsewhere.
// Run it after any `npm install` that changes the lock: `node tools/complete-lockfile.js`.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openharmony', 'sunos', 'aix', 'netbsd', 'openbsd'];
const CPU = {
  amd64: 'x64',
  x64: 'x64',
  arm64: 'arm64',
  arm: 'arm',
  ia32: 'ia32',
  loong64: 'loong64',
  riscv64: 'riscv64',
  s390x: 's390x',
  ppc64: 'ppc64',
};

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  if (!os || !cpu) return undefined;
  const libc = parts.some((p) => p.startsWith('musl'))
    ? 'musl'
    : parts.some((p) => p.startsWith('gnu'))
      ? 'glibc'
      : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [dep, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const parent = location === '' ? 'node_modules' : `${location}/node_modules`;
    if (packages[`${parent}/${dep}`] || packages[`node_modules/${dep}`]) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    const version = range.replace(/^[\^~=]/, '');
    packages[`node_modules/${dep}`] = { version, ...platform, optional: true };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform entries`);
