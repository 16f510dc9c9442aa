// The server's check of a submission: ajv with the schema derived from the form definition is the authority, and its
// errors are worded by the same function the browser uses, so both sides show the same message for the same mistake.
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FormDefinition } from '../../generated/content-types.ts';
import { segmentsOf } from '../../content/json-pointer.ts';
import {
  DEFAULT_INVALID_MESSAGE,
  SOURCE_FIELD,
  UNKNOWN_FIELD_MESSAGE,
  fieldMessage,
  normalizeSubmission,
  submissionSchema,
} from '../../core/form-rules.ts';

export type Submission =
  { ok: true; data: Record<string, string>; source: string } | { ok: false; errors: Record<string, string> };

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);

/** The property an ajv error is about: a missing one, an unknown one or the one whose value failed. */
function propertyOf(error: ErrorObject): string | undefined {
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  if (error.keyword === 'required') return params.missingProperty;
  if (error.keyword === 'additionalProperties') return params.additionalProperty;
  return segmentsOf(error.instancePath)[0];
}

export function createSubmissionValidator(
  def: FormDefinition,
): (body: Record<string, unknown>) => Submission {
  const validate = ajv.compile(submissionSchema(def));
  const fields = new Map(def.fields.map((field) => [field.name, field]));

  const messageFor = (error: ErrorObject, body: Record<string, unknown>): [string, string] | undefined => {
    const name = propertyOf(error);
    if (name === undefined) return undefined;
    if (error.keyword === 'additionalProperties') return [name, UNKNOWN_FIELD_MESSAGE];
    const field = fields.get(name);
    const value = Object.hasOwn(body, name) ? body[name] : undefined;
    return [name, field ? fieldMessage(def, field, value) : DEFAULT_INVALID_MESSAGE];
  };

  return (sent) => {
    // Checked and stored in NFC, as the browser checks it.
    const body = normalizeSubmission(sent);
    if (!validate(body)) {
      // No prototype: a visitor's unknown property named __proto__ must become a plain key like any other.
      const errors: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const error of validate.errors ?? []) {
        const entry = messageFor(error, body);
        if (entry && !Object.hasOwn(errors, entry[0])) errors[entry[0]] = entry[1];
      }
      return { ok: false, errors };
    }
    // Valid means every property is a known string; surrounding spaces carry no meaning, so they are not stored.
    const data: Record<string, string> = {};
    for (const field of def.fields) {
      const value = body[field.name];
      if (typeof value === 'string' && value.trim()) data[field.name] = value.trim();
    }
    return { ok: true, data, source: String(body[SOURCE_FIELD]) };
  };
}

/**
 * A valid submission's fields as one text, the same however they were sent (property order, spaces around values,
 * Unicode composition, optional fields sent empty or left out): what its fingerprint is computed from. Not the page it
 * was sent from: a retry after the visitor moved to another page, with the widget's form still open, is a repeat.
 */
export function canonicalSubmission({ data }: Extract<Submission, { ok: true }>): string {
  return JSON.stringify(Object.entries(data).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
