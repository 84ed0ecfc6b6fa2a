/**
 * How far a replica is behind (src/store/postgres/replication.ts lagSeconds; docs/deployment.md
 * "Replicas"), from rows as PostgreSQL's functions give them, and how a replica is named in
 * /metrics. The lag on a real replica is tested by `npm run test:scaleout`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isUnreachable } from '../../src/store/postgres/db.js';
import { lagSeconds, parseLsn, serverName } from '../../src/store/postgres/replication.js';

const row = (replay: string, receive: string | null = replay, replayAge: number | null = 1000) => ({
  standby: true,
  receive,
  replay,
  replay_age: replayAge,
  schema: 1,
});
const now = 1_000_000;
// The primary's WAL positions as sampled, each with when it was asked for.
const samples = [
  { lsn: parseLsn('0/1000'), at: now - 3000 },
  { lsn: parseLsn('0/2000'), at: now - 2000 },
  { lsn: parseLsn('1/0'), at: now - 500 },
];

test('WAL positions compare as numbers, across the high word', () => {
  assert.equal(parseLsn('16/B374D848'), 0x16n * 2n ** 32n + 0xb374d848n);
  assert.ok(parseLsn('1/0') > parseLsn('0/FFFFFFFF'));
});

test('a replica that has replayed the newest position is 0 behind, however old its last transaction', () => {
  assert.equal(lagSeconds(row('1/0'), true, samples, now), 0);
  assert.equal(lagSeconds(row('1/10'), true, samples, now), 0);
});

test('behind the newest position: as old as the newest position it has replayed', () => {
  assert.equal(lagSeconds(row('0/2000'), true, samples, now), 2);
  assert.equal(lagSeconds(row('0/2FFF'), true, samples, now), 2);
  assert.equal(lagSeconds(row('0/1000'), true, samples, now), 3);
});

test('behind every position kept: the older of the first sample and its last replayed transaction', () => {
  assert.equal(lagSeconds(row('0/0FFF', '0/0FFF', 1000), true, samples, now), 1000);
  assert.equal(lagSeconds(row('0/0FFF', '0/0FFF', 1), true, samples, now), 3);
  assert.equal(lagSeconds(row('0/0FFF', '0/0FFF', null), true, samples, now), 3);
});

test("with the primary down (or not sampled yet): 0 when all it received is replayed, else its last transaction's age", () => {
  assert.equal(lagSeconds(row('0/1000', '0/1000', 1000), false, samples, now), 0);
  assert.equal(lagSeconds(row('0/1000', null, 1000), false, samples, now), 0);
  assert.equal(lagSeconds(row('0/1000', '0/2000', 7.5), false, samples, now), 7.5);
  assert.equal(lagSeconds(row('0/1000', '0/2000', 7.5), true, [], now), 7.5);
});

test('a replica is named host:port/database, never with its user or password', () => {
  assert.equal(serverName('postgres://reader:s3cret@db.example:6432/heritage'), 'db.example:6432/heritage');
  assert.equal(serverName('postgresql://reader@db.example/heritage'), 'db.example:5432/heritage');
});

test('errors that say a server cannot be reached, and errors that do not', () => {
  for (const code of ['ECONNREFUSED', 'ECONNRESET', '57P01', '57P03', '08006'])
    assert.equal(isUnreachable(Object.assign(new Error('x'), { code })), true, code);
  assert.equal(isUnreachable(new Error('Connection terminated unexpectedly')), true);
  assert.equal(isUnreachable(new Error('timeout exceeded when trying to connect')), true);
  assert.equal(isUnreachable(Object.assign(new Error('duplicate key'), { code: '23505' })), false);
  assert.equal(isUnreachable(Object.assign(new Error('read-only transaction'), { code: '25006' })), false);
});
