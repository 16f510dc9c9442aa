// One parsed submission, from body to stored lead: the Idempotency-Key, the definition's rules, the honeypot, then the
// store. The caller decides how each outcome is worded (JSON or a page).
//
// A visitor never waits more than ANSWER_WITHIN_MS for the answer: the store gets STORE_WAIT_MS of it, whatever is
// wrong with the database (locked by another process, a full or read-only disk, a stalled one), and the rest is for
// reading the form and answering. Past it they are told, with the phone number, that it could not be saved. A lead
// whose commit was already under way then may still be committed afterwards: whole, with its alert, which still reaches
// admissions; a visitor who sends it again with the same Idempotency-Key gets that same lead.
import type { FormDefinition } from '../../generated/content-types.ts';
import { HONEYPOT_FIELD, IDEMPOTENCY_HEADER } from '../../core/form-rules.ts';
import { decoyLedger } from './decoy-ledger.ts';
import { canonicalSubmission, createSubmissionValidator } from './form-validation.ts';
import type { LeadStore } from '../store/contract/lead-store.ts';
import type { Logger } from '../logger.ts';
import { isObject } from '../../content/json-pointer.ts';

export type SubmissionOutcome =
  /** The lead is on disk (or was already, or is a bot's and discarded): answer success. */
  | { kind: 'stored'; id: string; source: string }
  | { kind: 'invalid'; errors: Record<string, string>; source: unknown }
  | { kind: 'refused'; status: 400 | 422 | 503; message: string };

export interface SubmissionOptions {
  forms: Map<string, FormDefinition>;
  store: LeadStore;
  logger: Logger;
  onLeadStored?: (leadId: string) => void;
}

/** The longest a visitor waits for the answer to a submission, from the moment the server has it. */
export const ANSWER_WITHIN_MS = 10_000;
/** The store's share of it; the rest covers checking the form and sending the answer on a busy server. */
export const STORE_WAIT_MS = ANSWER_WITHIN_MS - 2_000;

const STORE_FAILURE_MESSAGE =
  'Your request could not be saved. Please try again in a moment, or call us now.';

/** The store did not commit the lead within the visitor's wait. */
class StoreTimeoutError extends Error {
  constructor() {
    super(`the lead store did not commit within ${STORE_WAIT_MS} ms`);
    this.name = 'StoreTimeoutError';
  }
}

/** `promise`, or a StoreTimeoutError at `deadline` if it has not settled by then. */
function settledBy<T>(promise: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new StoreTimeoutError()), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// The browser sends a UUID; any short token of visible ASCII is accepted so other clients are not turned away.
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{8,128}$/;

/** The answer to an Idempotency-Key sent again with other fields: neither the first lead's id nor a new lead. */
const KEY_CONFLICT = {
  kind: 'refused',
  status: 422,
  message:
    `This ${IDEMPOTENCY_HEADER} was already used for a submission with different details, so this one was not ` +
    'saved. Please send the form again, or call us now.',
} as const;

/** People never see the honeypot, so anything but absent or blank in it was typed by a bot. */
function honeypotFilled(body: Record<string, unknown>): boolean {
  if (!Object.hasOwn(body, HONEYPOT_FIELD)) return false;
  const value = body[HONEYPOT_FIELD];
  return typeof value !== 'string' || value.trim() !== '';
}

export function formSubmission({ forms, store, logger, onLeadStored }: SubmissionOptions) {
  const validators = new Map([...forms].map(([id, def]) => [id, createSubmissionValidator(def)]));
  const decoy = decoyLedger();

  /** `key` is the Idempotency-Key header as sent, if any. */
  return async (
    formId: string,
    def: FormDefinition,
    body: unknown,
    key: string | string[] | undefined,
  ): Promise<SubmissionOutcome> => {
    if (!isObject(body))
      return { kind: 'refused', status: 400, message: 'Expected a JSON object with the form fields' };

    if (key !== undefined && (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)))
      return {
        kind: 'refused',
        status: 400,
        message: `${IDEMPOTENCY_HEADER} must be 8 to 128 visible ASCII characters, such as a UUID`,
      };

    const validate = validators.get(formId);
    if (!validate) throw new Error(`form ${formId} has no validator`);
    // A filled honeypot goes through every check a person's submission does, in the same order, and is answered alike.
    const trapped = honeypotFilled(body);
    const submission = validate(trapped ? { ...body, [HONEYPOT_FIELD]: '' } : body);
    if (!submission.ok) {
      // Field names only: the values are the visitor's and stay out of the log.
      logger.info({ formId, invalid: Object.keys(submission.errors) }, 'form submission rejected');
      return { kind: 'invalid', errors: submission.errors, source: body.source };
    }
    // Under every key of the ring: a repeat sent across a key rotation is still a repeat.
    const fingerprints = store.fingerprints(canonicalSubmission(submission));
    const fingerprint = fingerprints[0] ?? '';

    if (trapped) {
      // No values logged, and nothing stored or alerted.
      logger.info({ formId }, 'honeypot filled: submission discarded');
      const answer = decoy(formId, key, fingerprint);
      if (answer.conflict) return KEY_CONFLICT;
      return { kind: 'stored', id: answer.id, source: submission.source };
    }

    const deadline = Date.now() + STORE_WAIT_MS;
    const writing = store.insertLead(
      {
        formId,
        source: submission.source,
        fields: submission.data,
        idempotencyKey: key,
        fingerprint: fingerprints,
      },
      { deadline },
    );
    let result;
    try {
      result = await settledBy(writing, deadline);
    } catch (error) {
      const { name, message } = error instanceof Error ? error : new Error(String(error));
      // As one string: the logger censors every `message` key (a form field's name). The store's errors are its own
      // and SQLite's (locked, full, read-only), never a submitted value, and they tell the operator what to mend.
      logger.error({ formId, storeError: `${name}: ${message}` }, 'lead could not be stored');
      if (error instanceof StoreTimeoutError)
        writing.then(
          (late) => {
            if (late.replayed) return;
            logger.warn({ formId, leadId: late.id }, 'lead stored after its visitor was told it was not');
            onLeadStored?.(late.id);
          },
          () => undefined,
        );
      return { kind: 'refused', status: 503, message: STORE_FAILURE_MESSAGE };
    }
    if (result.conflict) {
      logger.info({ formId }, 'Idempotency-Key sent again with other fields: refused');
      return KEY_CONFLICT;
    }
    if (result.replayed)
      logger.info({ formId, leadId: result.id }, 'repeated submission: answered with its lead');
    else {
      logger.info({ formId, leadId: result.id }, 'lead stored');
      onLeadStored?.(result.id);
    }
    return { kind: 'stored', id: result.id, source: submission.source };
  };
}
