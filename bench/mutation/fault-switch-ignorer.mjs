// Stryker ignorers, the rules of the mutation bench's triage that apply to whole classes of mutants. The reference provider's fault switches are test equipment, not provider behaviour.
// Certification runs the provider with no fault on, so code that only a switch reaches is dead there, and a
// mutant of the switch itself (`faults.has(x)` → false) changes nothing. Both would be noise in the survivors;
// so would the wording of error messages, which the contract leaves free.
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

/**
 * A fault file's predicate called with the switches (`cartErrors(body, state.faults)`). Fault files (`*-faults.ts`)
 * are test equipment, and each predicate in them is false with every fault off: it begins with a switch
 * (`faults.has(…) && …`, or `if (!faults.has(…)) return false`), which the reference provider's tests of its faults
 * hold (each fault breaks its rule, and the rule holds without it).
 */
function isFaultPredicate(node, scope) {
  if (node?.type !== 'CallExpression' || node.callee?.type !== 'Identifier' || !node.arguments.some(isFaults))
    return false;
  const binding = scope?.getBinding(node.callee.name);
  const source = binding?.kind === 'module' ? binding.path.parent?.source?.value : undefined;
  return typeof source === 'string' && /-faults\.js$/.test(source);
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
