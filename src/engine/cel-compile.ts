import type { CelExpr } from './cel.js';

/**
 * CEL expressions compiled to JavaScript closures over the data as parsed (no conversion to
 * CEL values): field selection, `has`, the logical operators with CEL's error absorption,
 * equality, `in`, indexing, ordering, arithmetic (`+ - *`, int and double kept apart as CEL
 * does: a data number is an int when whole, as the interpreter's input conversion makes it),
 * the conditional, list and map literals, comprehensions (the macros `exists`, `all`, `map`,
 * `filter`), the string methods, `size`, `type`, timestamps and durations, and the functions
 * named in `functions`. Anything else leaves the expression to the interpreter: a compiled
 * program runs in about a microsecond, an interpreted one in tens to hundreds, on every object
 * of a kind, for every rule that reads it. `test/engine/cel-compile.test.ts` holds the two to
 * the same verdicts on every expression of the pack.
 */

/** CEL's error value: a missing field, a type mismatch. Absorbed by `&&` and `||` as CEL does. */
const ERROR: unique symbol = Symbol('cel error');
export const CEL_ERROR = ERROR;
type Value = unknown;
/** The bound variables, and the comprehensions' variables in the slots the compiler gave them. */
interface Frame {
  readonly bindings: Readonly<Record<string, Value>>;
  readonly vars: Value[];
}
type Node = (frame: Frame) => Value;
/** Comprehension variables in scope where a node is compiled: name → slot. */
type Vars = ReadonlyMap<string, number>;

/** Functions callable from compiled programs: arguments as the data holds them, ERROR when not of their type. */
export type CompiledFunctions = Readonly<Record<string, (...args: Value[]) => Value>>;

/** A timestamp or a duration, in nanoseconds (the precision CEL keeps). */
class Instant {
  constructor(readonly ns: bigint) {}
}
class Span {
  constructor(readonly ns: bigint) {}
}

