// Two server processes on one PostgreSQL database behind Debian's nginx, with the build's generated include and an
// `upstream` of the two, as docs/DEPLOY.md ("Several instances") deploys them: a burst spread across both is stored
// once per acknowledged lead and alerted once per lead, FORM_RATE_LIMIT holds across both together, and one instance
// killed (SIGKILL) mid-burst loses nothing acknowledged while the other delivers every alert; PostgreSQL restarted
// mid-burst, visitors are told in time with the phone number and both instances recover without a restart.
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startNginx } from '../../../scripts/lib/nginx-process.ts';
import { startServerProcess, type ServerProcess } from '../../../scripts/lib/server-process.ts';
import { postgresPerTest } from '../../helpers/postgres-per-test.ts';
import { startReceiver, waitFor, writeClientDir } from '../../helpers/fixtures.ts';
import { ANSWER_BOUND_MS, cleanupsAfterEach, expectCallUs, submit, type Answer } from './store-faults.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';

const KEY = randomBytes(32).toString('hex');
// Asked for before the clean-ups, so removed after them (vitest runs "after" hooks in reverse).
const tempDir = useTempDir('server-test-');
const defer = cleanupsAfterEach();

describe('two instances on one PostgreSQL behind nginx', () => {
  const postgres = postgresPerTest(defer);

  /** A fresh database, a webhook receiver, two instances on them and nginx in front. */
  async function deployment(rateLimit: number) {
    const { url, reader } = await postgres.database('two');
    const receiver = await startReceiver();
    defer(() => receiver.stop());
    const dir = tempDir();
    const env = {
      DATABASE_URL: url,
      LEADS_ENCRYPTION_KEY: KEY,
      CLIENT_DIR: writeClientDir(dir),
      CHAT_WEBHOOK_URL: receiver.url,
      CHAT_TIMEOUT_MS: '1000',
      FORM_RATE_LIMIT: String(rateLimit),
      TRUST_PROXY: 'loopback',
    };
    const instances: ServerProcess[] = [];
    for (let n = 0; n < 2; n += 1) {
      const instance = await startServerProcess({ env });
      defer(() => instance.stop('SIGKILL'));
      instances.push(instance);
    }
    const nginx = await startNginx({ upstreams: instances.map((instance) => instance.url) });
    defer(() => nginx.stop());
    const api = `${nginx.url}/api/forms/insurance-verification`;
    /** Lead ids the receiver was sent, each as often as it was sent. */
    const alerted = () => receiver.calls.map((call) => /\(lead ([\w-]+)\)$/.exec(call.json.text)?.[1]);
    const storedIds = async () =>
      (await reader.query<{ id: string }>('SELECT id FROM leads')).rows.map((row) => row.id);
    const storedBy = (instance: ServerProcess) =>
      instance.logs().filter((line) => line.msg === 'lead stored').length;
    return { api, instances, alerted, storedIds, storedBy };
  }

  /** `count` submissions with keys, `parallel` at a time; `during(answered)` runs after each answer. */
  async function burst(
    api: string,
    keys: string[],
    parallel: number,
    during: (answered: number) => void = () => {},
  ) {
    const answers: Answer[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < keys.length) {
          const n = next++;
          answers[n] = await submit(api, n, { key: keys[n] });
          during(answers.filter(Boolean).length);
        }
      }),
    );
    return answers;
  }

  it('spreads a burst across both: each lead stored once, alerted once, FORM_RATE_LIMIT held across both', async () => {
    const { api, instances, alerted, storedIds, storedBy } = await deployment(24);
    const keys = Array.from({ length: 30 }, () => randomUUID());
    const answers = await burst(api, keys, 6);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(24);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(6);
    const acknowledged = answers
      .filter((answer) => answer.status === 201)
      .map((answer) => (JSON.parse(answer.text) as { id: string }).id);
    expect((await storedIds()).sort()).toEqual([...new Set(acknowledged)].sort());
    expect(instances.map(storedBy).every((count) => count > 0)).toBe(true);
    await waitFor(() => acknowledged.every((id) => alerted().includes(id)), 20_000);
    // Give a second delivery, if there were one, the time to arrive: none may.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(alerted().sort()).toEqual(acknowledged.sort());
  }, 90_000);

  it('loses nothing acknowledged when one instance is killed mid-burst, and the other delivers every alert', async () => {
    const { api, instances, alerted, storedIds } = await deployment(100_000);
    const keys = Array.from({ length: 40 }, () => randomUUID());
    const [victim] = instances as [ServerProcess, ServerProcess];
    let killed: Promise<void> | undefined;
    const answers = await burst(api, keys, 6, (answered) => {
      if (answered === 12 && !killed) killed = victim.stop('SIGKILL');
    });
    await killed;
    // A visitor is never told 500: stored (201), or the proxy's 502 for the request the killed instance took with it.
    expect(
      answers.map((answer) => answer.status).filter((status) => status !== 201 && status !== 502),
    ).toEqual([]);
    const acknowledged = answers.flatMap((answer, n) =>
      answer.status === 201 ? [[n, (JSON.parse(answer.text) as { id: string }).id] as const] : [],
    );
    // Every visitor sends again with the same key: the lead acknowledged before is the one they get.
    const again = await burst(api, keys, 6);
    expect(again.map((answer) => answer.status)).toEqual(keys.map(() => 201));
    for (const [n, id] of acknowledged)
      expect((JSON.parse(again[n]?.text ?? '') as { id: string }).id).toBe(id);
    const ids = again.map((answer) => (JSON.parse(answer.text) as { id: string }).id);
    expect((await storedIds()).sort()).toEqual([...new Set(ids)].sort());
    expect(new Set(ids).size).toBe(keys.length);
    // The killed instance's claims run out, and the living one sends them.
    await waitFor(() => ids.every((id) => alerted().includes(id)), 30_000);
  }, 90_000);

  it('answers 503 with the phone number while PostgreSQL restarts mid-burst, and both instances recover', async () => {
    const { api, instances, alerted, storedIds, storedBy } = await deployment(100_000);
    const keys = Array.from({ length: 30 }, () => randomUUID());
    let down = false;
    defer(() => void (down && postgres.cluster.start()));
    const answers = await burst(api, keys, 4, (answered) => {
      if (answered === 6 && !down) {
        postgres.cluster.kill();
        down = true;
      } else if (answered === 18 && down) {
        postgres.cluster.start();
        down = false;
      }
    });
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status !== 201 && status !== 503)).toEqual([]);
    expect(statuses).toContain(503);
    for (const answer of answers) {
      expect(answer.ms).toBeLessThan(ANSWER_BOUND_MS);
      if (answer.status === 503) expectCallUs(answer);
    }
    const before = instances.map(storedBy);
    const again = await burst(api, keys, 4);
    expect(again.map((answer) => answer.status)).toEqual(keys.map(() => 201));
    // Both stored leads again after the restart, neither restarted.
    expect(instances.map(storedBy).every((count, n) => count > (before[n] ?? 0))).toBe(true);
    const ids = again.map((answer) => (JSON.parse(answer.text) as { id: string }).id);
    expect((await storedIds()).sort()).toEqual([...new Set(ids)].sort());
    await waitFor(() => ids.every((id) => alerted().includes(id)), 30_000);
  }, 90_000);
});
