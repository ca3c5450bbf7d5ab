#!/usr/bin/env node
// Fixes in dependencies that their last release does not have, applied after every install: npm runs this
// as the root package's postinstall, and docker/Dockerfile runs it after its `npm ci --ignore-scripts`.
// Each fix replaces one exact text in one file. A file holding neither that text nor the fix fails the
// install, so a dependency upgrade is looked at again instead of silently running unpatched.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const FIXES = [
  {
    // kafkajs 2.2.4 (its last release) groups a send's messages by partition by copying the partition's
    // array for every message: quadratic in the messages of one send. An indexer append sends thousands
    // of records to the one partition, and the copies were ~6 % of the indexer's CPU during a catch-up
    // (bench/PROFILE.md, seventh round). The fix keeps the result: each partition's messages, in order.
    file: 'kafkajs/src/producer/groupMessagesPerPartition.js',
    before: `  return messages.reduce((result, message) => {
    const partition = partitioner({ topic, partitionMetadata, message })
    const current = result[partition] || []
    return Object.assign(result, { [partition]: [...current, message] })
  }, {})`,
    after: `  const result = {}
  for (const message of messages) {
    const partition = partitioner({ topic, partitionMetadata, message })
    if (result[partition]) result[partition].push(message)
    else result[partition] = [message]
  }
  return result`,
  },
];

/** Applies every fix under `nodeModules`; returns the files it changed. Throws on a file it does not recognise. */
function patchDependencies(nodeModules) {
  const changed = [];
  for (const fix of FIXES) {
    const file = path.join(nodeModules, fix.file);
    const text = fs.readFileSync(file, 'utf8');
    if (text.includes(fix.after)) continue;
    if (!text.includes(fix.before)) {
      throw new Error(`${file} holds neither the text this fix replaces nor the fix: was the dependency upgraded?`);
    }
    fs.writeFileSync(file, text.replace(fix.before, fix.after));
    changed.push(fix.file);
  }
  return changed;
}

// `node tools/patch-dependencies.js [NODE_MODULES]`: the project's node_modules unless another is named.
const nodeModules = process.argv[2] ?? path.join(__dirname, '..', 'node_modules');
for (const file of patchDependencies(nodeModules)) console.log(`patched ${file}`);