/** A type as `type(x)` gives it and its name denotes it (`type(x) == string`). */
class CelTypeTag {
  constructor(readonly name: string) {}
}
const TYPES = new Map(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type'].map((name) => [name, new CelTypeTag(name)]));

/** What a number is to CEL, where the expression says (a constant, a function's result); else decided by the value. */
type NumberType = 'int' | 'double';
const numberTypes = new WeakMap<Node, NumberType>();
const typed = (node: Node, type: NumberType): Node => (numberTypes.set(node, type), node);

function numberType(node: Node, value: number): NumberType {
  return numberTypes.get(node) ?? (Number.isInteger(value) ? 'int' : 'double');
}

/** The program, or undefined when the expression uses what only the interpreter does. */
export function compileToJs(expr: CelExpr, functions: CompiledFunctions): ((bindings: Readonly<Record<string, unknown>>) => boolean) | undefined {
  const compiler = new Compiler(functions);
  const node = compiler.node(expr, new Map());
  if (!node) return undefined;
  const slots = compiler.slots;
  return (bindings) => node({ bindings, vars: new Array<Value>(slots) }) === true;
}

/** Compiles one expression: the slots its comprehensions' variables take, the functions it may call. */
class Compiler {
  slots = 0;
  constructor(private readonly functions: CompiledFunctions) {}

  node(expr: CelExpr, vars: Vars): Node | undefined {
    const node = this.compile(expr, vars);
    return node && this.folded(node, expr);
  }

  private compile(expr: CelExpr, vars: Vars): Node | undefined {
    const kind = expr.exprKind;
    switch (kind.case) {
      case 'constExpr':
        return this.constantOf(kind.value.constantKind);
      case 'identExpr': {
        const name = kind.value.name;
        const slot = vars.get(name);
        if (slot !== undefined) return (frame) => frame.vars[slot];
        const type = TYPES.get(name) ?? ERROR;
        return (frame) => (Object.hasOwn(frame.bindings, name) && frame.bindings[name] !== undefined ? frame.bindings[name] : type);
      }
      case 'selectExpr': {
        const operand = kind.value.operand && this.node(kind.value.operand, vars);
        if (!operand) return undefined;
        const field = kind.value.field;
        if (kind.value.testOnly) {
          return (frame) => {
            const parent = operand(frame);
            if (parent === ERROR) return ERROR;
            return isMap(parent) && Object.hasOwn(parent, field) && parent[field] !== undefined && parent[field] !== null;
          };
        }
        return (frame) => fieldOf(operand(frame), field);
      }
      case 'listExpr': {
        if (kind.value.optionalIndices.length > 0) return undefined;
        const elements = this.all(kind.value.elements, vars);
        if (!elements) return undefined;
        return (frame) => {
          const out: Value[] = [];
          for (const element of elements) {
            const value = element(frame);
            if (value === ERROR) return ERROR;
            out.push(value);
          }
          return out;
        };
      }
      case 'structExpr': {
        if (kind.value.messageName !== '') return undefined;
        const entries: [Node, Node][] = [];
        for (const entry of kind.value.entries) {
          if (entry.keyKind.case !== 'mapKey' || entry.optionalEntry || !entry.value) return undefined;
          const key = this.node(entry.keyKind.value, vars);
          const value = this.node(entry.value, vars);
          if (!key || !value) return undefined;
          entries.push([key, value]);
        }
        return (frame) => {
          const out: Record<string, Value> = {};
          for (const [key, value] of entries) {
            const k = key(frame);
            const v = value(frame);
            if (typeof k !== 'string' || v === ERROR || Object.hasOwn(out, k)) return ERROR;
            out[k] = v;
          }
          return out;
        };
      }
      case 'comprehensionExpr':
        return this.comprehension(kind.value, vars);
      case 'callExpr':
        return this.call(kind.value.function, kind.value.target, kind.value.args, vars);
      default:
        return undefined;
    }
  }

  private all(exprs: readonly CelExpr[], vars: Vars): Node[] | undefined {
    const out: Node[] = [];
    for (const expr of exprs) {
      const node = this.node(expr, vars);
      if (!node) return undefined;
      out.push(node);
    }
    return out;
  }

  private constantOf(constant: Extract<CelExpr['exprKind'], { case: 'constExpr' }>['value']['constantKind']): Node | undefined {
    switch (constant.case) {
      case 'stringValue':
      case 'boolValue': {
        const value = constant.value;
        return () => value;
      }
      case 'doubleValue': {
        const value = constant.value;
        return typed(() => value, 'double');
      }
      case 'int64Value': {
        const value = Number(constant.value);
        return typed(() => value, 'int');
      }
      case 'nullValue':
        return () => null;
      default:
        return undefined;
    }
  }


  private comprehension(c: Comprehension, vars: Vars): Node | undefined {
    if (c.iterVar2 !== '' || !c.iterRange || !c.accuInit || !c.loopCondition || !c.loopStep || !c.result) return undefined;
    const accuSlot = this.slots++;
    const iterSlot = this.slots++;
    // The range and the initial value are outside the loop: the comprehension's variables are not in their scope.
    const outer = this.all([c.iterRange, c.accuInit], vars);
    const inner = this.all([c.loopCondition, c.loopStep, c.result], new Map([...vars, [c.accuVar, accuSlot], [c.iterVar, iterSlot]]));
    if (!outer || !inner) return undefined;
    const [range, init] = outer as [Node, Node];
    const [condition, step, result] = inner as [Node, Node, Node];
    return (frame) => {
      const over = range(frame);
      let items: readonly Value[];
      if (Array.isArray(over)) items = over;
      else if (isMap(over)) items = Object.keys(over).filter((key) => over[key] !== undefined);
      else return ERROR;
      const slots = frame.vars;
      slots[accuSlot] = init(frame);
      for (const item of items) {
        slots[iterSlot] = item;
        if (condition(frame) !== true) break;
        slots[accuSlot] = step(frame);
      }
      return result(frame);
    };
  }

  private call(fn: string, target: CelExpr | undefined, argExprs: readonly CelExpr[], vars: Vars): Node | undefined {
    const args = this.all(target ? [target, ...argExprs] : argExprs, vars);
    if (!args) return undefined;
    const [a, b, c] = args;
    if (args.length === 1 && a) {
      if (fn === '!_') return (frame) => {
        const v = a(frame);
        return typeof v === 'boolean' ? !v : ERROR;
      };
      if (fn === '@not_strictly_false') return (frame) => a(frame) !== false;
    }
    if (args.length === 2 && a && b) {
      const arithmetic = ARITHMETIC[fn];
      if (arithmetic) {
        const node: Node = (frame) => {
          const l = a(frame);
          if (l === ERROR) return ERROR;
          const r = b(frame);
          if (r === ERROR) return ERROR;
          if (typeof l === 'number' && typeof r === 'number') {
            const type = numberType(a, l);
            return type === numberType(b, r) ? arithmetic.numbers(l, r, type) : ERROR;
          }
          return arithmetic.other(l, r);
        };
        const lt = numberTypes.get(a);
        return lt !== undefined && lt === numberTypes.get(b) ? typed(node, lt) : node;
      }
      const binary = BINARY[fn];
      if (binary) return (frame) => {
        const l = a(frame);
        if (l === ERROR) return ERROR;
        const r = b(frame);
        return r === ERROR ? ERROR : binary(l, r);
      };
      if (fn === '_&&_') return logical(a, b, false);
      if (fn === '_||_') return logical(a, b, true);
    }
    if (fn === '_?_:_' && args.length === 3 && a && b && c) return (frame) => {
      const test = a(frame);
      return test === true ? b(frame) : test === false ? c(frame) : ERROR;
    };
    if (fn === 'type' && args.length === 1 && a) return (frame) => typeOf(a, a(frame));
    if (fn === 'duration' && argExprs.length === 1 && !target) {
      const text = argExprs[0]!.exprKind.case === 'constExpr' ? argExprs[0]!.exprKind.value.constantKind.value : undefined;
      const ns = typeof text === 'string' ? durationNs(text) : undefined;
      if (ns === undefined) return undefined;
      const span = new Span(ns);
      return () => span;
    }
    const method = METHODS[fn] ?? this.functions[fn];
    if (!method) return undefined;
    const node: Node = (frame) => {
      const values: Value[] = [];
      for (const arg of args) {
        const value = arg(frame);
        if (value === ERROR) return ERROR;
        values.push(value);
      }
      try {
        return method(...values);
      } catch {
        return ERROR;
      }
    };
    return RESULT_TYPES[fn] ? typed(node, RESULT_TYPES[fn]) : node;
  }

  /** A node with no variable under it, evaluated once (a literal list of patterns, a constant duration). */
  private folded(node: Node, expr: CelExpr): Node {
    if (!isConstant(expr)) return node;
    const value = node({ bindings: {}, vars: [] });
    const constant: Node = () => value;
    const type = numberTypes.get(node);
    return type ? typed(constant, type) : constant;
  }
}

/** An expression with no variable under it (nor `type`, which also reads how the number was written). */
function isConstant(expr: CelExpr): boolean {
  const kind = expr.exprKind;
  if (kind.case === 'constExpr') return true;
  if (kind.case === 'listExpr') return kind.value.elements.every(isConstant);
  if (kind.case === 'callExpr') return kind.value.function !== 'type' && (!kind.value.target || isConstant(kind.value.target)) && kind.value.args.every(isConstant);
  return false;
}

type Comprehension = Extract<CelExpr['exprKind'], { case: 'comprehensionExpr' }>['value'];

/**
 * `&&` (decisive false) and `||` (decisive true) as CEL evaluates them: either side's decisive
 * value wins whatever the other is, an error included; else both must be booleans.
 */
function logical(a: Node, b: Node, decisive: boolean): Node {
  return (frame) => {
    const l = a(frame);
    if (l === decisive) return decisive;
    const r = b(frame);
    if (r === decisive) return decisive;
    return l === !decisive && r === !decisive ? !decisive : ERROR;
  };
}

const isMap = (value: Value): value is Record<string, Value> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Instant) && !(value instanceof Span) && !(value instanceof CelTypeTag);

