import { describe, expect, it } from 'vitest';
import { personName } from './person-name.ts';

describe("a lead's person's name", () => {
  it('is the full name, else first and last name, without the spaces around them', () => {
    expect(personName({ fullName: '  Jane Q. Doe ', firstName: 'Ana' })).toBe('Jane Q. Doe');
    expect(personName({ firstName: ' Sam ', lastName: 'Lee ' })).toBe('Sam Lee');
    expect(personName({ lastName: 'Lee' })).toBe('Lee');
  });

  it('falls back to first and last name when the full name was left blank', () => {
    expect(personName({ fullName: '   ', firstName: 'Sam', lastName: 'Lee' })).toBe('Sam Lee');
  });

  it('is empty when there is none', () => {
    expect(personName({ phone: '5550100199' })).toBe('');
    expect(personName({ fullName: ' ', firstName: '' })).toBe('');
  });
});
