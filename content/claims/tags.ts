// Which claim tag applies to a schema node: its own `claim`, else the first along its $ref chain (the field's own
// tag beats its shared definition's), else the tag inherited from the nearest tagged ancestor.
import { isClaimTag, type ClaimTag } from './keyword.ts';
import { refTarget, type Located } from '../validate/schema-walk.ts';

/** The tag a node declares itself or through the definitions it refers to; undefined when none does. */
export function declaredTag(located: Located): ClaimTag | undefined {
  let current: Located | undefined = located;
  for (let hops = 0; current && hops < 32; hops++) {
    if (isClaimTag(current.schema.claim)) return current.schema.claim;
    current = refTarget(current);
  }
  return undefined;
}

/** The tag in force at a node, given the one in force at its parent. */
export const tagAt = (located: Located, inherited: ClaimTag | undefined): ClaimTag | undefined =>
  declaredTag(located) ?? inherited;