function fieldOf(parent: Value, field: string): Value {
  if (!isMap(parent) || !Object.hasOwn(parent, field)) return ERROR;
  const value = parent[field];
  return value === undefined ? ERROR : value;
}

/** CEL equality: numbers across int and double, lists and maps element by element, other types never equal. */
function equals(a: Value, b: Value): boolean {
  if (typeof a === 'number' || typeof a === 'bigint') return (typeof b === 'number' || typeof b === 'bigint') && Number(a) === Number(b);
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => equals(item, b[i]));
  if (a instanceof Instant || a instanceof Span) return b instanceof a.constructor && (b as Instant).ns === a.ns;
  if (isMap(a)) {
    if (!isMap(b)) return false;
    const keys = Object.keys(a).filter((key) => a[key] !== undefined);
    return keys.length === Object.keys(b).filter((key) => b[key] !== undefined).length && keys.every((key) => Object.hasOwn(b, key) && equals(a[key], b[key]));
  }
  return a === b;
}

function ordered(l: Value, r: Value): number | typeof ERROR {
  if ((l instanceof Instant && r instanceof Instant) || (l instanceof Span && r instanceof Span)) return l.ns < r.ns ? -1 : l.ns > r.ns ? 1 : 0;
  const numeric = (typeof l === 'number' || typeof l === 'bigint') && (typeof r === 'number' || typeof r === 'bigint');
  if (numeric) return Number(l) < Number(r) ? -1 : Number(l) > Number(r) ? 1 : Number.isNaN(Number(l)) || Number.isNaN(Number(r)) ? NaN : 0;
  if ((typeof l === 'string' && typeof r === 'string') || (typeof l === 'boolean' && typeof r === 'boolean')) return l < r ? -1 : l > r ? 1 : 0;
  return ERROR;
}

