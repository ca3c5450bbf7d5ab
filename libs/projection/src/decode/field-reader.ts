import type { Hex } from '@lottery/domain';

const UINT = /^(0|[1-9][0-9]{0,77})$/;
const ADDRESS = /^0x[0-9a-f]{40}$/;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
const MAX_UINT256 = 2n ** 256n - 1n;
const MAX_ID = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Reads one object's fields with their wire types checked (decimal-string uint256, lowercase address,
 * bytes32, small integers), reporting the first violation through `fail`. Hand-written rather than a
 * schema library because it runs on every event of a replay.
 */
export class FieldReader {
  constructor(
    private readonly source: Record<string, unknown>,
    private readonly fail: (reason: string) => never,
    private readonly where = 'payload',
  ) {}

  static of(value: unknown, fail: (reason: string) => never, where: string): FieldReader {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`${where} is not an object`);
    return new FieldReader(value as Record<string, unknown>, fail, where);
  }

  private raw(name: string): unknown {
    return this.source[name];
  }

  private bad(name: string, expected: string): never {
    return this.fail(`${this.where}.${name} must be ${expected}, got ${JSON.stringify(this.raw(name)) ?? 'nothing'}`);
  }

  private uintValue(value: unknown, name: string): bigint {
    if (typeof value !== 'string' || !UINT.test(value)) return this.bad(name, 'a uint256 decimal string');
    const v = BigInt(value);
    return v <= MAX_UINT256 ? v : this.bad(name, 'a uint256 decimal string');
  }

  uint(name: string): bigint {
    return this.uintValue(this.raw(name), name);
  }

  /**
   * A drawing or pool entry id: stored as a Postgres `bigint`, and the pool API answers it as a JSON
   * number, so at most 2^53 − 1 (a larger one would be answered rounded).
   */
  id(name: string): bigint {
    const v = this.uint(name);
    return v <= MAX_ID ? v : this.bad(name, `a uint256 at most ${MAX_ID} (an id answered as a JSON number)`);
  }

  /** A uint256 that the read models keep as a JS number (ball numbers and counts, unix times). */
  safeUint(name: string, max = Number.MAX_SAFE_INTEGER): number {
    const v = this.uint(name);
    return v <= BigInt(max) ? Number(v) : this.bad(name, `a uint256 at most ${max}`);
  }

  /** A non-negative integer carried as a JSON number (uint8 values, block numbers, log indexes). */
  int(name: string, max = Number.MAX_SAFE_INTEGER): number {
    const v = this.raw(name);
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max
      ? v
      : this.bad(name, `an integer 0..${max}`);
  }

  address(name: string): Hex {
    const v = this.raw(name);
    return typeof v === 'string' && ADDRESS.test(v) ? (v as Hex) : this.bad(name, 'a lowercase 0x address');
  }

  bytes32(name: string): Hex {
    const v = this.raw(name);
    return typeof v === 'string' && BYTES32.test(v) ? (v.toLowerCase() as Hex) : this.bad(name, 'a 0x bytes32');
  }

  hex(name: string): Hex {
    const v = this.raw(name);
    return typeof v === 'string' && /^0x[0-9a-fA-F]*$/.test(v) ? (v.toLowerCase() as Hex) : this.bad(name, '0x hex');
  }

  string(name: string): string {
    const v = this.raw(name);
    return typeof v === 'string' && v.length > 0 ? v : this.bad(name, 'a non-empty string');
  }

  private array(name: string, length?: number): unknown[] {
    const v = this.raw(name);
    if (!Array.isArray(v) || (length !== undefined && v.length !== length)) {
      return this.bad(name, length === undefined ? 'an array' : `an array of ${length}`);
    }
    return v;
  }

  uints(name: string, length?: number): bigint[] {
    return this.array(name, length).map((x) => this.uintValue(x, name));
  }

  /** uint8[] arrays arrive as JSON numbers, uint256[] as decimal strings: accept either, as small integers. */
  smallInts(name: string, length: number, max = 255): number[] {
    return this.array(name, length).map((x) => {
      const v = typeof x === 'string' && UINT.test(x) ? Number(x) : x;
      return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max
        ? v
        : this.bad(name, `integers 0..${max}`);
    });
  }

  addresses(name: string): Hex[] {
    return this.array(name).map((x) =>
      typeof x === 'string' && ADDRESS.test(x) ? (x as Hex) : this.bad(name, 'lowercase 0x addresses'),
    );
  }
}
