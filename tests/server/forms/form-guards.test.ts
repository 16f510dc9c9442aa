// What stands between a request and a stored lead besides the field rules: the Origin check, the honeypot and the
// Idempotency-Key; and the two other forms (the widget's), end to end.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HONEYPOT_FIELD, IDEMPOTENCY_HEADER } from '../../../core/form-rules.ts';
import {
  createdId,
  postForm,
  postJson,
  quickInsuranceLead,
  validLead,
  waitFor,
} from '../../helpers/fixtures.ts';
import { serverWithReceiver } from '../../helpers/in-process-server.ts';

const t = serverWithReceiver({ allowedOrigins: ['https://landing.example'] });

const leadCount = async () => (await t.server.store.listLeads()).length;

describe('Origin check', () => {
  it('refuses JSON without an Origin, or from another site, with 403 and stores nothing', async () => {
    const before = await leadCount();
    const missing = await fetch(t.server.api, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(validLead),
    });
    expect(missing.status).toBe(403);
    expect(await missing.json()).toEqual({ error: expect.stringMatching(/Origin/) });
    for (const origin of [
      'https://evil.example',
      'null',
      `${t.server.url}.evil.example`,
      'http://127.0.0.1:1',
    ]) {
      const response = await postJson(t.server.api, validLead, { Origin: origin });
      expect(response.status, origin).toBe(403);
    }
    expect(await leadCount()).toBe(before);
    expect(t.server.logs).toContainEqual(
      expect.objectContaining({ msg: 'form post refused', origin: 'https://evil.example' }),
    );
  });

  it('takes JSON from the site itself and from ALLOWED_ORIGINS', async () => {
    expect((await postJson(t.server.api, validLead)).status).toBe(201);
    expect((await postJson(t.server.api, validLead, { Origin: 'https://landing.example' })).status).toBe(201);
  });

  it('takes a form posted without JavaScript and without Origin, but not one posted from another site', async () => {
    expect((await postForm(t.server.api, validLead)).status).toBe(303);
    expect((await postForm(t.server.api, validLead, { Origin: t.server.url })).status).toBe(303);
    const foreign = await postForm(t.server.api, validLead, { Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await foreign.text()).toContain('href="tel:');
  });
});