const compare =
  (test: (order: number) => boolean) =>
  (l: Value, r: Value): Value => {
    const order = ordered(l, r);
    return order === ERROR ? ERROR : test(order);
  };

const BINARY: Readonly<Record<string, (l: Value, r: Value) => Value>> = {
  '_==_': equals,
  '_!=_': (l, r) => !equals(l, r),
  '_<_': compare((o) => o < 0),
  '_<=_': compare((o) => o <= 0),
  '_>_': compare((o) => o > 0),
  '_>=_': compare((o) => o >= 0),
  '@in': (element, container) => {
    if (Array.isArray(container)) return container.some((item) => equals(element, item));
    // A key whose value is null is not in the map as the interpreter's input conversion reads it.
    if (isMap(container)) return typeof element === 'string' && Object.hasOwn(container, element) && container[element] !== undefined && container[element] !== null;
    return ERROR;
  },
  '_[_]': (container, key) => {
    if (Array.isArray(container)) return typeof key === 'number' && Number.isInteger(key) && key >= 0 && key < container.length ? container[key] : ERROR;
    return typeof key === 'string' ? fieldOf(container, key) : ERROR;
  },
};

const stringMethod =
  (test: (s: string, arg: string) => boolean) =>
  (s: Value, arg: Value): Value =>
    typeof s === 'string' && typeof arg === 'string' ? test(s, arg) : ERROR;

