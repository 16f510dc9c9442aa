import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { HIDDEN_CHARACTER_MESSAGE } from '../../../core/form-rules.ts';
import { insuranceForm, postForm, postJson, site, validLead, waitFor } from '../../helpers/fixtures.ts';
import { serverWithReceiver } from '../../helpers/in-process-server.ts';

const t = serverWithReceiver();

const rowOf = (id: string) => {
  const db = new Database(t.server.dbFile, { readonly: true });
  try {
    return db.prepare('SELECT * FROM leads WHERE id = ?').get(id) as
      { form_id: string; source: string; data: string; sealed: string; created_at: string } | undefined;
  } finally {
    db.close();
  }
};

describe('form API, JSON', () => {
  it('stores a valid lead, answers 201 with its id, and alerts the chat without health details', async () => {
    const response = await postJson(t.server.api, validLead);
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const row = rowOf(id);
    const { source, ...values } = validLead;
    expect(row).toMatchObject({ form_id: 'insurance-verification', data: '{}' });
    // The page it came from is sealed too (with an access log it would tie an address to an admission).
    expect(row?.source).not.toContain(source);
    expect((await t.server.store.getLead(id))?.source).toBe(source);
    expect(Object.keys(JSON.parse(row?.sealed ?? '{}') as object).sort()).toEqual(Object.keys(values).sort());
    for (const value of Object.values(values)) expect(row?.sealed).not.toContain(value);
    expect((await t.server.store.getLead(id))?.data).toEqual(values);

    const call = await waitFor(() => t.receiver.calls.find((c) => c.raw.includes(id)));
    expect(call.headers['content-type']).toBe('application/json');
    // A new request, its form and a link to it in the inbox: not one value the visitor sent, nor the page.
    const message = call.raw;
    expect(message).toContain(insuranceForm.name);
    expect(message).toContain(`${site.url}/staff/leads/${id}`);
    for (const value of [...Object.values(validLead), '(555) 010-4477', 'Blue Cross'])
      expect(message).not.toContain(value);
    expect(call.json.text).toContain(id);
    await waitFor(async () => (await t.server.store.getAlert(id))?.status === 'delivered');
  });

  it('answers 400 with a message for each bad field, worded as in the form definition', async () => {
    const response = await postJson(t.server.api, {
      fullName: '   ',
      phone: '12345',
      dateOfBirth: '1990-02-30',
      insuranceProvider: 'Aetna',
      source: '/',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: {
        fullName: insuranceForm.requiredMessage,
        phone: 'Enter a US phone number, such as (555) 123-4567',
        dateOfBirth: 'Enter a valid date of birth',
        insuranceProvider: 'Please check this field',
        memberId: insuranceForm.requiredMessage,
      },
    });
  });

  it('refuses control and text-direction characters with one field message, and stores text in NFC', async () => {
    const before = (await t.server.store.listLeads()).length;
    for (const [field, value] of [
      ['fullName', 'Jane\u202eeoD'],
      ['fullName', '\u2066Jane\u2069 Doe'],
      ['fullName', 'Jane\u001b[31m Doe'],
      ['fullName', 'Jane\nDoe'],
      ['fullName', 'Jane\u0085Doe'],
      ['memberId', 'XZH\u200e-99817234'],
      ['phone', '555\n010\n4477'],
    ]) {
      const json = await postJson(t.server.api, { ...validLead, [field as string]: value });
      expect(json.status, JSON.stringify(value)).toBe(400);
      expect(await json.json()).toEqual({ errors: { [field as string]: HIDDEN_CHARACTER_MESSAGE } });
      const page = await postForm(t.server.api, { ...validLead, [field as string]: value as string });
      expect(page.status).toBe(400);
      expect(await page.text()).toContain(HIDDEN_CHARACTER_MESSAGE);
    }
    expect(await t.server.store.listLeads()).toHaveLength(before);

    // "José" with its accent as a separate mark is stored as one character.
    const response = await postJson(t.server.api, { ...validLead, fullName: 'Jose\u0301 Q. Doe' });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    expect((await t.server.store.getLead(id))?.data.fullName).toBe('Jos\u00e9 Q. Doe');
  });

  it('rejects unknown properties, a missing source and values that are not strings', async () => {
    const noSource: Record<string, unknown> = { ...validLead };
    delete noSource.source;
    // Written as text: an object literal's __proto__ would set the prototype instead of a property.
    const body = JSON.stringify({ ...noSource, fullName: 42, note: 'hi' }).replace(
      /^\{/,
      '{"__proto__":"x",',
    );
    const response = await postJson(t.server.api, body);
    expect(response.status).toBe(400);
    const { errors } = (await response.json()) as { errors: Record<string, string> };
    expect(Object.keys(errors).sort()).toEqual(['__proto__', 'fullName', 'note', 'source']);
  });

  it('answers 404 for an unknown form', async () => {
    const response = await postJson(`${t.server.url}/api/forms/no-such-form`, validLead);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Unknown form' });
  });

  it('answers 415 for another content type', async () => {
    for (const type of ['text/plain', 'multipart/form-data; boundary=x', 'application/xml']) {
      const response = await fetch(t.server.api, {
        method: 'POST',
        headers: { 'Content-Type': type },
        body: 'x',
      });
      expect(response.status, type).toBe(415);
    }
  });

  it('answers 413 for a body over 16 KB', async () => {
    const response = await postJson(t.server.api, { ...validLead, fullName: 'x'.repeat(17 * 1024) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'The request body is too large' });
  });

  it('answers 400 for malformed JSON and JSON that is not an object', async () => {
    for (const body of ['{"fullName": ', 'null', '"text"', '[1,2]', '{"a":1}}']) {
      const response = await postJson(t.server.api, body);
      expect(response.status, body).toBe(400);
      expect(await response.json(), body).toHaveProperty('error');
    }
  });

  it('never answers 5xx to odd requests', async () => {
    const odd: [string, RequestInit][] = [
      ['/api/forms/insurance-verification', { method: 'POST' }],
      [
        '/api/forms/insurance-verification',
        { method: 'POST', headers: { 'Content-Type': 'application/json; charset=latin-9' }, body: '{}' },
      ],
      [
        '/api/forms/insurance-verification',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'br-x' },
          body: '{}',
        },
      ],
      [
        '/api/forms/%E0%A4%A',
        { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' },
      ],
      ['/api/forms/insurance-verification', { method: 'GET' }],
      [
        '/api/forms/insurance-verification',
        { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: '{}' },
      ],
      [
        '/api/forms/insurance-verification',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'a=1&'.repeat(200),
        },
      ],
    ];
    for (const [path, init] of odd) {
      const response = await fetch(t.server.url + path, init);
      expect(response.status, `${init.method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${init.method} ${path}`).toBeLessThan(500);
    }
  });
});

