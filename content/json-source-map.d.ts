// json-source-map ships no types; only `parse` is used, by the content validator.
declare module 'json-source-map' {
  /** Zero-based; `column` counts a tab as four, so callers that need character columns use `pos`. */
  export interface Location {
    line: number;
    column: number;
    pos: number;
  }
  export interface Mapping {
    /** Present when the parent is an object. */
    key?: Location;
    keyEnd?: Location;
    value: Location;
    valueEnd: Location;
  }
  export interface ParseResult {
    data: unknown;
    /** Keyed by JSON pointer (RFC 6901); '' is the document. */
    pointers: Record<string, Mapping>;
  }
  /** Throws a SyntaxError ('Unexpected token X in JSON at position N') on invalid JSON. */
  export function parse(source: string, reviver?: null, options?: { bigint?: boolean }): ParseResult;
}