const METHODS: Readonly<Record<string, (...args: Value[]) => Value>> = {
  contains: stringMethod((s, arg) => s.includes(arg)),
  startsWith: stringMethod((s, arg) => s.startsWith(arg)),
  endsWith: stringMethod((s, arg) => s.endsWith(arg)),
  timestamp: timestampOf,
  size: (value) => {
    if (typeof value === 'string') return [...value].length;
    if (Array.isArray(value)) return value.length;
    if (isMap(value)) return Object.keys(value).filter((key) => value[key] !== undefined).length;
    return ERROR;
  },
};

/** The number type of what a function returns. */
const RESULT_TYPES: Readonly<Record<string, NumberType>> = { size: 'int', quantity: 'double', versionCompare: 'int' };

function typeOf(node: Node, value: Value): Value {
  if (value === ERROR) return ERROR;
  const name =
    typeof value === 'string' ? 'string'
    : typeof value === 'boolean' ? 'bool'
    : typeof value === 'number' ? numberType(node, value)
    : value === null ? 'null_type'
    : Array.isArray(value) ? 'list'
    : value instanceof CelTypeTag ? 'type'
    : isMap(value) ? 'map'
    : undefined;
  return name === undefined ? ERROR : TYPES.get(name)!;
}

const ARITHMETIC: Readonly<Record<string, { numbers: (l: number, r: number, type: NumberType) => Value; other: (l: Value, r: Value) => Value }>> = {
  '_+_': {
    numbers: (l, r) => l + r,
    other: (l, r) => {
      if (typeof l === 'string' && typeof r === 'string') return l + r;
      if (Array.isArray(l) && Array.isArray(r)) return [...l, ...r];
      if (l instanceof Instant && r instanceof Span) return new Instant(l.ns + r.ns);
      if (l instanceof Span && r instanceof Instant) return new Instant(l.ns + r.ns);
      if (l instanceof Span && r instanceof Span) return new Span(l.ns + r.ns);
      return ERROR;
    },
  },
  '_-_': {
    numbers: (l, r) => l - r,
    other: (l, r) => {
      if (l instanceof Instant && r instanceof Instant) return new Span(l.ns - r.ns);
      if (l instanceof Instant && r instanceof Span) return new Instant(l.ns - r.ns);
      if (l instanceof Span && r instanceof Span) return new Span(l.ns - r.ns);
      return ERROR;
    },
  },
  '_*_': { numbers: (l, r) => l * r, other: () => ERROR },
};

/** RFC 3339 as CEL's `timestamp(string)` takes it (protobuf's JSON form of a Timestamp). */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

function timestampOf(text: Value): Value {
  const m = typeof text === 'string' ? RFC3339.exec(text) : null;
  if (!m) return ERROR;
  const [, y, mo, d, h, mi, sec, fraction = '', zone] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec));
  if (Number.isNaN(ms) || new Date(ms).getUTCDate() !== Number(d)) return ERROR;
  const offsetMinutes = zone === 'Z' ? 0 : (zone!.startsWith('-') ? -1 : 1) * (Number(zone!.slice(1, 3)) * 60 + Number(zone!.slice(4, 6)));
  return new Instant((BigInt(ms / 1000) - BigInt(offsetMinutes * 60)) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0')));
}

const DURATION_UNITS: Readonly<Record<string, number>> = { h: 3600e9, m: 60e9, s: 1e9, ms: 1e6, us: 1e3, ns: 1 };

/** A Go duration string (`1800s`, `1h30m`, `1.5h`), as CEL's `duration(string)`; undefined when not one. */
function durationNs(text: string): bigint | undefined {
  const m = /^(-?)((?:\d+(?:\.\d+)?(?:h|ms|us|ns|m|s))+)$/.exec(text);
  if (!m) return undefined;
  let ns = 0;
  for (const [, amount, unit] of m[2]!.matchAll(/(\d+(?:\.\d+)?)(h|ms|us|ns|m|s)/g)) ns += Number(amount) * DURATION_UNITS[unit!]!;
  return BigInt(Math.round(m[1] ? -ns : ns));
}
