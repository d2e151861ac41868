// Stryker ignorers, the rules of the mutation bench's triage that apply to whole classes of mutants. The reference provider's fault switches are test equipment, not provider behaviour.
// Certification runs the provider with no fault on, so code that only a switch reaches is dead there, and a
// mutant of the switch itself (`faults.has(x)` → false) changes nothing. Both would be noise in the survivors;
// so would the wording of error messages, which the contract leaves free.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// Stryker's own parser (it instruments with Babel): the ignorer runs only under Stryker.
import { parse } from '@babel/parser';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

/** `faults.has(…)` or `<anything>.faults.has(…)`. */
function isFaultSwitch(node) {
  if (node?.type !== 'CallExpression') return false;
  const callee = node.callee;
  return callee?.type === 'MemberExpression' && callee.property?.name === 'has' && isFaults(callee.object);
}

/** `faults` or `<anything>.faults`: the set of switches handed to a helper. */
function isFaults(node) {
  return (
    (node?.type === 'Identifier' && node.name === 'faults') ||
    (node?.type === 'MemberExpression' && node.property?.name === 'faults')
  );
}

/** Where the fault files are, from the directory Stryker runs in (the checkout or its sandbox copy). */
const FAULT_FILES = join('src', 'reference-provider');
/** Per fault file, the names of its exported functions that are false with every fault off. */
const predicatesByFile = new Map();

const returnsFalse = (node) =>
  (node?.type === 'ReturnStatement' && node.argument?.type === 'BooleanLiteral' && node.argument.value === false) ||
  (node?.type === 'BlockStatement' && node.body.length === 1 && returnsFalse(node.body[0]));

/**
 * Whether a function is false with every fault off, read from its own code: an expression body true only with a
 * fault on; or a block that opens with `if (!switch) return false`; or a block of only `if (only-with-fault) …`
 * (no else) and `return false` / `return <only with a fault>`. Anything else is not counted (its mutants stay).
 */
function falseWithoutFaults(fn) {
  const { body } = fn;
  if (body.type !== 'BlockStatement') return onlyWithFault(body);
  const [first] = body.body;
  if (first?.type === 'IfStatement' && !first.alternate && onlyWithoutFault(first.test) && returnsFalse(first.consequent))
    return true;
  return body.body.every(
    (statement) =>
      (statement.type === 'IfStatement' && !statement.alternate && onlyWithFault(statement.test)) ||
      returnsFalse(statement) ||
      (statement.type === 'ReturnStatement' && onlyWithFault(statement.argument)),
  );
}

function readPredicates(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return new Set();
  }
  const names = new Set();
  for (const statement of parse(text, { sourceType: 'module', plugins: ['typescript'] }).program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : undefined;
    if (declaration?.type === 'FunctionDeclaration' && declaration.id && falseWithoutFaults(declaration))
      names.add(declaration.id.name);
    if (declaration?.type !== 'VariableDeclaration') continue;
    for (const { id, init } of declaration.declarations)
      if (id.type === 'Identifier' && init?.type === 'ArrowFunctionExpression' && falseWithoutFaults(init))
        names.add(id.name);
  }
  return names;
}

/**
 * A fault file's predicate called with the switches (`cartErrors(body, state.faults)`): imported from a `*-faults`
 * file (test equipment) and, by its own code there, false with every fault off. Fault files also hold helpers that
 * compute with the faults (`subtotalOf(lines, faults)`): those are not predicates, and their mutants stay.
 */
function isFaultPredicate(node, scope) {
  if (node?.type !== 'CallExpression' || node.callee?.type !== 'Identifier' || !node.arguments.some(isFaults))
    return false;
  const binding = scope?.getBinding(node.callee.name);
  const source = binding?.kind === 'module' ? binding.path.parent?.source?.value : undefined;
  if (typeof source !== 'string' || !/^\.\/[\w-]+-faults\.js$/.test(source)) return false;
  const file = join(process.cwd(), FAULT_FILES, source.slice(2).replace(/\.js$/, '.ts'));
  if (!predicatesByFile.has(file)) predicatesByFile.set(file, readPredicates(file));
  const imported = binding.path.node.imported?.name ?? node.callee.name;
  return predicatesByFile.get(file).has(imported);
}

/**
 * True when the expression is true only with a fault on: a switch, a fault file's predicate, an `&&` with one of
 * those as an operand, or an `||` of such expressions only.
 */
function onlyWithFault(node, scope) {
  if (isFaultSwitch(node) || isFaultPredicate(node, scope)) return true;
  if (node?.type !== 'LogicalExpression') return false;
  if (node.operator === '&&') return onlyWithFault(node.left, scope) || onlyWithFault(node.right, scope);
  return node.operator === '||' && onlyWithFault(node.left, scope) && onlyWithFault(node.right, scope);
}

/** True when the expression is false only with a fault on: `!switch`. */
function onlyWithoutFault(node, scope) {
  return node?.type === 'UnaryExpression' && node.operator === '!' && onlyWithFault(node.argument, scope);
}

const REASON = 'fault switch (test equipment): certification runs the reference provider with every fault off';
const FREE_TEXT =
  "an error answer's message is free text: the contract's ErrorResponse names it without a rule (Errors: { code, message })";

/** An error answer's message: a `message` property's value, or the third argument of `fail(status, code, message)`. */
function isErrorMessage(child, parent) {
  const node = parent.node;
  if (node.type === 'ObjectProperty') return child.key === 'value' && node.key?.name === 'message';
  return node.type === 'CallExpression' && node.callee?.name === 'fail' && child.listKey === 'arguments' && child.key === 2;
}

class FaultSwitchIgnorer {
  shouldIgnore(path) {
    const { scope } = path;
    for (let child = path, parent = path.parentPath; parent; child = parent, parent = parent.parentPath) {
      const node = parent.node;
      if (onlyWithFault(child.node, scope)) return REASON;
      if (isErrorMessage(child, parent)) return FREE_TEXT;
      const branching = node.type === 'IfStatement' || node.type === 'ConditionalExpression';
      if (branching && child.key === 'consequent' && onlyWithFault(node.test, scope)) return REASON;
      if (branching && child.key === 'alternate' && onlyWithoutFault(node.test, scope)) return REASON;
    }
    return undefined;
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Ignore, 'fault-switches', FaultSwitchIgnorer)];