describe('form API, without JavaScript', () => {
  it('stores a urlencoded lead, answers 303 to the received page, which confirms and links back', async () => {
    const response = await postForm(t.server.api, validLead);
    expect(response.status).toBe(303);
    const location = response.headers.get('location') ?? '';
    expect(location).toBe('/forms/insurance-verification/received?from=%2Fservices%2Fmedical-detox');

    const page = await fetch(t.server.url + location);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain(insuranceForm.success.title);
    expect(html).toContain(insuranceForm.success.text);
    expect(html).toContain(site.brand.name);
    expect(html).toContain(`href="tel:${site.phones.primary.tel}"`);
    expect(html).toContain('href="/services/medical-detox"');
    const stored = await waitFor(() =>
      t.server.logs.find((line) => line.msg === 'lead stored' && typeof line.leadId === 'string'),
    );
    expect(rowOf(String(stored.leadId))).toBeTruthy();
  });

  it('links the received page home when its source is not a site path', async () => {
    const html = await (
      await fetch(`${t.server.url}/forms/insurance-verification/received?from=//evil.example`)
    ).text();
    expect(html).toContain('href="/"');
    expect(html).not.toContain('evil.example');
    expect((await fetch(`${t.server.url}/forms/no-such-form/received`)).status).toBe(404);
  });

  it('answers invalid urlencoded data with 400 and a page listing each field and its message, escaped', async () => {
    const response = await postForm(t.server.api, {
      ...validLead,
      fullName: '',
      phone: 'call me',
      '<script>': 'x',
      source: '/services/medical-detox',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain(`<strong>Full Name</strong>: ${insuranceForm.requiredMessage}`);
    expect(html).toContain('<strong>Phone Number</strong>: Enter a US phone number, such as (555) 123-4567');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('href="/services/medical-detox"');
    expect(html).not.toContain(validLead.memberId);
  });
});

describe('what the logs hold', () => {
  it('never holds submitted values', () => {
    const text = t.server.logText();
    for (const value of [validLead.fullName, validLead.phone, validLead.dateOfBirth, validLead.memberId])
      expect(text).not.toContain(value);
  });
});

describe('health check', () => {
  it('answers 200 while the lead database can be read', async () => {
    const response = await fetch(`${t.server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({
      status: 'ok',
      alerts: { pending: expect.any(Number), dead: 0, oldestPendingSeconds: expect.any(Number) },
      // The app built in the test serves a folder, not a release.
      release: null,
    });
  });
});