describe('honeypot', () => {
  const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  // What may differ between two answers of the same kind: the time, and the count left in the rate limit.
  const comparable = (response: Response) =>
    Object.fromEntries([...response.headers].filter(([name]) => !['date', 'ratelimit'].includes(name)));

  it('answers a filled honeypot exactly like a stored lead (status, headers, a v7 id), stores nothing, logs no values', async () => {
    const before = await leadCount();
    const real = await postJson(t.server.api, validLead);
    const trapped = await postJson(t.server.api, { ...validLead, [HONEYPOT_FIELD]: 'https://spam.example' });
    expect(trapped.status).toBe(real.status);
    expect(comparable(trapped)).toEqual(comparable(real));
    const { id } = (await trapped.json()) as { id: string };
    expect(((await real.json()) as { id: string }).id).toMatch(V7);
    expect(id).toMatch(V7);

    const form = await postForm(t.server.api, { ...validLead, [HONEYPOT_FIELD]: 'x' });
    const realForm = await postForm(t.server.api, validLead);
    expect(form.status).toBe(303);
    expect(comparable(form)).toEqual(comparable(realForm));

    expect(await leadCount()).toBe(before + 2);
    expect(await t.server.store.getLead(id)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(t.receiver.calls.filter((call) => call.raw.includes(id))).toEqual([]);
    const discarded = t.server.logs.filter((line) => line.msg === 'honeypot filled: submission discarded');
    expect(discarded).toHaveLength(2);
    expect(JSON.stringify(discarded)).not.toContain('spam.example');
    expect(discarded[0]).toMatchObject({ level: 30, formId: 'insurance-verification' });
  });

  it('checks a filled honeypot in the same order as a person: validation and the key first, answered alike', async () => {
    const before = await leadCount();
    const invalid = { fullName: 'x', phone: 'call me', source: '/' };
    const realInvalid = await postJson(t.server.api, invalid);
    const trappedInvalid = await postJson(t.server.api, { ...invalid, [HONEYPOT_FIELD]: 42 });
    expect(trappedInvalid.status).toBe(400);
    expect(await trappedInvalid.json()).toEqual(await realInvalid.json());

    const badKey = { [IDEMPOTENCY_HEADER]: 'short' };
    const trappedKey = await postJson(t.server.api, { ...validLead, [HONEYPOT_FIELD]: 'x' }, badKey);
    expect(trappedKey.status).toBe(400);
    expect(await trappedKey.json()).toEqual(await (await postJson(t.server.api, validLead, badKey)).json());
    expect(await leadCount()).toBe(before);
  });

  it('answers a repeat of its key with the same id, and the key with other fields with 422, as for a lead', async () => {
    const key = { [IDEMPOTENCY_HEADER]: randomUUID() };
    const trapped = { ...validLead, [HONEYPOT_FIELD]: 'x' };
    const first = await createdId(await postJson(t.server.api, trapped, key));
    expect(await createdId(await postJson(t.server.api, trapped, key))).toBe(first);
    const other = await postJson(t.server.api, { ...trapped, phone: '555-010-9999' }, key);
    expect(other.status).toBe(422);
    expect(await other.json()).toEqual({ error: expect.stringMatching(/Idempotency-Key.*different/) });
    expect(await t.server.store.getLead(first)).toBeUndefined();
  });

  it('accepts the empty honeypot people send, and does not store it', async () => {
    const id = await createdId(await postJson(t.server.api, { ...validLead, [HONEYPOT_FIELD]: '' }));
    expect((await t.server.store.getLead(id))?.data).not.toHaveProperty(HONEYPOT_FIELD);
  });
});

describe('Idempotency-Key', () => {
  it('stores one lead for the same key, and answers every copy with its id', async () => {
    const before = await leadCount();
    const key = randomUUID();
    const first = await createdId(await postJson(t.server.api, validLead, { [IDEMPOTENCY_HEADER]: key }));
    const again = await createdId(await postJson(t.server.api, validLead, { [IDEMPOTENCY_HEADER]: key }));
    expect(again).toBe(first);
    // A double click: both copies in flight at once.
    const twin = randomUUID();
    const both = await Promise.all(
      [1, 2, 3].map(async () =>
        createdId(await postJson(t.server.api, validLead, { [IDEMPOTENCY_HEADER]: twin })),
      ),
    );
    expect(new Set(both).size).toBe(1);
    expect(await leadCount()).toBe(before + 2);
    expect(t.server.logs).toContainEqual(
      expect.objectContaining({ msg: 'repeated submission: answered with its lead', leadId: first }),
    );
    await waitFor(() => t.receiver.calls.filter((call) => call.raw.includes(first)).length === 1);
  });

  it('answers a repeated plain form post with the same redirect, and tells keys of other forms apart', async () => {
    const key = randomUUID();
    const before = await leadCount();
    const responses = await Promise.all([
      postForm(t.server.api, validLead, { [IDEMPOTENCY_HEADER]: key }),
      postForm(t.server.api, validLead, { [IDEMPOTENCY_HEADER]: key }),
    ]);
    expect(responses.map((response) => response.status)).toEqual([303, 303]);
    expect(responses[0]?.headers.get('location')).toBe(responses[1]?.headers.get('location'));
    const consultation = await postJson(
      `${t.server.url}/api/forms/consultation`,
      { firstName: 'Sam', lastName: 'Lee', phone: '5550100199', email: 'sam@example.com', source: '/' },
      { [IDEMPOTENCY_HEADER]: key },
    );
    expect(consultation.status).toBe(201);
    expect(await leadCount()).toBe(before + 2);
  });

  it('refuses the same key with other fields with 422, and keeps the first lead as it was', async () => {
    const before = await leadCount();
    const key = { [IDEMPOTENCY_HEADER]: randomUUID() };
    const first = await createdId(await postJson(t.server.api, validLead, key));
    // The same submission written differently (property order, spaces around a value), or sent again from another
    // page, is a repeat.
    const { fullName, ...rest } = validLead;
    const respelt = { ...rest, fullName: `  ${fullName} `, source: '/about' };
    expect(await createdId(await postJson(t.server.api, respelt, key))).toBe(first);

    const other = await postJson(t.server.api, { ...validLead, phone: '555-010-9999' }, key);
    expect(other.status).toBe(422);
    const { error } = (await other.json()) as { error: string };
    expect(error).toMatch(/Idempotency-Key.*different/);
    expect(error).not.toContain(first);

    // Without JavaScript: a page saying so, with the phone number.
    const page = await postForm(t.server.api, { ...validLead, memberId: 'OTHER-1234' }, key);
    expect(page.status).toBe(422);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('different details');
    expect(html).toContain('href="tel:');
    expect(html).not.toContain(first);

    expect(await leadCount()).toBe(before + 1);
    expect((await t.server.store.getLead(first))?.data).toMatchObject({
      phone: validLead.phone,
      memberId: validLead.memberId,
    });
    expect(t.server.logs).toContainEqual(
      expect.objectContaining({ level: 30, msg: 'Idempotency-Key sent again with other fields: refused' }),
    );
  });

  it('refuses a key that is not a short token', async () => {
    for (const key of ['short', 'x'.repeat(129), 'has space inside it', 'é'.repeat(10)]) {
      const response = await postJson(t.server.api, validLead, { [IDEMPOTENCY_HEADER]: key });
      expect(response.status, key).toBe(400);
      expect(await response.json()).toEqual({ error: expect.stringMatching(/Idempotency-Key/) });
    }
  });
});

describe('the widget forms', () => {
  it('stores a consultation with its optional choices left out as empty strings, and alerts with labels', async () => {
    const response = await postJson(`${t.server.url}/api/forms/consultation`, {
      firstName: 'Sam',
      lastName: 'Lee',
      phone: '(555) 010-0199',
      email: 'sam@example.com',
      concernFor: '',
      urgency: 'urgent',
      message: 'I would like to talk about my brother',
      [HONEYPOT_FIELD]: '',
      source: '/about',
    });
    const id = await createdId(response);
    expect((await t.server.store.getLead(id))?.data).toEqual({
      firstName: 'Sam',
      lastName: 'Lee',
      phone: '(555) 010-0199',
      email: 'sam@example.com',
      urgency: 'urgent',
      message: 'I would like to talk about my brother',
    });
    const call = await waitFor(() => t.receiver.calls.find((c) => c.raw.includes(id)));
    // How urgent, by its label: the one thing the person chose that the chat is told.
    expect(call.raw).toContain('Urgent: within 48 hours');
    for (const value of ['Sam', 'Lee', '010-0199', 'sam@example.com', 'brother', '/about'])
      expect(call.raw).not.toContain(value);
  });

  it('stores the quick insurance form and sends none of its values to the chat', async () => {
    const id = await createdId(
      await postJson(`${t.server.url}/api/forms/widget-insurance`, quickInsuranceLead),
    );
    const call = await waitFor(() => t.receiver.calls.find((c) => c.raw.includes(id)));
    expect((await t.server.store.getLead(id))?.data).toMatchObject({
      insuranceProvider: 'tricare',
      memberID: 'TRI-55120',
    });
    for (const value of ['Ana', 'Ruiz', '010-0111', 'ana@example.com', 'Tricare', 'tricare', 'TRI-55120'])
      expect(call.raw).not.toContain(value);
  });

  it('keeps every submitted value out of the log', () => {
    const text = t.server.logText();
    for (const value of [
      'Jane Q. Doe',
      '010-4477',
      'XZH-99817234',
      '1987-03-14',
      'TRI-55120',
      'brother',
      'Ruiz',
      '555-010-9999',
      'OTHER-1234',
    ])
      expect(text).not.toContain(value);
  });
});
